/**
 * Real processes: two `svc serve` instances sharing Redis admit exactly the cap, and the window outlives a
 * restart; a kill -9 in the middle of a burst of waitlist sign-ups loses no acknowledged sign-up.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { RedisStore, SqliteStore, type Store } from '../src/store/index.ts';
import { redisSkip, redisTestUrl, startService, tmpDirFor, type Service } from './store-helpers.ts';

const skipRedis = await redisSkip();
/** Every process's injected clock starts one minute into an hour: the whole test shares one hourly window. */
const CLOCK_START = Date.parse('2026-11-24T10:01:00Z');
const good = JSON.stringify({
  model_name: 'M',
  vendor: 'V',
  api_endpoint: 'https://api.example.com',
  contact_email: 'ml@example.com',
});
const post = (url: string, body: string, headers: Record<string, string> = {}) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });

describe('two service processes sharing Redis', { skip: skipRedis }, () => {
  const storeUrl = redisTestUrl('multiprocess');
  const running: Service[] = [];
  after(async () => {
    await Promise.all(running.map((s) => s.stop('SIGKILL')));
    const store = new RedisStore(storeUrl);
    await store.destroyAll();
    await store.close();
  });
  const startBoth = async () => {
    // allSettled: when one fails to start, the other is still stopped by after() instead of keeping the test alive.
    const results = await Promise.allSettled([
      startService({ SVC_STORE_URL: storeUrl }, { clockStartMs: CLOCK_START }),
      startService({ SVC_STORE_URL: storeUrl }, { clockStartMs: CLOCK_START }),
    ]);
    const both = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
    running.push(...both);
    for (const r of results) if (r.status === 'rejected') throw r.reason;
    return both as [Service, Service];
  };

  it('admit exactly 5 of 200 concurrent submits from one IP, and still refuse after both restart', async () => {
    const [a, b] = await startBoth();
    const statuses = await Promise.all(
      Array.from({ length: 200 }, (_, i) => post(`${(i % 2 ? a : b).url}/api/submit`, good).then((r) => r.status)),
    );
    assert.equal(statuses.filter((s) => s === 200).length, 5);
    assert.equal(statuses.filter((s) => s === 429).length, 195);
    await Promise.all([a.stop(), b.stop()]);
    const [c, d] = await startBoth();
    for (const s of [c, d]) {
      const r = await post(`${s.url}/api/submit`, good);
      assert.equal(r.status, 429);
      assert.match((await r.json()).error, /^Rate limit exceeded: 5 requests per hour/);
      // The window is the injected clock's (10:00-11:00), so the wait is the rest of that hour, whatever the wall clock.
      const wait = Number(r.headers.get('retry-after'));
      assert.ok(wait > 2400 && wait <= 3540, `Retry-After ${wait}`);
    }
    const store = new RedisStore(storeUrl);
    try {
      assert.equal((await store.listSubmissions()).length, 5, 'exactly the admitted submissions were recorded');
    } finally {
      await store.close();
    }
  });
});

/** Sign up many addresses (some twice, in another case) through a trusted proxy header; kill -9 midway. */
async function crashDuringSignups(env: Record<string, string>, openStore: () => Store): Promise<void> {
  const svc = await startService({ ...env, SVC_TRUST_PROXY: 'x-forwarded-for:1' });
  const acknowledged = new Set<string>();
  const emails = Array.from({ length: 400 }, (_, i) =>
    i % 10 === 9 ? `USER${i - 1}@EXAMPLE.COM` : `user${i}@example.com`,
  );
  let next = 0;
  let answered = 0;
  let killed: Promise<void> | undefined;
  const worker = async () => {
    while (next < emails.length) {
      const i = next++;
      const email = emails[i]!;
      try {
        const r = await post(`${svc.url}/api/waitlist`, JSON.stringify({ email }), {
          'x-forwarded-for': `10.${i >> 8}.${i & 255}.1`,
        });
        await r.json();
        if (r.status === 201 || r.status === 200) acknowledged.add(email.toLowerCase());
        if (++answered === 150) killed = svc.stop('SIGKILL');
      } catch {
        // the connection died with the process: not acknowledged
      }
    }
  };
  await Promise.all(Array.from({ length: 16 }, worker));
  await killed;
  assert.ok(acknowledged.size >= 100, `only ${acknowledged.size} sign-ups were acknowledged before the crash`);

  const again = await startService(env);
  const store = openStore();
  try {
    const list = await store.listWaitlist();
    const onList = new Set(list.map((e) => e.email.toLowerCase()));
    for (const email of acknowledged) assert.ok(onList.has(email), `${email} was acknowledged but is not on the list`);
    assert.deepEqual(
      list.map((e) => e.position),
      Array.from({ length: list.length }, (_, i) => i + 1),
      'positions are unique and gapless',
    );
    assert.equal(onList.size, list.length, 'no address is on the list twice');
    const first = [...acknowledged][0]!;
    const r = await post(`${again.url}/api/waitlist`, JSON.stringify({ email: first.toUpperCase() }));
    assert.equal(r.status, 200);
    assert.equal((await r.json()).position, list.find((e) => e.email.toLowerCase() === first)!.position);
  } finally {
    await store.close();
    await again.stop();
  }
}

describe('kill -9 during a burst of waitlist sign-ups', { concurrency: true }, () => {
  it('loses no acknowledged sign-up (SQLite)', async () => {
    const dir = tmpDirFor('svc-crash-');
    const file = path.join(dir, 'svc.db');
    await crashDuringSignups({ SVC_STORE_URL: `sqlite:${file}` }, () => new SqliteStore(file));
  });

  it('loses no acknowledged sign-up (Redis)', { skip: skipRedis }, async () => {
    const url = redisTestUrl('crash');
    try {
      await crashDuringSignups({ SVC_STORE_URL: url }, () => new RedisStore(url));
    } finally {
      const store = new RedisStore(url);
      await store.destroyAll();
      await store.close();
    }
  });
});
