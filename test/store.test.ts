/** One suite, run against every store (memory, SQLite, Redis), so the implementations cannot drift apart. */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { MemoryStore, RedisStore, SqliteStore, type ApiKeyRecord, type Store } from '../src/store/index.ts';
import { redisSkip, redisTestUrl } from './store-helpers.ts';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-store-'));
after(() => fs.rmSync(tmp, { recursive: true, force: true }));

const HOUR = 3_600_000;
const T0 = 1_700_000_000_000 - (1_700_000_000_000 % HOUR); // start of an hour window

function keyRec(n: number, extra: Partial<ApiKeyRecord> = {}): ApiKeyRecord {
  return {
    id: `key_${n.toString(16).padStart(8, '0')}`,
    hash: n.toString(16).padStart(64, '0'),
    email: `k${n}@example.com`,
    plan: 'free',
    createdAt: new Date(T0 + n).toISOString(),
    rateLimit: 1000,
    callsRemaining: 3,
    active: true,
    revoked: false,
    ...extra,
  };
}

const hex = (n: number) => n.toString(16).padStart(64, '0');

function suite(name: string, make: () => Store, skip: false | string = false): void {
  describe(`store: ${name}`, { skip }, () => {
    let store: Store;
    const fresh = () => {
      store = make();
      return store;
    };
    after(async () => {
      if (store instanceof RedisStore) await store.destroyAll();
      await store?.close();
    });

    it('is reachable', async () => {
      fresh();
      assert.equal(store.kind, name.split(' ')[0]);
      assert.equal(await store.ping(), true);
    });

    it('counts hits per key in fixed windows, resetting at the window edge', async () => {
      assert.deepEqual(await store.hit('score:1.2.3.4', HOUR, T0 + 10), { count: 1, resetMs: T0 + HOUR });
      assert.deepEqual(await store.hit('score:1.2.3.4', HOUR, T0 + HOUR - 1), { count: 2, resetMs: T0 + HOUR });
      assert.equal((await store.hit('score:5.6.7.8', HOUR, T0 + 20)).count, 1);
      assert.equal((await store.hit('submit:1.2.3.4', HOUR, T0 + 20)).count, 1);
      assert.deepEqual(await store.hit('score:1.2.3.4', HOUR, T0 + HOUR), { count: 1, resetMs: T0 + 2 * HOUR });
    });

    it('never loses a hit under concurrency', async () => {
      const counts = await Promise.all(Array.from({ length: 60 }, () => store.hit('burst', HOUR, T0 + 5)));
      assert.deepEqual(
        counts.map((c) => c.count).sort((a, b) => a - b),
        Array.from({ length: 60 }, (_, i) => i + 1),
      );
    });

    it('stores API keys by hash and takes calls from the allowance atomically', async () => {
      await store.createKey(keyRec(1, { name: 'N', organization: 'O' }));
      const got = await store.getKeyByHash(hex(1));
      assert.deepEqual(got, keyRec(1, { name: 'N', organization: 'O' }));
      assert.equal(await store.getKeyByHash(hex(999)), null);
      const taken = await Promise.all(Array.from({ length: 5 }, () => store.consumeCall(hex(1))));
      assert.deepEqual(taken.sort(), [-1, -1, 0, 1, 2]);
      assert.equal((await store.getKeyByHash(hex(1)))?.callsRemaining, 0);
      assert.equal(await store.consumeCall(hex(999)), -1);
    });

    it('lists, patches and activates keys', async () => {
      await store.createKey(keyRec(2, { active: false, verifyTokenHash: hex(77) }));
      assert.deepEqual(
        (await store.listKeys()).map((k) => k.id),
        ['key_00000001', 'key_00000002'],
      );
      assert.equal(await store.updateKey('key_00000001', { revoked: true, callsRemaining: 50, rateLimit: 5000 }), true);
      assert.equal(await store.updateKey('key_nope', { revoked: true }), false);
      const k1 = await store.getKeyByHash(hex(1));
      assert.equal(k1?.revoked, true);
      assert.equal(k1?.callsRemaining, 50);
      assert.equal(k1?.rateLimit, 5000);
      assert.equal(await store.activateByToken(hex(78)), null);
      const activated = await store.activateByToken(hex(77));
      assert.equal(activated?.id, 'key_00000002');
      assert.equal(activated?.active, true);
      assert.equal(activated?.verifyTokenHash, undefined);
      assert.equal(await store.activateByToken(hex(77)), null, 'a token is single use');
      assert.equal((await store.getKeyByHash(hex(2)))?.active, true);
    });

    it('de-duplicates the waitlist case-insensitively, even for simultaneous sign-ups', async () => {
      const at = new Date(T0).toISOString();
      assert.deepEqual(await store.joinWaitlist({ email: 'First@Example.com', name: 'F', createdAt: at }), {
        created: true,
        position: 1,
      });
      const racing = await Promise.all(
        ['dup@example.com', 'DUP@example.com', 'Dup@Example.COM', 'dup@EXAMPLE.com'].map((email) =>
          store.joinWaitlist({ email, createdAt: at }),
        ),
      );
      assert.equal(racing.filter((r) => r.created).length, 1);
      assert.deepEqual(new Set(racing.map((r) => r.position)), new Set([2]));
      assert.deepEqual(await store.joinWaitlist({ email: 'first@example.COM', createdAt: at }), {
        created: false,
        position: 1,
      });
    });

    it('gives distinct sign-ups stable, gapless 1-based positions', async () => {
      const at = new Date(T0).toISOString();
      const res = await Promise.all(
        Array.from({ length: 25 }, (_, i) =>
          store.joinWaitlist({ email: `u${i}@example.com`, useCase: 'x', source: 's', createdAt: at }),
        ),
      );
      assert.ok(res.every((r) => r.created));
      assert.deepEqual(
        res.map((r) => r.position).sort((a, b) => a - b),
        Array.from({ length: 25 }, (_, i) => i + 3),
      );
      const list = await store.listWaitlist();
      assert.deepEqual(
        list.map((e) => e.position),
        Array.from({ length: 27 }, (_, i) => i + 1),
      );
      assert.deepEqual(list[0], { email: 'First@Example.com', name: 'F', createdAt: at, position: 1 });
      assert.equal(list.find((e) => e.email === 'u3@example.com')?.useCase, 'x');
    });

    it('records submissions with unique millisecond ids and queues them oldest first', async () => {
      const base = {
        modelName: 'M',
        vendor: 'V',
        apiEndpoint: 'https://api.example.com',
        contactEmail: 'c@example.com',
        createdAt: new Date(T0).toISOString(),
      };
      const subs = await Promise.all(Array.from({ length: 10 }, () => store.addSubmission(base, T0)));
      const ids = subs.map((s) => s.id).sort((a, b) => a - b);
      assert.deepEqual(
        ids,
        Array.from({ length: 10 }, (_, i) => T0 + i),
      );
      const later = await store.addSubmission({ ...base, notes: 'n' }, T0 + 1_000_000);
      assert.equal(later.id, T0 + 1_000_000);
      assert.equal(later.status, 'queued');
      const list = await store.listSubmissions();
      assert.equal(list.length, 11);
      assert.equal(list.at(-1)?.notes, 'n');
      const first = await store.claimNextSubmission();
      assert.equal(first?.id, T0);
      assert.equal(first?.status, 'evaluating');
      assert.equal((await store.listSubmissions()).find((s) => s.id === T0)?.status, 'evaluating');
      const claimed = await Promise.all(Array.from({ length: 12 }, () => store.claimNextSubmission()));
      assert.equal(
        new Set(claimed.filter((c) => c).map((c) => c!.id)).size,
        10,
        'each queued submission is claimed once',
      );
      assert.equal(await store.claimNextSubmission(), null);
    });

    it('keeps reports by hash and finds them by prefix', async () => {
      const a = `ab${'0'.repeat(62)}`;
      const b = `ab${'1'.repeat(62)}`;
      const c = `ac${'0'.repeat(62)}`;
      await store.putReport(a, '{"a":1}');
      await store.putReport(a, '{"a":2}');
      await store.putReport(b, '{"b":1}');
      await store.putReport(c, '{"c":1}');
      assert.equal(await store.getReport(a), '{"a":1}', 'put is idempotent');
      assert.equal(await store.getReport('f'.repeat(64)), null);
      assert.deepEqual(await store.findReportsByPrefix('ab', 10), [a, b]);
      assert.deepEqual(await store.findReportsByPrefix('ab', 1), [a]);
      assert.deepEqual(await store.findReportsByPrefix('a', 10), [a, b, c]);
      assert.deepEqual(await store.findReportsByPrefix('e', 10), []);
    });

    it('appends to the audit log without forking under concurrency', async () => {
      assert.equal(await store.logSize(), 0);
      const firsts = await Promise.all(
        Array.from({ length: 10 }, (_, i) => store.appendLeaves([hex(1000 + 2 * i), hex(1001 + 2 * i)])),
      );
      assert.deepEqual(
        firsts.sort((x, y) => x - y),
        Array.from({ length: 10 }, (_, i) => 2 * i),
      );
      assert.equal(await store.logSize(), 20);
      const leaves = await store.getLeaves(0, 20);
      assert.equal(new Set(leaves).size, 20);
      for (const f of firsts) assert.equal(Number.parseInt(leaves[f]!, 16) % 2, 0, 'each batch stays contiguous');
      assert.deepEqual(await store.getLeaves(3, 5), leaves.slice(3, 5));
      assert.equal(await store.findLeaf(leaves[7]!), 7);
      assert.equal(await store.findLeaf(hex(5)), -1);
      assert.equal(await store.appendLeaves([leaves[7]!]), 20);
      assert.equal(await store.findLeaf(leaves[7]!), 7, 'a repeated leaf is found at its first index');
    });

    it('keeps checkpoints and set-if-absent settings', async () => {
      await store.putCheckpoint(20, '{"size":20}');
      assert.equal(await store.getCheckpoint(20), '{"size":20}');
      assert.equal(await store.getCheckpoint(21), null);
      const won = await Promise.all(['a', 'b', 'c'].map((v) => store.setIfAbsent('signing-key', v)));
      assert.equal(new Set(won).size, 1);
      assert.equal(await store.setIfAbsent('signing-key', 'z'), won[0]);
    });
  });
}

suite('memory', () => new MemoryStore());
const dbFile = path.join(tmp, 'nested', 'svc.db');
suite('sqlite', () => new SqliteStore(dbFile));
suite('redis', () => new RedisStore(redisTestUrl('store')), await redisSkip());

describe('store: sqlite durability', () => {
  it('creates its folder and keeps acknowledged writes across reopening', async () => {
    const file = path.join(tmp, 'again', 'deep', 'svc.db');
    const a = new SqliteStore(file);
    await a.joinWaitlist({ email: 'keep@example.com', createdAt: new Date(T0).toISOString() });
    await a.createKey(keyRec(9));
    await a.close();
    const b = new SqliteStore(file);
    assert.deepEqual(
      (await b.listWaitlist()).map((e) => e.email),
      ['keep@example.com'],
    );
    assert.equal((await b.getKeyByHash(hex(9)))?.id, 'key_00000009');
    await b.close();
  });
});
