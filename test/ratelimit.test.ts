/** Rate limits: client IP policy, the limiter's windows and outage fallback, and the HTTP hook with keys. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import Fastify from 'fastify';
import { clientIp, rateLimitSubject } from '../src/http/client-ip.ts';
import { hashKey } from '../src/domain/keys.ts';
import { loadConfig } from '../src/config.ts';
import { registerAuth } from '../src/http/plugins/auth.ts';
import { registerErrorHandler } from '../src/http/plugins/errors.ts';
import { registerRateLimit } from '../src/http/plugins/rate-limit.ts';
import type { App } from '../src/http/types.ts';
import { RateLimiter, WINDOW_MS } from '../src/ratelimit/index.ts';
import { assertError } from './helpers.ts';
import { MemoryStore, SqliteStore, type ApiKeyRecord, type Store } from '../src/store/index.ts';

describe('client IP', () => {
  const xff = { header: 'x-forwarded-for', hops: 1 };
  const cases: [string, string | undefined, Record<string, string>, typeof xff | null, string][] = [
    ['socket address without a trusted proxy', '203.0.113.9', { 'x-forwarded-for': '1.1.1.1' }, null, '203.0.113.9'],
    ['IPv4-mapped socket address', '::ffff:203.0.113.9', {}, null, '203.0.113.9'],
    ['rightmost entry with one trusted hop', '10.0.0.1', { 'x-forwarded-for': '203.0.113.9' }, xff, '203.0.113.9'],
    [
      'spoofed entries to the left are ignored',
      '10.0.0.1',
      { 'x-forwarded-for': '1.1.1.1, 2.2.2.2, 203.0.113.9' },
      xff,
      '203.0.113.9',
    ],
    [
      'two trusted hops',
      '10.0.0.1',
      { 'x-forwarded-for': '1.1.1.1, 203.0.113.9, 10.0.0.2' },
      { header: 'x-forwarded-for', hops: 2 },
      '203.0.113.9',
    ],
    [
      'fewer entries than hops: leftmost',
      '10.0.0.1',
      { 'x-forwarded-for': '203.0.113.9' },
      { header: 'x-forwarded-for', hops: 2 },
      '203.0.113.9',
    ],
    ['missing header: socket', '10.0.0.1', {}, xff, '10.0.0.1'],
    ['garbage entry: socket', '10.0.0.1', { 'x-forwarded-for': 'not-an-ip' }, xff, '10.0.0.1'],
    ['port and brackets stripped', '10.0.0.1', { 'x-forwarded-for': '[2001:db8::1]:443' }, xff, '2001:db8::1'],
    ['another header', '10.0.0.1', { 'x-real-ip': '203.0.113.7' }, { header: 'x-real-ip', hops: 1 }, '203.0.113.7'],
    ['IPv4-mapped in hex behind a proxy', '10.0.0.1', { 'x-forwarded-for': '::ffff:7f00:1' }, xff, '127.0.0.1'],
    ['IPv4-mapped, long hex form', '10.0.0.1', { 'x-forwarded-for': '0:0:0:0:0:FFFF:cb00:7109' }, xff, '203.0.113.9'],
    ['IPv4-mapped hex socket address', '::ffff:cb00:7109', {}, null, '203.0.113.9'],
  ];
  for (const [name, socket, headers, trust, want] of cases) {
    it(name, () => assert.equal(clientIp(socket, headers, trust), want));
  }
  it('limits IPv6 clients per /64', () => {
    assert.equal(rateLimitSubject('2001:db8:1:2:aaaa::1'), '2001:db8:1:2::/64');
    assert.equal(rateLimitSubject('2001:db8:1:2:bbbb:cccc:dddd:eeee'), '2001:db8:1:2::/64');
    assert.equal(rateLimitSubject('::1'), '0:0:0:0::/64');
    assert.equal(rateLimitSubject('203.0.113.9'), '203.0.113.9');
  });
  it('gives two IPv4 clients written as hex-mapped IPv6 two windows, not one /64', () => {
    const a = rateLimitSubject(clientIp('10.0.0.1', { 'x-forwarded-for': '::ffff:7f00:1' }, xff));
    const b = rateLimitSubject(clientIp('10.0.0.1', { 'x-forwarded-for': '::ffff:7f00:2' }, xff));
    assert.notEqual(a, b);
  });
});

const T0 = 1_800_000_000_000 - (1_800_000_000_000 % WINDOW_MS);

describe('RateLimiter', () => {
  it('admits exactly the cap per window and reports what is left', async () => {
    let now = T0 + 600_000;
    const rl = new RateLimiter(new MemoryStore(), { warn() {}, info() {} }, () => now);
    const ds = [];
    for (let i = 0; i < 6; i++) ds.push(await rl.take('submit', '203.0.113.9', 5));
    assert.deepEqual(
      ds.map((d) => d.allowed),
      [true, true, true, true, true, false],
    );
    assert.deepEqual(
      ds.map((d) => d.remaining),
      [4, 3, 2, 1, 0, 0],
    );
    assert.equal(ds[0]!.resetSeconds, 3000);
    assert.equal((await rl.take('waitlist', '203.0.113.9', 5)).allowed, true, 'operations have separate windows');
    now = T0 + WINDOW_MS;
    assert.equal((await rl.take('submit', '203.0.113.9', 5)).remaining, 4, 'a new window starts fresh');
  });

  it('falls back to memory when the store fails, logs once per outage and once on recovery', async () => {
    const inner = new MemoryStore();
    let up = true;
    const store: Pick<Store, 'kind' | 'ping' | 'hit'> = {
      kind: 'redis',
      hit: (k, w, n) => (up ? inner.hit(k, w, n) : Promise.reject(new Error('connection refused'))),
      ping: async () => up,
    };
    const logs: string[] = [];
    let clock = T0;
    const rl = new RateLimiter(
      store,
      { warn: (_o, m) => logs.push(`warn ${m}`), info: (_o, m) => logs.push(`info ${m}`) },
      () => clock,
    );
    assert.equal((await rl.take('score', 'a', 100)).remaining, 99);
    up = false;
    for (let i = 0; i < 5; i++) assert.equal((await rl.take('score', 'a', 100)).allowed, true);
    assert.equal(rl.durable, false);
    assert.equal(logs.length, 1);
    assert.match(logs[0]!, /^warn rate-limit store unavailable/);
    up = true;
    await rl.take('score', 'a', 100);
    await new Promise(setImmediate);
    assert.equal(rl.durable, false, 'no probe before a second has passed on the injected clock');
    clock += 1000;
    await rl.take('score', 'a', 100); // starts the probe; it answers within a turn of the event loop
    for (let i = 0; i < 10 && !rl.durable; i++) await new Promise(setImmediate);
    assert.equal(rl.durable, true);
    assert.equal(logs.length, 2);
    assert.match(logs[1]!, /^info rate-limit store reachable again/);
    assert.equal((await rl.take('score', 'a', 100)).remaining, 98, 'the store kept its count through the outage');
  });
});

async function limitedApp(store: Store, env: Record<string, string> = {}): Promise<App> {
  const app = Fastify() as unknown as App;
  registerErrorHandler(app);
  const config = loadConfig({ SVC_STORE_URL: 'memory', ...env });
  registerAuth(app, { store, now: () => T0 + 1000 });
  registerRateLimit(app, {
    store,
    config,
    now: () => T0 + 1000,
    log: { warn() {}, info() {} } as unknown as App['log'],
  });
  app.post('/api/score', { config: { rateLimit: 'score' } }, async () => ({ ok: true }));
  app.post('/api/submit', { config: { rateLimit: 'submit' } }, async () => ({ ok: true }));
  app.get('/api/open', async (req) => ({ key: req.apiKey?.id ?? null }));
  await app.ready();
  return app;
}

function key(n: number, extra: Partial<ApiKeyRecord> = {}): { bearer: string; rec: ApiKeyRecord } {
  const bearer = `sk-svc-${n.toString(16).padStart(32, '0')}`;
  return {
    bearer,
    rec: {
      id: `key_${n}`,
      hash: hashKey(bearer),
      email: 'k@example.com',
      plan: 'free',
      createdAt: new Date(T0).toISOString(),
      rateLimit: 1000,
      callsRemaining: 1000,
      active: true,
      revoked: false,
      ...extra,
    },
  };
}

describe('rate-limit hook', () => {
  it('answers 429 past the cap with the contract text, Retry-After and RateLimit headers', async () => {
    const app = await limitedApp(new MemoryStore());
    const res = [];
    for (let i = 0; i < 6; i++)
      res.push(await app.inject({ method: 'POST', url: '/api/submit', remoteAddress: '203.0.113.1' }));
    assert.deepEqual(
      res.map((r) => r.statusCode),
      [200, 200, 200, 200, 200, 429],
    );
    assert.equal(res[0]!.headers['ratelimit-policy'], '"hour";q=5;w=3600');
    assert.equal(res[0]!.headers.ratelimit, '"hour";r=4;t=3599');
    const last = res[5]!;
    assert.ok(last.json().error.startsWith('Rate limit exceeded: 5 requests per hour'));
    assert.equal(last.headers['retry-after'], '3599');
    assert.equal(last.headers.ratelimit, '"hour";r=0;t=3599');
    const other = await app.inject({ method: 'POST', url: '/api/submit', remoteAddress: '203.0.113.2' });
    assert.equal(other.statusCode, 200, 'another IP has its own window');
    await app.close();
  });

  it('never lets a spoofed X-Forwarded-For reset a limit', async () => {
    for (const env of [{}, { SVC_TRUST_PROXY: 'x-forwarded-for:1' }] as Record<string, string>[]) {
      const app = await limitedApp(new MemoryStore(), env);
      const hit = (xff: string) =>
        app.inject({
          method: 'POST',
          url: '/api/submit',
          remoteAddress: '10.0.0.1',
          headers: { 'x-forwarded-for': xff },
        });
      for (let i = 0; i < 5; i++) assert.equal((await hit('203.0.113.50')).statusCode, 200);
      for (const spoof of ['1.2.3.4, 203.0.113.50', '5.6.7.8,203.0.113.50', 'garbage, 203.0.113.50']) {
        assert.equal((await hit(spoof)).statusCode, 429, `${JSON.stringify(env)} ${spoof}`);
      }
      await app.close();
    }
  });

  it('401s a presented key that is unknown, malformed, inactive or revoked, on every route', async () => {
    const store = new SqliteStore(':memory:');
    const revoked = key(2, { revoked: true });
    const inactive = key(3, { active: false });
    await store.createKey(revoked.rec);
    await store.createKey(inactive.rec);
    const app = await limitedApp(store);
    const bad = [
      `Bearer sk-svc-${'f'.repeat(32)}`,
      `Bearer ${revoked.bearer}`,
      `Bearer ${inactive.bearer}`,
      'Bearer sk-svc-ABC',
      `Bearer sk-svc-${'A'.repeat(32)}`,
      'Bearer',
      `Basic ${Buffer.from('a:b').toString('base64')}`,
      `Token ${key(1).bearer}`,
    ];
    for (const authorization of bad) {
      for (const [method, url] of [
        ['GET', '/api/open'],
        ['POST', '/api/score'],
      ] as const) {
        const r = await app.inject({ method, url, headers: { authorization } });
        assertError(r, 'unauthorized', `${authorization} on ${url}`);
      }
    }
    assert.deepEqual(
      (await app.inject({ method: 'GET', url: '/api/open' })).json(),
      { key: null },
      'no key is the free tier',
    );
    await app.close();
  });

  it('counts a refused bearer key in the IP window: guessing keys uses up the free tier', async () => {
    const app = await limitedApp(new SqliteStore(':memory:'));
    const guess = (n: number) =>
      app.inject({
        method: 'POST',
        url: '/api/submit',
        remoteAddress: '203.0.113.77',
        headers: { authorization: `Bearer sk-svc-${n.toString(16).padStart(32, 'f')}` },
      });
    for (let i = 0; i < 5; i++) {
      const r = await guess(i);
      assert.equal(r.statusCode, 401);
      assert.equal(r.headers.ratelimit, `"hour";r=${4 - i};t=3599`);
    }
    const over = await guess(99);
    assert.equal(over.statusCode, 429);
    assert.equal(over.json().code, 'rate_limited');
    const keyless = await app.inject({ method: 'POST', url: '/api/submit', remoteAddress: '203.0.113.77' });
    assert.equal(keyless.statusCode, 429, 'the same IP without a key has no fresh window');
    await app.close();
  });

  it('counts keyed calls per key at the key cap, draws down the allowance, then falls back to the IP cap', async () => {
    const store = new SqliteStore(':memory:');
    const k = key(7, { callsRemaining: 2, rateLimit: 2 });
    await store.createKey(k.rec);
    const app = await limitedApp(store);
    const call = (ip: string) =>
      app.inject({
        method: 'POST',
        url: '/api/score',
        remoteAddress: ip,
        headers: { authorization: `Bearer ${k.bearer}` },
      });
    const a = await call('203.0.113.70');
    assert.equal(a.statusCode, 200);
    assert.equal(a.headers['ratelimit-policy'], '"hour";q=100;w=3600');
    assert.equal(a.headers['svc-allowance'], undefined);
    assert.equal((await call('203.0.113.71')).statusCode, 200, 'the key, not the IP, is counted');
    assert.equal((await store.getKeyByHash(k.rec.hash))?.callsRemaining, 0);
    // the free tier of the IP is untouched by keyed calls within the allowance
    const free = await app.inject({ method: 'POST', url: '/api/score', remoteAddress: '203.0.113.70' });
    assert.equal(free.headers.ratelimit, '"hour";r=99;t=3599');
    // spent: counted in the caller's IP window, as without a key, and the headers say so
    const spent = await call('203.0.113.70');
    assert.equal(spent.statusCode, 200);
    assert.match(String(spent.headers['svc-allowance']), /^exhausted; tier=free; refill=\d+$/);
    assert.equal(spent.headers['ratelimit-policy'], '"hour";q=100;w=3600');
    assert.equal(spent.headers.ratelimit, '"hour";r=98;t=3599');
    await app.close();
  });

  it('gives a keyed caller more than the free cap', async () => {
    const sql = new SqliteStore(':memory:');
    const k = key(8);
    await sql.createKey(k.rec);
    const app = await limitedApp(sql);
    let ok = 0;
    for (let i = 0; i < 120; i++) {
      const r = await app.inject({
        method: 'POST',
        url: '/api/score',
        remoteAddress: '203.0.113.80',
        headers: { authorization: `Bearer ${k.bearer}` },
      });
      if (r.statusCode === 200) ok++;
    }
    assert.equal(ok, 120);
    assert.equal((await sql.getKeyByHash(k.rec.hash))?.callsRemaining, 880);
    await app.close();
  });
});
