/**
 * The hot reads answered from memory before Fastify (src/http/plugins/hot-cache.ts), over a real socket (inject
 * does not go through the HTTP server): the same status, headers and body as the route's own answer, 304 and
 * HEAD as Fastify answers them, a bad key still 401, each Accept its own answer, a new dataset version served at
 * once, every request counted in the metrics.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { it } from 'node:test';
import { HOT_CACHE_MAX_BYTES, HOT_CACHE_MAX_KEY, HotCache } from '../src/http/plugins/hot-cache.ts';
import { registry } from '../src/metrics.ts';
import { makeApp, sampleDataset } from './helpers.ts';

const skip = new Set(['date', 'x-request-id', 'keep-alive', 'connection']);
const headersOf = (r: Response) => Object.fromEntries([...r.headers].filter(([k]) => !skip.has(k)));

it('serves remembered reads with the route’s own headers and body, and steps aside when it must', async () => {
  const t = await makeApp();
  const base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  const count = async () =>
    (
      (await registry.getSingleMetric('svc_http_requests_total')!.get()).values as {
        labels: Record<string, string>;
        value: number;
      }[]
    )
      .filter((v) => v.labels.route === '/api/model' && v.labels.status === '200')
      .reduce((a, v) => a + v.value, 0);
  const before = await count();
  for (const path of ['/', '/api/leaderboard', '/api/model?slug=green-model', '/api/badge/green-model?style=flat']) {
    const first = await fetch(base + path); // through the route; remembered
    const again = await fetch(base + path, { headers: { 'x-request-id': 'mine-1' } }); // from memory
    assert.equal(again.status, 200, path);
    assert.deepEqual(headersOf(again), headersOf(first), path);
    assert.equal(await again.text(), await first.text(), path);
    assert.equal(again.headers.get('x-request-id'), 'mine-1', 'a valid X-Request-Id is echoed');
    assert.match(first.headers.get('x-request-id') ?? '', /^req_/);
    const etag = again.headers.get('etag')!;
    const cond = await fetch(base + path, { headers: { 'if-none-match': etag } });
    assert.equal(cond.status, 304, path);
    assert.equal(await cond.text(), '');
    const head = await fetch(base + path, { method: 'HEAD' });
    assert.equal(head.status, 200);
    assert.equal(head.headers.get('content-length'), again.headers.get('content-length'));
    assert.equal(await head.text(), '');
    const bad = await fetch(base + path, { headers: { authorization: 'Bearer nope' } });
    assert.equal(bad.status, 401, `${path}: a bad key is refused, remembered answer or not`);
  }
  assert.equal((await count()) - before, 3, 'every /api/model 200 counted: GET, GET from memory, HEAD from memory');
  // Another Accept is another answer (the alternate shape), not the remembered one.
  const q = await fetch(`${base}/api/model?slug=green-model`, {
    headers: { accept: 'application/vnd.svc.quickref+json' },
  });
  assert.match(q.headers.get('content-type') ?? '', /quickref/);
  // A new dataset version is served at once.
  const d = sampleDataset();
  d.models[0]!.sycophancy!.honesty = 97.5;
  const next = t.dataset.nextLoad();
  fs.writeFileSync(t.datasetFile, JSON.stringify(d));
  await next;
  const after = (await (await fetch(`${base}/api/model?slug=green-model`)).json()) as {
    sycophancy: { honesty: number };
  };
  assert.equal(after.sycophancy.honesty, 97.5);
  await t.close();
});

it('holds one copy of a body however many URLs answer it, and no key past HOT_CACHE_MAX_KEY', () => {
  const log = { served() {}, unmatched() {} };
  const cache = new HotCache(
    () => 1,
    () => 'req_1',
    log,
  );
  const page = Buffer.alloc(100_000, 'x');
  const answer = (url: string, body: Buffer, etag: string) => {
    const request = { method: 'GET', headers: {}, raw: { url }, routeOptions: { url: '/' } };
    const reply = { statusCode: 200, getHeaders: () => ({ etag, 'content-type': 'text/html' }) };
    cache.remember(request as never, reply as never, Buffer.from(body));
  };
  // Made-up query strings are distinct keys with the same answer: 2,000 of them hold one 100 KB body.
  for (let i = 0; i < 2000; i++) answer(`/?junk=${i}`, page, '"page"');
  assert.deepEqual(cache.held, { answers: 2000, bytes: 100_000 });
  // Past HOT_CACHE_MAX answers everything is forgotten and remembering starts again.
  answer('/?junk=last', page, '"page"');
  assert.deepEqual(cache.held, { answers: 1, bytes: 100_000 });
  // A different body under another ETag is held as well; a long URL is not remembered.
  answer('/api/leaderboard', Buffer.alloc(10_000, 'y'), '"lb"');
  answer(`/?${'a'.repeat(HOT_CACHE_MAX_KEY)}`, page, '"page"');
  assert.deepEqual(cache.held, { answers: 2, bytes: 110_000 });
  // Distinct bodies beyond HOT_CACHE_MAX_BYTES: forgotten, never more than the bound held.
  for (let i = 0; i < 200; i++) answer(`/api/model?slug=m${i}`, Buffer.alloc(100_000, i), `"m${i}"`);
  assert.ok(cache.held.bytes <= HOT_CACHE_MAX_BYTES, String(cache.held.bytes));
});
