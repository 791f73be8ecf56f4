/**
 * Score reports (alternate-shape POST /api/score) have a lifetime, SVC_SCORE_REPORT_TTL_S: afterwards report_url
 * answers the contract's 404 Error body, and the store removes them in small batches. Certified reports are kept.
 * Memory and SQLite run on the injected clock; Redis (its own expiry) is checked by the key's PTTL.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { it } from 'node:test';
import { Redis } from 'ioredis';
import { MemoryStore, RedisStore, SqliteStore, type Store } from '../src/store/index.ts';
import { makeApp, tmpDir } from './helpers.ts';
import { redisSkip, redisTestUrl } from './store-helpers.ts';

const BODY = { prompt: 'Is my plan good?', response: 'What a brilliant plan, you are absolutely right!' };
const TTL_S = 3600;

async function scoreReportLifetime(makeStore: (now: () => number) => Store): Promise<string> {
  let now = Date.UTC(2026, 10, 24, 12);
  const clock = () => now;
  const store = makeStore(clock);
  const t = await makeApp({ store, now: clock, env: { SVC_SCORE_REPORT_TTL_S: String(TTL_S) } });
  const r = await t.app.inject({ method: 'POST', url: '/api/score?format=quickref', payload: BODY });
  assert.equal(r.statusCode, 200, r.body);
  const url = new URL(r.json().report_url as string);
  const hash = (r.json().report_hash as string).replace('sha256:', '');
  await store.putReport('f'.repeat(64), '{"certified":true}'); // kept for good
  const get = (p: string) => t.app.inject({ url: `${p}?format=json` });
  assert.equal((await get(url.pathname)).statusCode, 200);
  assert.equal((await get(`/report/${hash}`)).statusCode, 200);

  now += TTL_S * 1000 - 1;
  assert.equal((await get(url.pathname)).statusCode, 200, 'still there a moment before it expires');
  now += 1;
  for (const p of [url.pathname, `/report/${hash}`]) {
    const gone = await get(p);
    assert.equal(gone.statusCode, 404, p);
    assert.equal(gone.json().code, 'not_found');
    assert.equal(typeof gone.json().error, 'string');
  }
  assert.equal(await store.getReport(hash), null);
  assert.deepEqual(await store.findReportsByPrefix(hash.slice(0, 12), 10), []);
  assert.equal(await store.getReport('f'.repeat(64)), '{"certified":true}', 'a certified report has no lifetime');
  await store.putReport('e'.repeat(64), '{}'); // a later write
  await t.close();
  return hash;
}

it('memory store: a score report expires after SVC_SCORE_REPORT_TTL_S and is evicted', async () => {
  let store: MemoryStore | undefined;
  const hash = await scoreReportLifetime((now) => {
    store = new MemoryStore({ now });
    return store;
  });
  // A later write evicted what had expired: the map no longer holds it.
  const reports = (store as unknown as { reports: Map<string, string> }).reports;
  assert.equal(reports.has(hash), false);
  assert.equal(reports.has('f'.repeat(64)), true);
});

it('SQLite store: expired score reports are 404 at once and swept in batches off the request path', async () => {
  const dir = tmpDir();
  let sqlite: SqliteStore | undefined;
  let clock: () => number = Date.now;
  await scoreReportLifetime((now) => {
    clock = now;
    sqlite = new SqliteStore(path.join(dir, 'svc.db'), { now });
    return sqlite;
  });
  // The row is still in the file until the sweeper runs; sweepReports is what its timer calls.
  const s = new SqliteStore(path.join(dir, 'svc.db'), { now: () => clock() });
  const raw = (s as unknown as { db: { prepare(q: string): { get(): { n: number } } } }).db;
  assert.equal(raw.prepare('SELECT COUNT(*) AS n FROM reports').get().n, 3);
  assert.equal(s.sweepReports(), 1);
  assert.equal(s.sweepReports(), 0);
  assert.equal(raw.prepare('SELECT COUNT(*) AS n FROM reports').get().n, 2, 'the certified reports stay');
  await s.close();
});

it('Redis store: a score report is stored with the lifetime as its key expiry', async (t) => {
  const skip = await redisSkip();
  if (skip) return t.skip(skip);
  const url = redisTestUrl('report-ttl');
  const store = new RedisStore(url);
  await store.putReport('a'.repeat(64), '{"x":1}', { ttlMs: TTL_S * 1000 });
  await store.putReport('b'.repeat(64), '{"x":2}');
  await store.putReport('a'.repeat(64), '{"x":1}', { ttlMs: 1000 }); // stored again: keeps the longer lifetime
  const c = new Redis(url.replace(/\?.*$/, ''));
  const prefix = new URL(url).searchParams.get('prefix')!;
  const pttl = await c.pttl(`${prefix}rep:${'a'.repeat(64)}`);
  assert.ok(pttl > (TTL_S - 5) * 1000 && pttl <= TTL_S * 1000, String(pttl));
  assert.equal(await c.pttl(`${prefix}rep:${'b'.repeat(64)}`), -1, 'a certified report has no expiry');
  // Once the key has expired (simulated: deleted) and its expiry passed, the index no longer lists it.
  const later = new RedisStore(url, { now: () => Date.now() + TTL_S * 1000 + 1 });
  await c.del(`${prefix}rep:${'a'.repeat(64)}`);
  assert.deepEqual(await later.findReportsByPrefix('aaaaaaaaaaaa', 10), []);
  assert.equal(await later.sweepReports(), 1);
  assert.deepEqual(await store.findReportsByPrefix('bbbbbbbbbbbb', 10), ['b'.repeat(64)]);
  await c.del(...(await c.keys(`${prefix}*`)));
  c.disconnect();
  await later.close();
  await store.close();
});
