import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { promisify } from 'node:util';
import Database from 'better-sqlite3';
import { Redis } from 'ioredis';
import { parseCheckpoint, verifyCheckpoint, parsePublicKey } from '../src/audit/checkpoint.ts';
import { AuditLog } from '../src/audit/log.ts';
import { leafHashOf, sha256Hex, verifyConsistency, verifyInclusion } from '../src/audit/merkle.ts';
import { RedisStore, SqliteStore } from '../src/store/index.ts';
import type { Store } from '../src/store/types.ts';
import { tmpDir } from './helpers.ts';
import { REDIS_URL, redisSkip, redisTestUrl } from './store-helpers.ts';

const run = promisify(execFile);
const hashes = (from: number, n: number) => Array.from({ length: n }, (_, i) => sha256Hex(`report ${from + i}`));
const dirs: string[] = [];
after(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

function sqliteFile(): string {
  const dir = tmpDir('svc-audit-');
  dirs.push(dir);
  return path.join(dir, 'svc.db');
}

/** Flip one hex character of a stored leaf, as someone with write access to the database could. */
function tamperLeaf(file: string, index: number): void {
  const db = new Database(file);
  const row = db.prepare<[number], { hash: string }>('SELECT hash FROM log_leaves WHERE idx = ?').get(index)!;
  const changed = (row.hash[0] === '0' ? '1' : '0') + row.hash.slice(1);
  db.prepare('UPDATE log_leaves SET hash = ? WHERE idx = ?').run(changed, index);
  db.close();
}

describe('audit log over SQLite', () => {
  it('appends, signs checkpoints and proves inclusion; the key is created once and shared through the store', async () => {
    const file = sqliteFile();
    const a = new SqliteStore(file);
    const b = new SqliteStore(file);
    const logA = new AuditLog(a);
    const logB = new AuditLog(b);
    const { first, checkpoint } = await logA.append(hashes(0, 5));
    assert.equal(first, 0);
    assert.equal(checkpoint.tree_size, 5);
    assert.deepEqual(await logB.publicKey(), await logA.publicKey(), 'a second instance uses the stored key');
    const key = parsePublicKey((await logB.publicKey()).public_key_pem);
    assert.ok(verifyCheckpoint(checkpoint, key));
    for (const h of hashes(0, 5)) {
      const c = await logB.check(h);
      assert.ok(c.ok, `report ${h} verifies from another instance`);
    }
    const p = (await logB.inclusion(hashes(0, 5)[3]!))!;
    assert.ok(
      verifyInclusion(leafHashOf(p.report_hash), p.leaf_index, p.tree_size, p.inclusion_path, p.checkpoint.root_hash),
    );
    assert.equal((await logA.check(sha256Hex('never certified'))).ok, false);
    await a.close();
    await b.close();
  });

  it('a consistency proof between two checkpoints verifies, and fails once an earlier leaf is changed', async () => {
    const file = sqliteFile();
    const store = new SqliteStore(file);
    const log = new AuditLog(store);
    const cp1 = (await log.append(hashes(0, 6))).checkpoint;
    const cp2 = (await log.append(hashes(6, 7))).checkpoint;
    const proof = (await log.consistency(cp1.tree_size, cp2.tree_size))!;
    assert.deepEqual(proof.from_checkpoint, cp1);
    assert.ok(verifyConsistency(cp1.tree_size, cp2.tree_size, cp1.root_hash, cp2.root_hash, proof.consistency_path));
    await store.close();

    tamperLeaf(file, 2);
    const reopened = new SqliteStore(file);
    const fresh = new AuditLog(reopened);
    const after = (await fresh.consistency(cp1.tree_size, cp2.tree_size))!;
    assert.equal(
      verifyConsistency(cp1.tree_size, cp2.tree_size, cp1.root_hash, cp2.root_hash, after.consistency_path),
      false,
    );
    const c = await fresh.check(hashes(0, 6)[4]!);
    assert.equal(c.ok, false, 'every report is refused once the log no longer matches its checkpoint');
    assert.match(c.ok ? '' : c.message, /no longer matches/);
    await assert.rejects(fresh.append(hashes(100, 1)), /refusing to append/, 'a changed history is never re-signed');
    await reopened.close();
  });

  it('a changed log entry is caught at once by a running instance, and proofs exported afterwards no longer verify', async () => {
    const file = sqliteFile();
    const store = new SqliteStore(file);
    const log = new AuditLog(store);
    await log.append(hashes(0, 9));
    const target = hashes(0, 9)[7]!;
    assert.ok((await log.check(target)).ok);
    const other = hashes(0, 9)[1]!;
    tamperLeaf(file, 7);
    const c = await log.check(target);
    assert.equal(c.ok, false);

    // A fresh process exports a proof of another report from the changed store: it no longer verifies.
    const freshStore = new SqliteStore(file);
    const fresh = new AuditLog(freshStore);
    const proof = (await fresh.inclusion(other))!;
    assert.equal(proof.leaf_index, 1);
    assert.equal(
      verifyInclusion(proof.leaf_hash, 1, proof.tree_size, proof.inclusion_path, proof.checkpoint.root_hash),
      false,
    );
    await store.close();
    await freshStore.close();
  });

  it('a changed checkpoint is caught', async () => {
    const file = sqliteFile();
    const store = new SqliteStore(file);
    const log = new AuditLog(store);
    const { checkpoint } = await log.append(hashes(0, 3));
    assert.ok((await log.check(hashes(0, 3)[0]!)).ok);
    const forged = { ...checkpoint, timestamp: '2030-01-01T00:00:00.000Z' };
    await store.putCheckpoint(3, JSON.stringify(forged));
    const c = await log.check(hashes(0, 3)[0]!);
    assert.equal(c.ok, false);
    assert.match(c.ok ? '' : c.message, /not validly signed/);
    await store.close();
  });

  it('a signing key that changed is named as such (both key ids and the setting), not as a forged checkpoint', async () => {
    const file = sqliteFile();
    const pem = (k: KeyObject) => k.export({ type: 'pkcs8', format: 'pem' }) as string;
    const store = new SqliteStore(file);
    const first = generateKeyPairSync('ed25519').privateKey;
    const { checkpoint } = await new AuditLog(store, { signingKey: pem(first) }).append(hashes(0, 3));
    // The operator restarts with another key (or forgets SVC_SIGNING_KEY, and one is generated).
    const c = await new AuditLog(store, { signingKey: pem(generateKeyPairSync('ed25519').privateKey) }).check(
      hashes(0, 3)[0]!,
    );
    assert.equal(c.ok, false);
    const message = c.ok ? '' : c.message;
    assert.match(message, new RegExp(`signed by key ${checkpoint.key_id}`));
    assert.match(message, /this instance signs with key [0-9a-f]{16}/);
    assert.match(message, /SVC_SIGNING_KEY/);
    // The key that signed it works again.
    assert.ok((await new AuditLog(store, { signingKey: pem(first) }).check(hashes(0, 3)[0]!)).ok);
    await store.close();
  });

  it('two concurrent ingests from two processes cannot fork the log', async () => {
    const file = sqliteFile();
    const a = new SqliteStore(file);
    await new AuditLog(a).append(hashes(0, 1)); // the signing key exists before the race
    const script = (from: number) =>
      `import { SqliteStore } from './src/store/index.ts'; import { AuditLog } from './src/audit/log.ts';
       import { sha256Hex } from './src/audit/merkle.ts';
       const s = new SqliteStore(${JSON.stringify(file)}); const log = new AuditLog(s);
       for (let i = 0; i < 10; i++) await log.append(Array.from({ length: 5 }, (_, j) => sha256Hex('report ' + (${from} + i * 5 + j))));
       await s.close();`;
    await Promise.all(
      [1000, 2000].map((from) =>
        run(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script(from)], { cwd: process.cwd() }),
      ),
    );
    await assertLinear(a, [...hashes(0, 1), ...hashes(1000, 50), ...hashes(2000, 50)]);
    await a.close();
  });
});

/** Every appended hash is in the log exactly once, every stored checkpoint verifies against one tree, and the
 *  checkpoints are consistent with each other (no fork). */
async function assertLinear(store: Store, expected: string[]): Promise<void> {
  const size = await store.logSize();
  assert.equal(size, expected.length);
  const leaves = await store.getLeaves(0, size);
  assert.deepEqual(new Set(leaves), new Set(expected.map(leafHashOf)));
  const log = new AuditLog(store);
  const key = parsePublicKey((await log.publicKey()).public_key_pem);
  let signed = 0;
  let latest: ReturnType<typeof parseCheckpoint> = null;
  for (let n = 1; n <= size; n++) {
    const json = await store.getCheckpoint(n);
    if (!json) continue;
    const cp = parseCheckpoint(json)!;
    assert.ok(verifyCheckpoint(cp, key));
    if (latest) {
      const proof = (await log.consistency(latest.tree_size, cp.tree_size))!;
      assert.ok(
        verifyConsistency(latest.tree_size, cp.tree_size, latest.root_hash, cp.root_hash, proof.consistency_path),
        `${latest.tree_size} -> ${n}`,
      );
    }
    latest = cp;
    signed += 1;
  }
  assert.ok(signed >= 2);
  assert.equal(latest?.tree_size, size, 'the final size is signed');
  for (const h of expected) assert.ok((await log.check(h)).ok);
}

describe('audit log over Redis', async () => {
  const skip = await redisSkip();
  const prefixes: string[] = [];
  after(async () => {
    if (skip) return;
    const c = new Redis(REDIS_URL);
    for (const p of prefixes) {
      const keys = await c.keys(`${p}*`);
      if (keys.length) await c.del(...keys);
    }
    c.disconnect();
  });

  it('two concurrent ingests on two connections cannot fork the log', { skip }, async () => {
    const url = redisTestUrl('audit');
    prefixes.push(new URL(url).searchParams.get('prefix')!);
    const stores = [new RedisStore(url), new RedisStore(url), new RedisStore(url)];
    const [s0, s1, s2] = stores as [RedisStore, RedisStore, RedisStore];
    await new AuditLog(s0).append(hashes(0, 1));
    const ingest = async (store: Store, from: number) => {
      const log = new AuditLog(store);
      for (let i = 0; i < 10; i++) await log.append(hashes(from + i * 5, 5));
    };
    await Promise.all([ingest(s1, 1000), ingest(s2, 2000)]);
    await assertLinear(s0, [...hashes(0, 1), ...hashes(1000, 50), ...hashes(2000, 50)]);
    for (const s of stores) await s.close();
  });
});
