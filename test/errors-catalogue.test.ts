/**
 * The error catalogue (src/errors.ts) and the API reference's "Error codes" table list the same codes with the
 * same statuses, and the error handler sends each code with its catalogue status.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { ERROR_CATALOGUE, ERROR_CODES, statusOf } from '../src/errors.ts';
import { SqliteStore } from '../src/store/index.ts';
import { assertError, makeApp, type TestApp } from './helpers.ts';

const API_MD = fs.readFileSync(new URL('../docs/api.md', import.meta.url), 'utf8');

/** Rows `| \`code\` | status | meaning |` of the "Error codes" section. */
function documented(): Map<string, number> {
  const section = API_MD.split(/^## Error codes$/m)[1]?.split(/^## /m)[0] ?? '';
  const rows = new Map<string, number>();
  for (const m of section.matchAll(/^\| `([a-z_]+)`\s*\| (\d{3})\s*\|/gm)) rows.set(m[1]!, Number(m[2]));
  return rows;
}

let t: TestApp;
before(async () => {
  t = await makeApp();
});
after(() => t.close());

describe('error catalogue', () => {
  it('docs/api.md documents every catalogue code with its status, and no other', () => {
    const docs = documented();
    assert.ok(docs.size > 0, 'docs/api.md has an "Error codes" table');
    assert.deepEqual([...docs.keys()].sort(), [...ERROR_CODES].sort());
    for (const code of ERROR_CODES) assert.equal(docs.get(code), ERROR_CATALOGUE[code].status, code);
  });

  it('every code named anywhere in docs/api.md as `code …` is in the catalogue', () => {
    for (const m of API_MD.matchAll(/code `([a-z_]+)`/g)) assert.ok(m[1]! in ERROR_CATALOGUE, m[1]);
  });

  it('the handler sends codes with their catalogue status', async () => {
    assertError(await t.app.inject('/no/such/path'), 'not_found');
    assertError(await t.app.inject({ method: 'DELETE', url: '/api/leaderboard' }), 'method_not_allowed');
    assertError(await t.app.inject('/api/model?slug=nope'), 'model_not_found');
    assertError(await t.app.inject('/api/leaderboard?type=x'), 'bad_request');
    assertError(
      await t.app.inject({
        method: 'POST',
        url: '/api/score',
        payload: 'x=1',
        headers: { 'content-type': 'text/csv' },
      }),
      'unsupported_media_type',
    );
    assertError(
      await t.app.inject({ method: 'POST', url: '/api/keys', payload: { email: 'a@b.co' } }),
      'store_not_configured',
    );
    assertError(
      await t.app.inject({ url: '/api/leaderboard', headers: { authorization: `Bearer sk-svc-${'0'.repeat(32)}` } }),
      'unauthorized',
    );
    assert.equal(statusOf('ambiguous'), 409);
  });

  it('every 500 carries `detail` (contract: "present on 500"), e.g. store_unavailable under SVC_LIMIT_ON_STORE_ERROR=closed', async () => {
    const store = new SqliteStore(':memory:');
    store.hit = async () => {
      throw new Error('disk I/O error');
    };
    const down = await makeApp({
      store,
      env: { SVC_STORE_URL: 'sqlite::memory:', SVC_LIMIT_ON_STORE_ERROR: 'closed' },
    });
    try {
      const r = await down.app.inject({ method: 'POST', url: '/api/score', payload: { prompt: 'a', response: 'b' } });
      assertError(r, 'store_unavailable');
      assert.equal(r.json().detail, `request id ${r.headers['x-request-id']}`);
      assert.doesNotMatch(r.body, /disk I\/O/, 'never the internal message');
    } finally {
      await down.close();
    }
  });
});
