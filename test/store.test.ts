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

    it('takes several calls all or none', async () => {
      await store.createKey(keyRec(3));
      await store.updateKey(keyRec(3).id, { callsRemaining: 7 });
      const taken = await Promise.all(Array.from({ length: 3 }, () => store.consumeCall(hex(3), 3)));
      assert.deepEqual(taken.sort(), [-1, 1, 4]);
      assert.equal(await store.consumeCall(hex(3), 2), -1, 'one left: two are not taken');
      assert.equal(await store.consumeCall(hex(3), 1), 0);
    });

    it('refills a key on its window’s first hit, in the same step as the hit', async () => {
      await store.createKey(keyRec(4));
      const day = 86_400_000;
      const firsts = await Promise.all(Array.from({ length: 4 }, () => store.hitAndRefill('kd:4', day, T0, hex(4))));
      assert.deepEqual(firsts.map((h) => h.count).sort(), [1, 2, 3, 4]);
      assert.equal((await store.getKeyByHash(hex(4)))?.callsRemaining, 1000, 'refilled to the rate limit');
      await store.updateKey(keyRec(4).id, { callsRemaining: 5 });
      assert.equal((await store.hitAndRefill('kd:4', day, T0 + 1, hex(4))).count, 5);
      assert.equal((await store.getKeyByHash(hex(4)))?.callsRemaining, 5, 'not the first hit: no refill');
      assert.equal((await store.hitAndRefill('kd:4', day, T0 + day, hex(4))).count, 1);
      assert.equal((await store.getKeyByHash(hex(4)))?.callsRemaining, 1000, 'the next window refills');
      await store.updateKey(keyRec(4).id, { rateLimit: 10, callsRemaining: 20 });
      await store.hitAndRefill('kd:4', day, T0 + 2 * day, hex(4));
      assert.equal((await store.getKeyByHash(hex(4)))?.callsRemaining, 20, 'never lowered');
      assert.equal((await store.hitAndRefill('kd:none', day, T0, hex(404))).count, 1, 'an unknown key: just the hit');
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

    it("records submissions with unique millisecond ids, pending the operator's approval", async () => {
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
      const list = await store.listSubmissions();
      assert.equal(list.length, 11);
      assert.equal(list.at(-1)?.notes, 'n');
      assert.equal(later.status, 'pending');
      assert.deepEqual(await store.getSubmission(later.id), later);
      assert.equal(await store.getSubmission(1), null);
    });

    it('finds a submission by the hash of its status token only', async () => {
      const rec = await store.addSubmission(
        {
          modelName: 'Tok',
          vendor: 'V',
          apiEndpoint: 'https://api.example.com/v1',
          contactEmail: 't@example.com',
          createdAt: new Date(T0).toISOString(),
          statusTokenHash: hex(4242),
        },
        T0 + 2_000_000,
      );
      assert.equal((await store.getSubmissionByStatusToken(hex(4242)))?.id, rec.id);
      assert.equal(await store.getSubmissionByStatusToken(hex(4243)), null);
    });

    it('approves, leases each job to one worker at a time, and fences a worker whose lease expired', async () => {
      const base = {
        vendor: 'V',
        apiEndpoint: 'https://api.example.com/v1',
        contactEmail: 'j@example.com',
        createdAt: new Date(T0).toISOString(),
      };
      const a = await store.addSubmission({ ...base, modelName: 'A' }, T0 + 3_000_000);
      const b = await store.addSubmission({ ...base, modelName: 'B' }, T0 + 3_000_001);
      const now = T0 + 3_000_100;
      assert.equal(await store.leaseJob('w0', now, 1000), null, 'pending submissions wait for approval');
      assert.equal(await store.enqueueJob(1, {}, now), null, 'unknown submission');
      const ja = await store.enqueueJob(a.id, { apiKeyEnv: 'LAB_KEY', model: 'a-1' }, now);
      assert.equal(ja?.state, 'queued');
      assert.equal(ja?.apiKeyEnv, 'LAB_KEY');
      assert.equal((await store.getSubmission(a.id))?.status, 'queued');
      await store.enqueueJob(b.id, {}, now + 1);
      // Six workers ask at once: each of the two jobs goes to exactly one of them, oldest first.
      const leased = await Promise.all(Array.from({ length: 6 }, (_, i) => store.leaseJob(`w${i}`, now + 2, 1000)));
      const got = leased.filter((j) => j !== null);
      assert.deepEqual(got.map((j) => j.id).sort(), [a.id, b.id].sort());
      const jobA = got.find((j) => j.id === a.id)!;
      assert.equal(jobA.state, 'running');
      assert.equal(jobA.attempts, 1);
      assert.equal(jobA.leaseUntil, now + 2 + 1000);
      assert.equal((await store.getSubmission(a.id))?.status, 'evaluating');
      const ownerA = jobA.leaseOwner!;
      assert.equal(await store.renewLease(a.id, 'intruder', now + 3, 1000), false);
      assert.equal(await store.renewLease(a.id, ownerA, now + 500, 1000), true);
      // B's lease (not renewed) has run out, A's (renewed) has not: the next worker gets B.
      assert.equal((await store.leaseJob('w8', now + 1200, 1000))?.id, b.id, 'a renewed lease is not taken');
      assert.equal(await store.saveConversation(a.id, ownerA, 'p1', '{"n":1}', { done: 1, total: 3, failed: 0 }), true);
      assert.equal(
        await store.saveConversation(a.id, ownerA, 'p1', '{"n":"again"}', { done: 1, total: 3, failed: 0 }),
        true,
      );
      assert.equal(await store.enqueueJob(a.id, {}, now + 600), null, 'a held job cannot be re-queued');
      // The holder goes silent; after its lease ran out another worker takes the job over, conversations intact.
      const taken = await store.leaseJob('w9', now + 1501, 60_000);
      assert.equal(taken?.id, a.id);
      assert.equal(taken?.attempts, 2);
      assert.deepEqual(taken?.progress, { done: 1, total: 3, failed: 0 });
      assert.deepEqual([...(await store.listConversations(a.id))], [['p1', '{"n":1}']], 'the first write wins');
      const ownerA2 = taken!.leaseOwner!;
      assert.equal(await store.saveConversation(a.id, ownerA, 'p2', '{}', { done: 2, total: 3, failed: 0 }), false);
      assert.equal(await store.renewLease(a.id, ownerA, now + 1502, 1000), false);
      assert.equal(await store.finishJob(a.id, ownerA, { state: 'done' }, now + 1503), false);
      assert.equal(await store.updateJob(a.id, ownerA, { reportHash: hex(1) }), false);
      assert.equal(await store.updateJob(a.id, ownerA2, { finishedAt: new Date(now).toISOString() }), true);
      assert.equal(
        await store.saveConversation(a.id, ownerA2, 'p2', '{"n":2}', { done: 2, total: 3, failed: 1 }),
        true,
      );
      assert.equal(
        await store.finishJob(a.id, ownerA2, { state: 'failed', error: 'endpoint unreachable' }, now + 1600),
        true,
      );
      const failed = await store.getJob(a.id);
      assert.equal(failed?.state, 'failed');
      assert.equal(failed?.error, 'endpoint unreachable');
      assert.equal(failed?.leaseOwner, undefined);
      assert.equal(failed?.finishedAt, new Date(now).toISOString());
      assert.deepEqual(failed?.progress, { done: 2, total: 3, failed: 1 });
      assert.equal((await store.getSubmission(a.id))?.status, 'failed');
      assert.equal(await store.finishJob(a.id, ownerA2, { state: 'done' }, now + 1601), false, 'finished once');
      // Retry: queued again from scratch, conversations dropped.
      const retried = await store.enqueueJob(a.id, { apiKeyEnv: 'LAB_KEY' }, now + 2000);
      assert.equal(retried?.state, 'queued');
      assert.equal(retried?.error, undefined);
      assert.equal(retried?.createdAt, ja?.createdAt);
      assert.equal((await store.listConversations(a.id)).size, 0);
      assert.deepEqual(
        (await store.listJobs()).map((j) => j.id),
        [a.id, b.id],
      );
    });

    it('rejects pending submissions only, and never runs a rejected one', async () => {
      const rec = await store.addSubmission(
        {
          modelName: 'R',
          vendor: 'V',
          apiEndpoint: 'https://api.example.com/v1',
          contactEmail: 'r@example.com',
          createdAt: new Date(T0).toISOString(),
        },
        T0 + 4_000_000,
      );
      assert.equal(await store.rejectSubmission(rec.id), true);
      assert.equal((await store.getSubmission(rec.id))?.status, 'rejected');
      assert.equal(await store.rejectSubmission(rec.id), false);
      assert.equal(await store.enqueueJob(rec.id, {}, T0 + 4_000_001), null);
      assert.equal(await store.rejectSubmission(1), false);
    });

    it('publishes dataset versions with compare-and-set', async () => {
      assert.equal(await store.datasetSeq(), 0);
      assert.equal(await store.getPublishedDataset(), null);
      const racing = await Promise.all(['{"v":1}', '{"v":"1b"}', '{"v":"1c"}'].map((j) => store.publishDataset(j, 0)));
      assert.deepEqual(
        racing.filter((r) => r !== null),
        [1],
        'one publication wins',
      );
      const won = (await store.getPublishedDataset())!;
      assert.equal(won.seq, 1);
      assert.ok(['{"v":1}', '{"v":"1b"}', '{"v":"1c"}'].includes(won.json));
      assert.equal(await store.publishDataset('{"v":2}', 0), null, 'a stale publication is refused');
      assert.equal(await store.publishDataset('{"v":2}', 1), 2);
      assert.equal(await store.datasetSeq(), 2);
      assert.deepEqual(await store.getPublishedDataset(), { seq: 2, json: '{"v":2}' });
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
