/**
 * Keys and plans that fit together: the alternate free plan, the cap on active keys per email, a spent key
 * falling back to the free tier's per-IP caps, and the operator's `svc keys activate` / `svc keys list`.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { cli } from '../src/cli/main.ts';
import { DAY_MS, MAX_KEYS_PER_EMAIL } from '../src/domain/keys.ts';
import { SqliteStore } from '../src/store/index.ts';
import { assertError, makeApp, tmpDir, type TestApp } from './helpers.ts';

const NOW = Date.parse('2026-11-20T12:00:00.000Z');
let t: TestApp;
let dbDir: string;
let ipN = 0;
const ip = () => `198.51.100.${++ipN}`;

before(async () => {
  dbDir = tmpDir();
  t = await makeApp({ store: new SqliteStore(path.join(dbDir, 'svc.db')), now: () => NOW });
});
after(() => t.close());

const createKey = (body: object, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url: '/api/keys', payload: body, remoteAddress: ip(), headers });

/** Run `svc …` in this process against the test's SQLite file; stdout and the exit code. */
async function svc(...argv: string[]): Promise<{ code: number; out: string }> {
  let out = '';
  const saved = { env: process.env.SVC_STORE_URL, out: process.stdout.write, err: process.stderr.write };
  process.env.SVC_STORE_URL = `sqlite:${path.join(dbDir, 'svc.db')}`;
  process.stdout.write = ((c: string | Uint8Array, ...rest: unknown[]) =>
    typeof c === 'string'
      ? ((out += c), true)
      : (saved.out as (...a: unknown[]) => boolean).call(process.stdout, c, ...rest)) as typeof process.stdout.write;
  process.stderr.write = ((c: string | Uint8Array, ...rest: unknown[]) =>
    typeof c === 'string'
      ? true
      : (saved.err as (...a: unknown[]) => boolean).call(process.stderr, c, ...rest)) as typeof process.stderr.write;
  try {
    return { code: (await cli(argv)) ?? 0, out };
  } finally {
    if (saved.env === undefined) delete process.env.SVC_STORE_URL;
    else process.env.SVC_STORE_URL = saved.env;
    process.stdout.write = saved.out;
    process.stderr.write = saved.err;
  }
}

describe('keys and plans', () => {
  it('issues a free-plan key for the alternate {email, plan: "free"}, with its <count>/day rate limit', async () => {
    const r = await createKey({ email: 'free@example.com', plan: 'free' });
    assert.equal(r.statusCode, 201, r.payload);
    const b = r.json();
    assert.equal(b.plan, 'free');
    assert.equal(b.rate_limit, '1000/day');
    assert.match(b.api_key, /^sk-svc-[a-f0-9]{32}$/);
    const asBearer = await t.app.inject({
      method: 'POST',
      url: '/api/score',
      payload: { prompt: 'x', response: 'y' },
      headers: { authorization: `Bearer ${b.api_key}` },
    });
    assertError(asBearer, 'unauthorized', 'inactive until the emailed link is followed');
  });

  it('lets the operator activate a key (svc keys activate) and lists plans as the API names them', async () => {
    const r = await createKey({ email: 'pro@example.com', plan: 'pro' });
    const key = r.json().api_key as string;
    const rec = (await t.store.listKeys()).find((k) => k.email === 'pro@example.com')!;
    assert.equal(rec.active, false);
    const activated = await svc('keys', 'activate', rec.id);
    assert.equal(activated.code, 0);
    assert.match(activated.out, new RegExp(`activated ${rec.id}`));
    const ok = await t.app.inject({
      method: 'POST',
      url: '/api/score',
      payload: { prompt: 'x', response: 'y' },
      headers: { authorization: `Bearer ${key}` },
    });
    assert.equal(ok.statusCode, 200, ok.payload);
    const list = await svc('keys', 'list', '--json');
    const rows = list.out
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    const row = rows.find((x) => x.id === rec.id);
    assert.equal(row.plan, 'pro');
    assert.equal(row.rate_limit, '10000/day', 'the rate limit is written as the API writes it');
    assert.ok(rows.every((x) => x.plan === 'free' || x.plan === 'pro'));
    assert.equal((await svc('keys', 'activate', 'key_nope')).code, 1);
    const again = await svc('keys', 'activate', rec.id);
    assert.equal(again.code, 0);
    assert.equal(again.out, `${rec.id} is already active\n`);
    assert.equal((await svc('keys', 'revoke', rec.id)).code, 0);
    const revoked = await svc('keys', 'activate', rec.id);
    assert.equal(revoked.code, 1, 'a revoked key is not brought back by activate');
    assert.equal(revoked.out, '');
    assert.equal((await t.store.listKeys()).find((k) => k.id === rec.id)?.revoked, true);
  });

  it(`caps active keys per email at ${MAX_KEYS_PER_EMAIL} (any case), with 409 too_many_keys; a revoked key frees a place`, async () => {
    for (let i = 0; i < MAX_KEYS_PER_EMAIL; i++) {
      const r = await createKey({ email: i % 2 ? 'Cap@Example.com' : 'cap@example.com' });
      assert.equal(r.statusCode, 201, r.payload);
    }
    assertError(await createKey({ email: 'cap@example.com' }), 'too_many_keys');
    assertError(await createKey({ email: 'CAP@example.com', plan: 'pro' }), 'too_many_keys');
    const one = (await t.store.listKeys()).find((k) => k.email.toLowerCase() === 'cap@example.com')!;
    assert.equal((await svc('keys', 'revoke', one.id)).code, 0);
    assert.equal((await createKey({ email: 'cap@example.com' })).statusCode, 201);
  });

  it('counts a key whose allowance is spent against the free tier per-IP cap instead of refusing it', async () => {
    const r = await createKey({ email: 'spent@example.com' });
    const key = r.json().api_key as string;
    const rec = (await t.store.listKeys()).find((k) => k.email === 'spent@example.com')!;
    await t.store.updateKey(rec.id, { callsRemaining: 0 });
    await t.store.hit(`key-day:${rec.id}`, DAY_MS, NOW); // already used today: no refill before tomorrow
    const from = ip();
    const call = (authorization?: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/score',
        payload: { prompt: 'x', response: 'y' },
        remoteAddress: from,
        headers: authorization ? { authorization } : {},
      });
    const keyed = await call(`Bearer ${key}`);
    assert.equal(keyed.statusCode, 200, keyed.payload);
    assert.match(String(keyed.headers['svc-allowance']), /^exhausted; tier=free/);
    // A browser client (the API answers any origin) can read it, as it can the RateLimit headers.
    const exposed = String(keyed.headers['access-control-expose-headers']).split(/,\s*/);
    for (const h of ['Svc-Allowance', 'RateLimit', 'RateLimit-Policy', 'Retry-After'])
      assert.ok(exposed.includes(h), h);
    assert.equal(keyed.headers['ratelimit-policy'], '"hour";q=100;w=3600');
    assert.match(String(keyed.headers.ratelimit), /^"hour";r=99;/);
    const keyless = await call();
    assert.match(String(keyless.headers.ratelimit), /r=98;/, 'the same per-IP window as a keyless caller');
    for (let i = 0; i < 98; i++) await call(i % 2 ? undefined : `Bearer ${key}`);
    assertError(await call(`Bearer ${key}`), 'rate_limited', 'past the free cap, like no key');
    assertError(await call(), 'rate_limited');
  });
});
