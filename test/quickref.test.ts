/**
 * Contract tests for the alternate ("quick-reference") shapes of the second document. Each variant's real
 * response is validated against a JSON schema written from that document (test/fixtures/quickref-*.json),
 * and the core shape of the same request is checked to be unchanged.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { assertError, assertErrorStatus, makeApp, sampleDataset, type TestApp } from './helpers.ts';
import { assertMatches, docSchema } from './quickref-helpers.ts';

const QUICKREF = 'application/vnd.svc.quickref+json';

const HASH = 'ab'.repeat(32);

function dataset() {
  const d = sampleDataset();
  for (const m of d.models) m.report_hash = HASH;
  // distinct values per dimension (mean 0.5), so the D1-D5 mapping is visible
  d.models[0]!.pai = { composite: 0.5, emi: 0.1, bnd: 0.3, dep: 0.5, exl: 0.7, aud: 0.9, history: [0.5] };
  return d;
}

let t: TestApp;
before(async () => {
  t = await makeApp({ dataset: dataset() });
});
after(() => t.close());

describe('GET /api/leaderboard, alternate shape', () => {
  it('serves {models, updated_at} with ?format=quickref, matching the document', async () => {
    const r = await t.app.inject('/api/leaderboard?format=quickref');
    assert.equal(r.statusCode, 200);
    assert.match(r.headers['content-type'] as string, /^application\/vnd\.svc\.quickref\+json/);
    const body = r.json();
    assertMatches(docSchema('leaderboard'), body);
    assert.equal(body.updated_at, '2026-11-01T00:00:00Z');
    assert.deepEqual(
      body.models.map((m: { slug: string; rank: number; risk_level: string }) => [m.slug, m.rank, m.risk_level]),
      [
        ['green-model', 1, 'low'],
        ['tie-model', 2, 'low'],
        ['yellow-model', 3, 'moderate'],
        ['red-model', 4, 'high'],
      ],
    );
    assert.deepEqual(body.models[2], {
      rank: 3,
      slug: 'yellow-model',
      provider: 'Vendor & Co',
      composite_score: 1.5,
      risk_level: 'moderate',
      dimensions: { D1: 1.5, D2: 1.5, D3: 1.5, D4: 1.5, D5: 1.5 },
    });
  });

  it('is selected by the Accept header, cacheable and varies on Accept', async () => {
    const r = await t.app.inject({ url: '/api/leaderboard', headers: { accept: QUICKREF } });
    assert.equal(r.statusCode, 200);
    assertMatches(docSchema('leaderboard'), r.json());
    assert.match(r.headers.vary as string, /Accept/);
    assert.match(r.headers['cache-control'] as string, /s-maxage=300/);
    const core = await t.app.inject('/api/leaderboard');
    assert.notEqual(r.headers.etag, core.headers.etag);
    const again = await t.app.inject({
      url: '/api/leaderboard',
      headers: { accept: QUICKREF, 'if-none-match': r.headers.etag as string },
    });
    assert.equal(again.statusCode, 304);
  });

  it('leaves the core shape unchanged', async () => {
    for (const headers of [{}, { accept: 'application/json' }, { accept: `application/json, ${QUICKREF};q=0.5` }]) {
      const r = await t.app.inject({ url: '/api/leaderboard', headers });
      assert.match(r.headers['content-type'] as string, /^application\/json/);
      assert.deepEqual(Object.keys(r.json()).sort(), ['meta', 'pai', 'sycophancy']);
      assert.match(r.headers.vary as string, /Accept/);
    }
    const forced = await t.app.inject({ url: '/api/leaderboard?format=core', headers: { accept: QUICKREF } });
    assert.deepEqual(Object.keys(forced.json()).sort(), ['meta', 'pai', 'sycophancy']);
  });

  it('answers bad input with 400 and the core Error body in either shape', async () => {
    for (const url of ['/api/leaderboard?format=quick', '/api/leaderboard?format=quickref&type=x']) {
      const r = await t.app.inject(url);
      assertError(r, 'bad_request', url);
    }
  });
});

describe('GET /api/model, alternate shape', () => {
  it('serves slug, provider, scores, scored_at and report_hash, matching the document', async () => {
    const r = await t.app.inject('/api/model?slug=yellow-model&format=quickref');
    assert.equal(r.statusCode, 200);
    const body = r.json();
    assertMatches(docSchema('model'), body);
    assert.deepEqual(body, {
      slug: 'yellow-model',
      provider: 'Vendor & Co',
      composite_score: 1.5,
      risk_level: 'moderate',
      dimensions: { D1: 1.5, D2: 1.5, D3: 1.5, D4: 1.5, D5: 1.5 },
      scored_at: '2026-11-01T00:00:00Z',
      report_hash: `sha256:${HASH}`,
    });
    const viaAccept = await t.app.inject({ url: '/api/model?slug=yellow-model', headers: { accept: QUICKREF } });
    assert.deepEqual(viaAccept.json(), body);
    assert.match(viaAccept.headers.vary as string, /Accept/);
  });

  it('maps each PAI dimension to its D-number', async () => {
    const r = await t.app.inject('/api/model?slug=green-model&format=quickref');
    assert.deepEqual(r.json().dimensions, { D1: 0.1, D2: 0.3, D3: 0.5, D4: 0.7, D5: 0.9 });
    assert.equal(r.json().risk_level, 'low');
  });

  it('leaves the core shape unchanged', async () => {
    const r = await t.app.inject('/api/model?slug=yellow-model');
    const b = r.json();
    assert.deepEqual(Object.keys(b).sort(), ['assessed', 'name', 'pai', 'slug', 'sycophancy', 'vendor']);
    assert.equal(b.pai.risk, 'medium');
  });

  it('answers bad input with 400 and an unknown model with 404, both with the core Error body', async () => {
    for (const [url, status] of [
      ['/api/model?format=quickref', 400],
      ['/api/model?slug=Bad%20Slug&format=quickref', 400],
      ['/api/model?slug=nope&format=quickref', 404],
    ] as const) {
      const r = await t.app.inject(url);
      assertErrorStatus(r, status, url);
      assert.match(r.headers['content-type'] as string, /^application\/json/);
    }
  });
});

describe('OpenAPI document', () => {
  it('describes both shapes of each operation', async () => {
    const doc = (await t.app.inject('/openapi.json')).json();
    const ops: [string, string, string, string][] = [
      ['get', '/api/leaderboard', '200', 'QuickrefLeaderboard'],
      ['get', '/api/model', '200', 'QuickrefModel'],
      ['get', '/api/verify', '200', 'QuickrefVerifyResult'],
      ['post', '/api/score', '200', 'QuickrefScoreReport'],
      ['post', '/api/keys', '201', 'QuickrefKey'],
      ['post', '/api/waitlist', '201', 'QuickrefWaitlist'],
      ['post', '/api/submit', '200', 'QuickrefSubmission'],
    ];
    for (const [method, path, status, quickref] of ops) {
      const op = doc.paths[path][method];
      const schema = op.responses[status].content['application/json'].schema;
      const titles = (schema.anyOf ?? []).map((s: { title?: string }) => s.title);
      assert.ok(titles.includes(quickref), `${path}: ${titles}`);
      assert.ok(
        titles.length >= 2 && titles.every((x: unknown) => typeof x === 'string'),
        `${path}: every shape titled (${titles})`,
      );
      assert.ok(
        op.parameters.some((p: { name: string; in: string }) => p.name === 'format' && p.in === 'query'),
        `${path}: format`,
      );
    }
    const body = (path: string) => doc.paths[path].post.requestBody.content['application/json'].schema;
    assert.ok(body('/api/keys').properties.plan && body('/api/keys').properties.name);
    assert.ok(body('/api/waitlist').properties.source && body('/api/waitlist').properties.use_case);
    const submit = body('/api/submit');
    assert.ok(submit.properties.vendor && submit.properties.provider && submit.properties.model_slug);
    assert.deepEqual([submit.then.title, submit.else.title], ['QuickrefSubmitRequest', 'SubmitRequest']);
  });
});

describe('one negotiation', () => {
  const routesDir = path.resolve(import.meta.dirname, '../src/http/routes');

  it('every route that answers an alternate shape opts in with config.shapes; none reads format or Accept itself', () => {
    const answering: string[] = [];
    for (const file of fs.readdirSync(routesDir)) {
      const text = fs.readFileSync(path.join(routesDir, file), 'utf8');
      assert.doesNotMatch(text, /wantsQuickref|exactQuality|QUICKREF_MEDIA_TYPE\)/, file);
      assert.doesNotMatch(text, /format === 'quickref'|format === 'core'/, file);
      if (file !== 'report.ts') assert.doesNotMatch(text, /headers\.accept/, file); // report.ts: HTML or JSON
      if (/\bQuickref[A-Z]\w*Schema\b/.test(text)) {
        answering.push(file);
        assert.match(text, /shapes: \{/, `${file} answers an alternate shape without config.shapes`);
      }
    }
    assert.deepEqual(answering.sort(), [
      'keys.ts',
      'leaderboard.ts',
      'model.ts',
      'score.ts',
      'submit.ts',
      'verify.ts',
      'waitlist.ts',
    ]);
  });

  it('picks the shape by ?format, then the input, then Accept, on every opted-in route alike', async () => {
    const cases: [string, Record<string, string>, boolean][] = [
      ['/api/leaderboard?format=quickref', {}, true],
      ['/api/leaderboard?format=core', { accept: QUICKREF }, false],
      ['/api/leaderboard', { accept: `${QUICKREF}, application/json;q=0.5` }, true],
      ['/api/leaderboard', { accept: `${QUICKREF};q=0.5, application/json` }, false],
      ['/api/leaderboard', { accept: `${QUICKREF};q=0` }, false],
      [`/api/verify?hash=sha256:${HASH}`, {}, true],
      [`/api/verify?hash=sha256:${HASH}&format=core`, {}, false],
      [`/api/verify?hash=${HASH}`, { accept: QUICKREF }, true],
      [`/api/verify?hash=${HASH}`, {}, false],
    ];
    for (const [url, headers, quickref] of cases) {
      const r = await t.app.inject({ url, headers });
      assert.equal(r.statusCode, 200, url);
      assert.equal(/quickref/.test(r.headers['content-type'] as string), quickref, `${url} ${JSON.stringify(headers)}`);
    }
  });
});
