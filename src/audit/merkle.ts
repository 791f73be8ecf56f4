/**
 * The Merkle tree of the audit log, as RFC 6962 / RFC 9162 (section 2.1) define it:
 *   leaf hash = SHA-256(0x00 || leaf data), node hash = SHA-256(0x01 || left || right),
 *   MTH of n > 1 leaves = node(MTH(first k), MTH(rest)) with k the largest power of two below n.
 * Here the leaf data is the 32-byte SHA-256 of a certified report.
 *
 * `MerkleTree` keeps every complete subtree hash, so the root of any prefix, an inclusion proof and a
 * consistency proof each cost O(log² n) hashes, and an append costs O(log n). Pure: no I/O.
 * Hashes cross the module boundary as lowercase hex strings.
 */
import { createHash } from 'node:crypto';

const LEAF = Buffer.from([0]);
const NODE = Buffer.from([1]);

export function sha256Hex(data: string | Buffer): string {
  return createHash('sha256').update(data).digest('hex');
}

/** Leaf hash of a report hash (64 hex): SHA-256(0x00 || 32 bytes). */
export function leafHashOf(reportHashHex: string): string {
  return createHash('sha256').update(LEAF).update(Buffer.from(reportHashHex, 'hex')).digest('hex');
}

function node(left: Buffer, right: Buffer): Buffer {
  return createHash('sha256').update(NODE).update(left).update(right).digest();
}

/** The largest power of two strictly below n (n >= 2). */
function splitPoint(n: number): number {
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
}

const HEX64 = /^[0-9a-f]{64}$/;

function toBuf(hex: string): Buffer {
  if (!HEX64.test(hex)) throw new TypeError('expected 64 lowercase hex characters');
  return Buffer.from(hex, 'hex');
}

export class MerkleTree {
  /** levels[h][i] = hash of the complete subtree of 2^h leaves starting at leaf i * 2^h. */
  private readonly levels: Buffer[][] = [[]];

  constructor(leafHashes: Iterable<string> = []) {
    for (const h of leafHashes) this.append(h);
  }

  get size(): number {
    return this.levels[0]!.length;
  }

  /** Append one leaf hash (hex). */
  append(leafHashHex: string): void {
    let h = toBuf(leafHashHex);
    let level = 0;
    for (;;) {
      const row = this.levels[level]!;
      row.push(h);
      if (row.length % 2 === 1) return;
      h = node(row[row.length - 2]!, h);
      level += 1;
      if (!this.levels[level]) this.levels.push([]);
    }
  }

  leaf(index: number): string | undefined {
    return this.levels[0]![index]?.toString('hex');
  }

  /** MTH of leaves [start, end); start is aligned to the subtree sizes the RFC recursion produces. */
  private hash(start: number, end: number): Buffer {
    const n = end - start;
    if ((n & (n - 1)) === 0 && start % n === 0) {
      const h = Math.log2(n);
      const got = this.levels[h]?.[start / n];
      if (got) return got;
    }
    const k = splitPoint(n);
    return node(this.hash(start, start + k), this.hash(start + k, end));
  }

  /** Root of the first `size` leaves (default: all). The empty tree's root is SHA-256 of nothing. */
  root(size = this.size): string {
    this.checkSize(size);
    if (size === 0) return sha256Hex(Buffer.alloc(0));
    return this.hash(0, size).toString('hex');
  }

  /** RFC 9162 2.1.3.1: the audit path of leaf `index` in the tree of the first `size` leaves. */
  inclusionProof(index: number, size = this.size): string[] {
    this.checkSize(size);
    if (!Number.isInteger(index) || index < 0 || index >= size) throw new RangeError('leaf index out of range');
    const out: Buffer[] = [];
    const path = (m: number, start: number, end: number): void => {
      const n = end - start;
      if (n === 1) return;
      const k = splitPoint(n);
      if (m < k) {
        path(m, start, start + k);
        out.push(this.hash(start + k, end));
      } else {
        path(m - k, start + k, end);
        out.push(this.hash(start, start + k));
      }
    };
    path(index, 0, size);
    return out.map((b) => b.toString('hex'));
  }

  /** RFC 9162 2.1.4.1: proof that the tree of `from` leaves is a prefix of the tree of `to` leaves. */
  consistencyProof(from: number, to = this.size): string[] {
    this.checkSize(to);
    if (!Number.isInteger(from) || from < 0 || from > to) throw new RangeError('from must be between 0 and to');
    if (from === 0 || from === to) return [];
    const out: Buffer[] = [];
    const sub = (m: number, start: number, end: number, whole: boolean): void => {
      const n = end - start;
      if (m === n) {
        if (!whole) out.push(this.hash(start, end));
        return;
      }
      const k = splitPoint(n);
      if (m <= k) {
        sub(m, start, start + k, whole);
        out.push(this.hash(start + k, end));
      } else {
        sub(m - k, start + k, end, false);
        out.push(this.hash(start, start + k));
      }
    };
    sub(from, 0, to, true);
    return out.map((b) => b.toString('hex'));
  }

  private checkSize(size: number): void {
    if (!Number.isInteger(size) || size < 0 || size > this.size) throw new RangeError('tree size out of range');
  }
}

/** RFC 9162 2.1.3.2: does `proof` show leaf `leafHash` at `index` in a tree of `size` leaves with `root`? */
export function verifyInclusion(
  leafHashHex: string,
  index: number,
  size: number,
  proof: readonly string[],
  rootHex: string,
): boolean {
  try {
    if (!Number.isSafeInteger(index) || !Number.isSafeInteger(size) || index < 0 || index >= size) return false;
    let fn = BigInt(index);
    let sn = BigInt(size - 1);
    let r = toBuf(leafHashHex);
    for (const hex of proof) {
      const p = toBuf(hex);
      if (sn === 0n) return false;
      if ((fn & 1n) === 1n || fn === sn) {
        r = node(p, r);
        while ((fn & 1n) === 0n && fn !== 0n) {
          fn >>= 1n;
          sn >>= 1n;
        }
      } else {
        r = node(r, p);
      }
      fn >>= 1n;
      sn >>= 1n;
    }
    return sn === 0n && r.equals(toBuf(rootHex));
  } catch {
    return false;
  }
}

/** RFC 9162 2.1.4.2: does `proof` show the tree (`from`, `fromRoot`) is a prefix of (`to`, `toRoot`)? */
export function verifyConsistency(
  from: number,
  to: number,
  fromRootHex: string,
  toRootHex: string,
  proof: readonly string[],
): boolean {
  try {
    if (!Number.isSafeInteger(from) || !Number.isSafeInteger(to) || from < 0 || from > to) return false;
    const firstRoot = toBuf(fromRootHex);
    const secondRoot = toBuf(toRootHex);
    if (from === to) return proof.length === 0 && firstRoot.equals(secondRoot);
    if (from === 0) return proof.length === 0;
    let path = proof.map(toBuf);
    if ((from & (from - 1)) === 0) path = [firstRoot, ...path];
    if (path.length === 0) return false;
    let fn = BigInt(from - 1);
    let sn = BigInt(to - 1);
    while ((fn & 1n) === 1n) {
      fn >>= 1n;
      sn >>= 1n;
    }
    let fr = path[0]!;
    let sr = path[0]!;
    for (const c of path.slice(1)) {
      if (sn === 0n) return false;
      if ((fn & 1n) === 1n || fn === sn) {
        fr = node(c, fr);
        sr = node(c, sr);
        while ((fn & 1n) === 0n && fn !== 0n) {
          fn >>= 1n;
          sn >>= 1n;
        }
      } else {
        sr = node(sr, c);
      }
      fn >>= 1n;
      sn >>= 1n;
    }
    return fr.equals(firstRoot) && sr.equals(secondRoot) && sn === 0n;
  } catch {
    return false;
  }
}
