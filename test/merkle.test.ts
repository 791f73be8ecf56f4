import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import { MerkleTree, leafHashOf, sha256Hex, verifyConsistency, verifyInclusion } from '../src/audit/merkle.ts';

/** RFC 6962 MTH written the slow, obvious way, to check the tree against. */
function mth(leaves: Buffer[]): Buffer {
  if (leaves.length === 0) return createHash('sha256').digest();
  if (leaves.length === 1) return leaves[0]!;
  let k = 1;
  while (k * 2 < leaves.length) k *= 2;
  return createHash('sha256')
    .update(Buffer.from([1]))
    .update(mth(leaves.slice(0, k)))
    .update(mth(leaves.slice(k)))
    .digest();
}

const reportHash = (i: number) => sha256Hex(`report ${i}`);
const leaves = (n: number) => Array.from({ length: n }, (_, i) => leafHashOf(reportHash(i)));

describe('merkle tree (RFC 9162)', () => {
  it('hashes leaves with the 0x00 prefix and nodes with 0x01', () => {
    const data = reportHash(0);
    assert.equal(
      leafHashOf(data),
      createHash('sha256')
        .update(Buffer.concat([Buffer.from([0]), Buffer.from(data, 'hex')]))
        .digest('hex'),
    );
    const t = new MerkleTree(leaves(2));
    const expect = createHash('sha256')
      .update(Buffer.concat([Buffer.from([1]), Buffer.from(leaves(2)[0]!, 'hex'), Buffer.from(leaves(2)[1]!, 'hex')]))
      .digest('hex');
    assert.equal(t.root(), expect);
  });

  it('matches the naive MTH for every prefix up to 70 leaves', () => {
    const all = leaves(70);
    const t = new MerkleTree(all);
    for (let n = 0; n <= 70; n++) {
      assert.equal(t.root(n), mth(all.slice(0, n).map((h) => Buffer.from(h, 'hex'))).toString('hex'), `size ${n}`);
    }
  });

  it('inclusion proofs verify for every leaf of every size up to 40, and fail when anything changes', () => {
    const all = leaves(40);
    const t = new MerkleTree(all);
    for (let n = 1; n <= 40; n++) {
      const root = t.root(n);
      for (let i = 0; i < n; i++) {
        const proof = t.inclusionProof(i, n);
        assert.ok(verifyInclusion(all[i]!, i, n, proof, root), `leaf ${i} of ${n}`);
        if (n > 1) {
          assert.equal(verifyInclusion(all[(i + 1) % n]!, i, n, proof, root), false, 'another leaf');
          assert.equal(verifyInclusion(all[i]!, i, n, proof, t.root(n - 1)), false, 'another root');
        }
      }
    }
  });

  it('consistency proofs verify between every pair of sizes up to 33', () => {
    const all = leaves(33);
    const t = new MerkleTree(all);
    for (let m = 1; m <= 33; m++) {
      for (let n = m; n <= 33; n++) {
        const proof = t.consistencyProof(m, n);
        assert.ok(verifyConsistency(m, n, t.root(m), t.root(n), proof), `${m} -> ${n}`);
        if (m < n)
          assert.equal(verifyConsistency(m, n, t.root(m), t.root(n - 1), proof), false, `${m} -> ${n} wrong new root`);
      }
    }
  });

  it('a consistency proof fails once an earlier leaf is changed', () => {
    const all = leaves(20);
    const before = new MerkleTree(all);
    const oldRoot = before.root(7);
    const newRoot = before.root(20);
    assert.ok(verifyConsistency(7, 20, oldRoot, newRoot, before.consistencyProof(7, 20)));
    const changed = [...all];
    const b = Buffer.from(changed[3]!, 'hex');
    b[0] = b[0]! ^ 1;
    changed[3] = b.toString('hex');
    const after = new MerkleTree(changed);
    assert.equal(verifyConsistency(7, 20, oldRoot, after.root(20), after.consistencyProof(7, 20)), false);
    assert.equal(verifyConsistency(7, 20, oldRoot, newRoot, after.consistencyProof(7, 20)), false);
  });

  it('rejects malformed proofs without throwing', () => {
    const t = new MerkleTree(leaves(5));
    assert.equal(verifyInclusion('zz', 0, 5, t.inclusionProof(0), t.root()), false);
    assert.equal(verifyInclusion(leaves(1)[0]!, 0, 5, ['nothex'], t.root()), false);
    assert.equal(verifyInclusion(leaves(1)[0]!, 7, 5, t.inclusionProof(0), t.root()), false);
    assert.equal(verifyConsistency(3, 2, t.root(3), t.root(2), []), false);
    assert.throws(() => t.inclusionProof(5), RangeError);
    assert.throws(() => t.root(6), RangeError);
  });
});
