/**
 * The append-only audit log of certified reports, kept in the configured store (LogStore) and mirrored in
 * memory as a MerkleTree.
 *
 * Trust and cache policy:
 * - The store's leaves are read once (then only the new ones) into the in-memory tree. A signed checkpoint is
 *   accepted only when its signature is valid and the tree's root at its size equals its root_hash; the
 *   verdict is cached per checkpoint text (a prefix's root never changes in an append-only tree).
 * - Every check of a report reads the store again for what can be tampered with: its leaf's index (findLeaf),
 *   the log size and the latest checkpoint. A leaf changed in the store is then no longer found (caught at
 *   once); a process that loads a changed store computes a root that no longer matches the signed checkpoints.
 * - A new checkpoint is signed only after the previous one was checked against the tree, so a changed history
 *   is never re-signed; append refuses while the log does not match its checkpoint.
 * - Appends are linearised by the store (appendLeaves is atomic); any instance signs a checkpoint for a size
 *   that has none yet, so a crash between append and signing heals on the next call.
 */
import type { LogStore } from '../store/types.ts';
import {
  parseCheckpoint,
  loadSigner,
  verifyCheckpoint,
  type Checkpoint,
  type PublicKeyInfo,
  type Signer,
} from './checkpoint.ts';
import { MerkleTree, leafHashOf, verifyInclusion } from './merkle.ts';

/** How far below the log size to look for the latest checkpoint. */
const CHECKPOINT_SCAN = 1000;

export class AuditIntegrityError extends Error {}

export type LogCheck =
  | { ok: true; leafIndex: number; checkpoint: Checkpoint; proof: string[] }
  | {
      ok: false;
      reason: 'not_in_log' | 'not_yet_signed' | 'checkpoint_invalid' | 'root_mismatch' | 'entry_mismatch';
      message: string;
    };

export interface InclusionProof {
  report_hash: string;
  leaf_hash: string;
  leaf_index: number;
  tree_size: number;
  inclusion_path: string[];
  checkpoint: Checkpoint;
}

export interface ConsistencyProof {
  from: number;
  to: number;
  consistency_path: string[];
  from_checkpoint: Checkpoint | null;
  to_checkpoint: Checkpoint | null;
}

type Verdict =
  | { ok: true; cp: Checkpoint }
  | { ok: false; reason: 'checkpoint_invalid' | 'root_mismatch'; message: string };

export class AuditLog {
  private readonly tree = new MerkleTree();
  private signerPromise: Promise<Signer> | undefined;
  private lock: Promise<unknown> = Promise.resolve();
  private readonly verdicts = new Map<string, Verdict>();
  private readonly now: () => number;

  constructor(
    private readonly store: LogStore,
    private readonly opts: { signingKey?: string; now?: () => number } = {},
  ) {
    this.now = opts.now ?? Date.now;
  }

  signer(): Promise<Signer> {
    this.signerPromise ??= loadSigner(this.store, this.opts.signingKey).catch((err: unknown) => {
      this.signerPromise = undefined;
      throw err;
    });
    return this.signerPromise;
  }

  async publicKey(): Promise<PublicKeyInfo> {
    return (await this.signer()).publicInfo();
  }

  /** Append report hashes (64 hex each) as one atomic step; returns the first leaf index and the checkpoint covering them. */
  async append(reportHashes: string[]): Promise<{ first: number; checkpoint: Checkpoint }> {
    return this.exclusive(async () => {
      await this.sync();
      const latest = await this.latest(this.tree.size);
      if (latest) {
        const v = await this.judge(latest.json);
        if (!v.ok) throw new AuditIntegrityError(`refusing to append: ${v.message}`);
      }
      if (reportHashes.length === 0) {
        const cp = latest ? parseCheckpoint(latest.json) : null;
        if (cp) return { first: this.tree.size, checkpoint: cp };
      }
      const first = await this.store.appendLeaves(reportHashes.map(leafHashOf));
      await this.sync();
      const after = await this.latest(this.tree.size);
      const cp = after ? parseCheckpoint(after.json) : null;
      if (!cp || cp.tree_size < first + reportHashes.length)
        throw new AuditIntegrityError('no checkpoint covers the new entries');
      return { first, checkpoint: cp };
    });
  }

  /**
   * Null when the store's log still extends what this process has seen (and its latest checkpoint checks out);
   * otherwise what is wrong, e.g. a log that shrank because the store was wiped or replaced. For /healthz.
   */
  async integrity(): Promise<string | null> {
    try {
      await this.refresh();
    } catch (err) {
      if (err instanceof AuditIntegrityError) return err.message;
      throw err;
    }
    const latest = await this.latest(this.tree.size);
    if (!latest) return null;
    const v = await this.judge(latest.json);
    return v.ok ? null : v.message;
  }

  /** Is this report hash in the store's log (signed or not, checked or not)? */
  async has(reportHash: string): Promise<boolean> {
    return (await this.store.findLeaf(leafHashOf(reportHash))) >= 0;
  }

  /** The latest checkpoint (signing one when the log grew without one), or a stored one of a given size. */
  async checkpoint(size?: number): Promise<Checkpoint | null> {
    if (size !== undefined) {
      const json = await this.store.getCheckpoint(size);
      return json === null ? null : parseCheckpoint(json);
    }
    await this.refresh();
    const latest = await this.latest(this.tree.size);
    return latest ? parseCheckpoint(latest.json) : null;
  }

  /**
   * Is this report hash in the log under a valid signed checkpoint? Reads the store for the log size, the
   * latest checkpoint and the leaf's index on every call; the tree itself is cached.
   */
  async check(reportHash: string): Promise<LogCheck> {
    await this.refresh();
    const latest = await this.latest(this.tree.size);
    if (!latest) return { ok: false, reason: 'not_yet_signed', message: 'The audit log has no signed checkpoint yet.' };
    const v = await this.judge(latest.json);
    if (!v.ok) return v;
    const leaf = leafHashOf(reportHash);
    const index = await this.store.findLeaf(leaf);
    if (index < 0) return { ok: false, reason: 'not_in_log', message: 'The report hash is not in the audit log.' };
    if (index >= v.cp.tree_size)
      return {
        ok: false,
        reason: 'not_yet_signed',
        message: 'The report is in the audit log but not yet under a signed checkpoint.',
      };
    const proof = this.tree.inclusionProof(index, v.cp.tree_size);
    if (this.tree.leaf(index) !== leaf || !verifyInclusion(leaf, index, v.cp.tree_size, proof, v.cp.root_hash)) {
      return {
        ok: false,
        reason: 'entry_mismatch',
        message: `The audit log entry ${index} no longer matches the signed checkpoint.`,
      };
    }
    return { ok: true, leafIndex: index, checkpoint: v.cp, proof };
  }

  /** An inclusion proof of a report hash under the latest checkpoint, or under the stored checkpoint of `size`. */
  async inclusion(reportHash: string, size?: number): Promise<InclusionProof | null> {
    await this.refresh();
    const cp = size === undefined ? await this.checkpoint() : await this.checkpoint(size);
    if (!cp || cp.tree_size > this.tree.size) return null;
    const leaf = leafHashOf(reportHash);
    const index = await this.store.findLeaf(leaf);
    if (index < 0 || index >= cp.tree_size) return null;
    return {
      report_hash: reportHash,
      leaf_hash: leaf,
      leaf_index: index,
      tree_size: cp.tree_size,
      inclusion_path: this.tree.inclusionProof(index, cp.tree_size),
      checkpoint: cp,
    };
  }

  /** A consistency proof from size `from` to size `to` (default: the latest checkpoint's size). */
  async consistency(from: number, to?: number): Promise<ConsistencyProof | null> {
    await this.refresh();
    const target = to ?? (await this.checkpoint())?.tree_size ?? this.tree.size;
    if (from < 0 || from > target || target > this.tree.size) return null;
    return {
      from,
      to: target,
      consistency_path: this.tree.consistencyProof(from, target),
      from_checkpoint: await this.checkpoint(from),
      to_checkpoint: await this.checkpoint(target),
    };
  }

  private exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.lock.then(fn, fn);
    this.lock = run.catch(() => undefined);
    return run;
  }

  /** Sync when the store's log has grown since the last look. */
  private async refresh(): Promise<void> {
    const size = await this.store.logSize();
    if (size !== this.tree.size) await this.exclusive(() => this.sync());
  }

  /** Read new leaves into the tree; sign a checkpoint for the store's size when it has none (and history checks out). */
  private async sync(): Promise<void> {
    const size = await this.store.logSize();
    if (size < this.tree.size)
      throw new AuditIntegrityError(
        `the audit log in the store has ${size} entries, fewer than the ${this.tree.size} this process has already seen: the store was wiped or replaced`,
      );
    if (size > this.tree.size) {
      const leaves = await this.store.getLeaves(this.tree.size, size);
      if (leaves.length !== size - this.tree.size)
        throw new AuditIntegrityError('the audit log store returned a short read');
      for (const leaf of leaves) this.tree.append(leaf);
    }
    if (size === 0 || (await this.store.getCheckpoint(size)) !== null) return;
    const previous = await this.latest(size - 1);
    if (previous && !(await this.judge(previous.json)).ok) return;
    const signer = await this.signer();
    const cp = signer.sign(size, this.tree.root(size), new Date(this.now()).toISOString());
    await this.store.putCheckpoint(size, JSON.stringify(cp));
  }

  /** The stored checkpoint of the largest size <= `size` (looking at most CHECKPOINT_SCAN sizes down). */
  private async latest(size: number): Promise<{ size: number; json: string } | null> {
    for (let n = size; n > 0 && n > size - CHECKPOINT_SCAN; n--) {
      const json = await this.store.getCheckpoint(n);
      if (json !== null) return { size: n, json };
    }
    return null;
  }

  /** Check a checkpoint's text against the signing key and the tree; cached per text. */
  private async judge(json: string): Promise<Verdict> {
    const cached = this.verdicts.get(json);
    if (cached) return cached;
    const signer = await this.signer();
    const cp = parseCheckpoint(json);
    let v: Verdict;
    if (cp && cp.key_id !== signer.keyId) {
      // Most often the operator's key changed (a restart without SVC_SIGNING_KEY generates one): say so.
      v = {
        ok: false,
        reason: 'checkpoint_invalid',
        message:
          `The audit log checkpoint is not validly signed: it was signed by key ${cp.key_id}, but this instance ` +
          `signs with key ${signer.keyId} (the signing key changed; set SVC_SIGNING_KEY to the key that signed the log).`,
      };
    } else if (!cp || !verifyCheckpoint(cp, signer.publicKey)) {
      v = { ok: false, reason: 'checkpoint_invalid', message: 'The audit log checkpoint is not validly signed.' };
    } else if (cp.tree_size > this.tree.size) {
      return { ok: false, reason: 'root_mismatch', message: 'The audit log is shorter than its signed checkpoint.' };
    } else if (this.tree.root(cp.tree_size) !== cp.root_hash) {
      v = { ok: false, reason: 'root_mismatch', message: 'The audit log no longer matches its signed checkpoint.' };
    } else {
      v = { ok: true, cp };
    }
    if (this.verdicts.size > 256) this.verdicts.clear();
    this.verdicts.set(json, v);
    return v;
  }
}
