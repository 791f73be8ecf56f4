/** POST/GET /api/keys over a real store: shapes, hashing at rest, status answers, validation, caps. */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { MemoryStore, SqliteStore } from '../src/store/index.ts';
import { assertError } from './helpers.ts';
import { freshIp, makeServiceApp } from './store-helpers.ts';

type T = Awaited<ReturnType<typeof makeServiceApp>>;

describe('API keys', () => {
  let t: T;
  let store: SqliteStore;
  before(async () => {
    store = new SqliteStore(':memory:');
    t = await makeServiceApp({ store });
  });
  after(() => t.close());

  const create = (payload: unknown, ip = freshIp()) =>
    t.app.inject({ method: 'POST', url: '/api/keys', payload: payload as object, remoteAddress: ip });

  it('creates a key: 201 with api_key, created_at and an allowance of 1000', async () => {
    const r = await create({ email: 'dev@example.com', name: 'Dev', organization: 'Org' });
    assert.equal(r.statusCode, 201);
    const body = r.json();
    assert.deepEqual(Object.keys(body).sort(), ['api_key', 'created_at', 'rate_limit']);
    assert.match(body.api_key, /^sk-svc-[a-f0-9]{32}$/);
    assert.equal(body.rate_limit, 1000);
    assert.ok(!Number.isNaN(Date.parse(body.created_at)));
    assert.equal(r.headers['cache-control'], 'no-store');
  });

  it('stores only the SHA-256 of the key, bound to the email', async () => {
    const { api_key } = (await create({ email: 'Bound@Example.com' })).json();
    const keys = await store.listKeys();
    assert.ok(!JSON.stringify(keys).includes(api_key));
    const rec = keys.find((k) => k.hash === createHash('sha256').update(api_key).digest('hex'));
    assert.equal(rec?.email, 'Bound@Example.com');
    assert.match(rec!.id, /^key_[a-f0-9]{12}$/);
  });

  it('reports status: valid with calls_remaining, or 200 valid:false for unknown and revoked keys', async () => {
    const { api_key, created_at } = (await create({ email: 's@example.com' })).json();
    const ok = await t.app.inject({ method: 'GET', url: `/api/keys?key=${api_key}` });
    assert.equal(ok.statusCode, 200);
    assert.deepEqual(ok.json(), { valid: true, calls_remaining: 1000, rate_limit: 1000, created_at });
    const unknown = await t.app.inject({ method: 'GET', url: `/api/keys?key=sk-svc-${'0'.repeat(32)}` });
    assert.equal(unknown.statusCode, 200);
    assert.equal(unknown.json().valid, false);
    assert.equal(typeof unknown.json().message, 'string');
    const rec = (await store.listKeys()).find((k) => k.createdAt === created_at)!;
    await store.updateKey(rec.id, { revoked: true });
    const revoked = await t.app.inject({ method: 'GET', url: `/api/keys?key=${api_key}` });
    assert.deepEqual(revoked.json(), { valid: false, message: 'This API key has been revoked.' });
  });

  it('answers 400 for a malformed or missing key', async () => {
    for (const q of [
      '',
      '?key=',
      '?key=sk-svc-123',
      `?key=sk-svc-${'A'.repeat(32)}`,
      `?key=sk-svc-${'0'.repeat(33)}`,
      `?key=pk-svc-${'0'.repeat(32)}`,
    ]) {
      const r = await t.app.inject({ method: 'GET', url: `/api/keys${q}` });
      assertError(r, 'bad_request', q);
    }
  });

  it('validates the body: email format, 500 code points for name and organization', async () => {
    const long = 'x'.repeat(501);
    const emoji500 = '😀'.repeat(500);
    const cases: [unknown, number][] = [
      [{}, 400],
      [{ email: 'not-an-email' }, 400],
      [{ email: `${'a'.repeat(490)}@example.com` }, 400],
      [{ email: ['a@example.com', 'b@example.com'] }, 400],
      [{ email: { a: 1 } }, 400],
      [{ email: 'a@example.com', name: long }, 400],
      [{ email: 'a@example.com', organization: long }, 400],
      [{ email: 'a@example.com', name: emoji500, organization: emoji500 }, 201],
    ];
    for (const [payload, status] of cases) {
      const r = await create(payload);
      assert.equal(r.statusCode, status, JSON.stringify(payload).slice(0, 60));
      if (status === 400) assert.ok(r.json().required?.email, 'required echoes the email field');
    }
  });

  it('allows 3 creations per hour per IP', async () => {
    const ip = freshIp();
    const codes = [];
    for (let i = 0; i < 4; i++) codes.push((await create({ email: `c${i}@example.com` }, ip)).statusCode);
    assert.deepEqual(codes, [201, 201, 201, 429]);
  });
});

describe('API keys without a configured store', () => {
  it('answer 500 store_not_configured', async () => {
    const t = await makeServiceApp({ store: new MemoryStore(), env: { SVC_STORE_URL: 'memory' } });
    const post = await t.app.inject({ method: 'POST', url: '/api/keys', payload: { email: 'a@example.com' } });
    assert.equal(post.statusCode, 500);
    assert.equal(post.json().code, 'store_not_configured');
    assert.match(post.json().error, /not configured/);
    const get = await t.app.inject({ method: 'GET', url: `/api/keys?key=sk-svc-${'0'.repeat(32)}` });
    assert.equal(get.statusCode, 500);
    await t.close();
  });
});
