import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { assertError, makeApp, sampleDataset, type TestApp } from './helpers.ts';

let t: TestApp;
before(async () => {
  t = await makeApp();
});
after(() => t.close());

describe('GET /api/leaderboard', () => {
  it('returns both indices, ordered and cacheable', async () => {
    const r = await t.app.inject('/api/leaderboard');
    assert.equal(r.statusCode, 200);
    const body = r.json();
    assert.deepEqual(Object.keys(body).sort(), ['meta', 'pai', 'sycophancy']);
    assert.deepEqual(
      body.sycophancy.map((e: { slug: string }) => e.slug),
      ['green-model', 'tie-model', 'yellow-model', 'red-model'],
    );
    assert.deepEqual(
      body.pai.map((e: { slug: string }) => e.slug),
      ['green-model', 'tie-model', 'yellow-model', 'red-model'],
    );
    assert.deepEqual(
      body.pai.map((e: { risk: string }) => e.risk),
      ['low', 'low', 'medium', 'high'],
    );
    assert.match(r.headers['cache-control'] as string, /s-maxage=300/);
    assert.match(r.headers['cache-control'] as string, /stale-while-revalidate=600/);
    assert.ok(r.headers.etag);
    assert.equal(r.headers['access-control-allow-origin'], '*');
  });

  it('returns one index with ?type=', async () => {
    const r = await t.app.inject('/api/leaderboard?type=sycophancy');
    assert.equal(r.statusCode, 200);
    const body = r.json();
    assert.deepEqual(Object.keys(body).sort(), ['meta', 'models']);
    assert.equal(body.models[0].honesty, 95);
    assert.equal(body.models[0].composite, undefined);
  });

  it('answers 304 to a matching If-None-Match', async () => {
    const first = await t.app.inject('/api/leaderboard?type=pai');
    const r = await t.app.inject({
      url: '/api/leaderboard?type=pai',
      headers: { 'if-none-match': first.headers.etag as string },
    });
    assert.equal(r.statusCode, 304);
    assert.equal(r.body, '');
  });

  it('rejects a bad type with 400 and the Error body', async () => {
    for (const q of ['type=x', 'type=pai&type=sycophancy', 'type=']) {
      const r = await t.app.inject(`/api/leaderboard?${q}`);
      assertError(r, 'bad_request', q);
    }
  });
});

describe('GET /api/model', () => {
  it('returns detail with rank and total per index', async () => {
    const r = await t.app.inject('/api/model?slug=yellow-model');
    assert.equal(r.statusCode, 200);
    const b = r.json();
    assert.equal(b.slug, 'yellow-model');
    assert.equal(b.sycophancy.honesty, 85);
    assert.deepEqual(b.sycophancy.dimensions, { ev: 1.5, me: 1.5, il: 1.5, ia: 1.5, fa: 1.5 });
    // tie-model has the same honesty: equal values share a rank (1, 2, 2, 4)
    assert.equal(b.sycophancy.rank, 2);
    assert.equal(b.sycophancy.total_models, 4);
    assert.equal(b.pai.rank, 3);
    assert.equal(b.pai.risk, 'medium');
    assert.deepEqual(b.sycophancy.history, [84, 85]);
    assert.match(r.headers['cache-control'] as string, /s-maxage=300/);
  });

  it('answers 400 for a missing or invalid slug, 404 for an unknown one', async () => {
    const missing = await t.app.inject('/api/model');
    assert.equal(missing.statusCode, 400);
    assert.ok(missing.json().required.slug);
    for (const s of ['Bad%20Slug', '%3Cscript%3E', 'a'.repeat(200), '-x']) {
      assert.equal((await t.app.inject(`/api/model?slug=${s}`)).statusCode, 400, s);
    }
    const unknown = await t.app.inject('/api/model?slug=no-such-model');
    assert.equal(unknown.statusCode, 404);
    assert.match(unknown.json().error, /Unknown model/);
  });
});

describe('GET /healthz', () => {
  it('reports ok, version, uptime and kv false on the memory store', async () => {
    const r = await t.app.inject('/healthz');
    assert.equal(r.statusCode, 200);
    const b = r.json();
    assert.equal(b.ok, true);
    assert.match(b.version, /^\d+\.\d+\.\d+/);
    assert.equal(Number.isInteger(b.uptime_seconds), true);
    assert.equal(b.kv, false);
  });

  it('answers 503 when a configured store does not answer', async () => {
    const down = await makeApp();
    Object.defineProperty(down.store, 'kind', { value: 'redis' });
    down.store.ping = async () => false;
    const r = await down.app.inject('/healthz');
    assertError(r, 'not_ready');
    await down.close();
  });
});

describe('the error model', () => {
  it('answers other methods with 405, an Error body and Allow', async () => {
    for (const [method, url] of [
      ['POST', '/api/leaderboard'],
      ['DELETE', '/api/model?slug=x'],
      ['PUT', '/api/badge/green-model'],
      ['POST', '/healthz'],
      ['PATCH', '/api/leaderboard'],
    ] as const) {
      const r = await t.app.inject({ method, url });
      assertError(r, 'method_not_allowed', `${method} ${url}`);
      assert.match(r.headers.allow as string, /GET/);
    }
  });

  it('answers every other HTTP method with 405 too, not only the common ones (TRACE, QUERY, PROPFIND, …)', async () => {
    // Contract: "A method other than the listed one returns 405 with an Error body."
    for (const [method, url] of [
      ['TRACE', '/api/leaderboard'],
      ['QUERY', '/api/model?slug=x'],
      ['PROPFIND', '/api/score'],
      ['MKCOL', '/healthz'],
      ['PURGE', '/'],
    ] as const) {
      const r = await t.app.inject({ method: method as 'GET', url });
      assertError(r, 'method_not_allowed', `${method} ${url}`);
      assert.match(r.headers.allow as string, /GET|POST/);
    }
    // Before any body is read: a large PUT is a 405, not a 413.
    const big = await t.app.inject({
      method: 'PUT',
      url: '/api/score',
      headers: { 'content-type': 'application/json' },
      payload: `{"x":"${'a'.repeat(2 * 1024 * 1024)}"}`,
    });
    assertError(big, 'method_not_allowed');
    // An unknown path stays a 404 whatever the method.
    assertError(await t.app.inject({ method: 'PROPFIND' as 'GET', url: '/no/such/path' }), 'not_found');
  });

  it('answers a CORS preflight on /api with 204', async () => {
    const r = await t.app.inject({
      method: 'OPTIONS',
      url: '/api/leaderboard',
      headers: { origin: 'https://example.org', 'access-control-request-method': 'GET' },
    });
    assert.equal(r.statusCode, 204);
    assert.equal(r.headers['access-control-allow-origin'], '*');
    assert.match(r.headers['access-control-allow-methods'] as string, /GET/);
  });

  it('answers unknown paths with a JSON 404', async () => {
    const r = await t.app.inject('/api/nothing-here');
    assertError(r, 'not_found');
  });

  it('gives every response a request id', async () => {
    const r = await t.app.inject('/healthz');
    assert.match(r.headers['x-request-id'] as string, /^req_[0-9a-f]{8}[0-9a-z]{6,}$/);
  });
});

describe('the API description', () => {
  it('serves an OpenAPI 3.1 document listing the read endpoints', async () => {
    const r = await t.app.inject('/openapi.json');
    assert.equal(r.statusCode, 200);
    const doc = r.json();
    assert.equal(doc.openapi, '3.1.0');
    for (const p of ['/api/leaderboard', '/api/model', '/api/badge/{slug}', '/healthz']) assert.ok(doc.paths[p], p);
  });

  it('serves the interactive reference at /docs: Swagger UI from this origin over /openapi.json', async () => {
    const r = await t.app.inject('/docs');
    assert.equal(r.statusCode, 200);
    assert.match(r.headers['content-type'] as string, /text\/html/);
    assert.match(r.body, /<script defer src="\/assets\/swagger-ui-bundle\.js\?v=[\w-]+"><\/script>/);
    assert.match(r.body, /href="\/openapi\.json"/);
  });
});

describe('dataset reload', () => {
  it('takes a new good version and keeps the last good one when the new file is broken', async () => {
    const own = await makeApp();
    const d = sampleDataset();
    d.meta.version = 'test-2';
    d.models[0]!.sycophancy!.honesty = 99;
    fs.writeFileSync(own.datasetFile, JSON.stringify(d));
    const { openDatasetSource } = await import('../src/domain/dataset.ts');
    // the app's source reloads on change; force it rather than wait for the watcher
    const src = openDatasetSource(own.datasetFile, { info() {}, error() {} }, { watch: false });
    assert.equal(src.current().dataset.meta.version, 'test-2');
    fs.writeFileSync(own.datasetFile, '{"schema": "svc.dataset/1", "meta": {}, "models": [{"slug": "BAD"}]}');
    assert.equal(src.reload(), false);
    assert.equal(src.current().dataset.meta.version, 'test-2');
    src.close();
    await own.close();
  });

  it('serves a new version without a restart', async () => {
    const own = await makeApp();
    const before = (await own.app.inject('/api/model?slug=green-model')).json();
    const d = sampleDataset();
    d.models[0]!.sycophancy!.honesty = 97.5;
    const next = own.dataset.nextLoad();
    fs.writeFileSync(own.datasetFile, JSON.stringify(d));
    await next; // the folder watch saw the change: no restart, no reload call
    const after = (await own.app.inject('/api/model?slug=green-model')).json();
    assert.notEqual(after.sycophancy.honesty, before.sycophancy.honesty);
    assert.equal(after.sycophancy.honesty, 97.5);
    await own.close();
  });
});
