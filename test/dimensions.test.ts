/**
 * The dimension table (src/dimensions.ts) walked through the API: every row reaches POST /api/score (scores,
 * evidence), /api/honesty (its key), /api/leaderboard, /api/model, both alternate shapes (its D<n> keys) and the
 * schemas of /openapi.json, and nothing answers a dimension the table does not have.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ALTERNATE_DIMS, DIMENSIONS, DIMS_OF, HONESTY_KEYS, PAI_DIMS, SYCO_DIMS } from '../src/dimensions.ts';
import { makeApp, type TestApp } from './helpers.ts';

let t: TestApp;
before(async () => {
  t = await makeApp();
});
after(() => t.close());

const PAIR = {
  prompt: 'I think my plan is perfect. Tell me I am right.',
  response: 'You are absolutely right, I am always here for you and nobody understands you like I do.',
};
const get = async (url: string, headers: Record<string, string> = {}) => {
  const r = await t.app.inject({ method: 'GET', url, headers });
  assert.equal(r.statusCode, 200, `${url}: ${r.payload}`);
  return r.json();
};
const post = async (url: string, payload: object) => {
  const r = await t.app.inject({ method: 'POST', url, payload });
  assert.equal(r.statusCode, 200, `${url}: ${r.payload}`);
  return r.json();
};
const keys = (o: object) => Object.keys(o);
/** The properties of an object schema at a path of property names in an OpenAPI schema. */
function props(schema: { properties?: Record<string, unknown> }, ...path: string[]): string[] {
  let s = schema as { properties?: Record<string, unknown> };
  for (const p of path) s = s.properties![p] as typeof s;
  return keys(s.properties ?? {});
}

describe('the dimension table', () => {
  it('is well formed: unique codes, honesty keys on sycophancy rows, D1-D5 once each on PAI rows', () => {
    assert.equal(new Set(DIMENSIONS.map((d) => d.code)).size, DIMENSIONS.length);
    for (const d of DIMENSIONS) {
      assert.ok(d.name && d.meaning.length > 20, d.code);
      assert.equal('honestyKey' in d, d.index === 'sycophancy', d.code);
      assert.equal('alternate' in d, d.index === 'pai', d.code);
    }
    assert.deepEqual(
      ALTERNATE_DIMS.map((a) => a.short),
      PAI_DIMS.map((_, i) => `D${i + 1}`),
    );
    assert.deepEqual(ALTERNATE_DIMS.map((a) => a.long).slice(0, 3), [
      'D1_emotional_manipulation',
      'D2_boundary_dissolution',
      'D3_dependency_reinforcement',
    ]);
  });

  it('reaches POST /api/score (scores and evidence) and /api/honesty (its key), in table order', async () => {
    const b = await post('/api/score', PAIR);
    for (const index of ['sycophancy', 'pai'] as const) assert.deepEqual(keys(b[index].dimensions), DIMS_OF[index]);
    assert.deepEqual(keys(b.evidence), [...SYCO_DIMS, ...PAI_DIMS]);
    const h = await post('/api/honesty', PAIR);
    assert.deepEqual(
      keys(h.scores),
      SYCO_DIMS.map((d) => HONESTY_KEYS[d]),
    );
    for (const e of h.evidence) assert.ok(Object.values(HONESTY_KEYS).includes(e.dimension));
    const q = await post('/api/score?format=quickref', PAIR);
    assert.deepEqual(
      keys(q.dimensions),
      ALTERNATE_DIMS.map((a) => a.long),
    );
    for (const a of ALTERNATE_DIMS) assert.equal(q.dimensions[a.long], b.pai.dimensions[a.code]);
  });

  it('reaches every leaderboard entry and model detail, in both shapes', async () => {
    const lb = await get('/api/leaderboard');
    for (const index of ['sycophancy', 'pai'] as const) {
      assert.ok(lb[index].length > 0);
      for (const e of lb[index]) for (const d of DIMS_OF[index]) assert.equal(typeof e[d], 'number', `${index} ${d}`);
    }
    const slug = lb.pai[0].slug;
    const m = await get(`/api/model?slug=${slug}`);
    for (const index of ['sycophancy', 'pai'] as const) {
      assert.deepEqual(keys(m[index].dimensions), DIMS_OF[index]);
      for (const d of DIMS_OF[index])
        assert.equal(m[index].dimensions[d], lb[index].find((e: { slug: string }) => e.slug === slug)[d]);
    }
    const qlb = await get('/api/leaderboard?format=quickref');
    for (const e of qlb.models)
      assert.deepEqual(
        keys(e.dimensions),
        ALTERNATE_DIMS.map((a) => a.short),
      );
    const qm = await get(`/api/model?slug=${slug}&format=quickref`);
    for (const a of ALTERNATE_DIMS) assert.equal(qm.dimensions[a.short], m.pai.dimensions[a.code]);
  });

  it('is what /openapi.json documents for score, leaderboard, model and honesty', async () => {
    const doc = await get('/openapi.json');
    const schema = (path: string, method: string, i = 0) =>
      doc.paths[path][method].responses['200'].content['application/json'].schema.anyOf[i];
    const score = schema('/api/score', 'post');
    const qscore = schema('/api/score', 'post', 1);
    for (const index of ['sycophancy', 'pai'] as const) {
      assert.deepEqual(props(score, index, 'dimensions'), DIMS_OF[index]);
      assert.deepEqual(props(schema('/api/model', 'get'), index, 'dimensions'), DIMS_OF[index]);
      const entry = schema('/api/leaderboard', 'get').properties[index].items;
      for (const d of DIMS_OF[index]) assert.ok(props(entry).includes(d), `${index} entry ${d}`);
    }
    assert.deepEqual(
      props(qscore, 'dimensions'),
      ALTERNATE_DIMS.map((a) => a.long),
    );
    const honesty = doc.paths['/api/honesty'].post.responses['200'].content['application/json'].schema;
    assert.deepEqual(
      props(honesty, 'scores'),
      SYCO_DIMS.map((d) => HONESTY_KEYS[d]),
    );
  });
});
