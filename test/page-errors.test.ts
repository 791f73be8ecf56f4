/**
 * The pages that also answer JSON (/report/{id}, /submissions/{token}) and the key-activation page refuse a
 * malformed address the way they answer an unknown one: an HTML page with the same status for a browser, the
 * Error body for an API client. Refusals made before any route runs (a path that does not decode) follow the
 * same rule on the page paths.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { makeApp, type TestApp } from './helpers.ts';

const BROWSER = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

describe('page routes: a malformed address answers a browser with an HTML page', () => {
  let t: TestApp;
  before(async () => {
    t = await makeApp();
  });
  after(() => t.close());
  const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers });

  const isPage = (res: Awaited<ReturnType<typeof get>>, status: number, what: string) => {
    assert.equal(res.statusCode, status, what);
    assert.match(String(res.headers['content-type']), /^text\/html/, what);
    assert.match(String(res.headers['content-security-policy']), /default-src 'none'/, what);
    assert.match(res.body, /<html[^>]*>[\s\S]*<h1>/, what);
  };
  const isErrorBody = (res: Awaited<ReturnType<typeof get>>, status: number, what: string) => {
    assert.equal(res.statusCode, status, what);
    assert.match(String(res.headers['content-type']), /^application\/json/, what);
    assert.equal(typeof res.json().error, 'string', what);
    assert.equal(res.json().code, 'bad_request', what);
  };

  it('GET /report/<malformed id>: an HTML 400 page for a browser (as its 404 and 409), the Error body for JSON', async () => {
    for (const url of [
      '/report/rep_0',
      '/report/zzz',
      `/report/${'a'.repeat(65)}`,
      '/report/abcdefabcdef?format=xml',
    ]) {
      for (const headers of [{ accept: BROWSER }, {}] as Record<string, string>[]) {
        const res = await get(url, headers);
        isPage(res, 400, `${url} ${JSON.stringify(headers)}`);
        assert.equal(res.headers.vary, 'Accept', url);
        assert.ok(!res.body.includes('<script>alert'), url);
      }
    }
    for (const [url, headers] of [
      ['/report/rep_0', { accept: 'application/json' }],
      ['/report/rep_0?format=json', { accept: BROWSER }],
      ['/report/zzz', { accept: 'text/html;q=0.5, application/json' }],
    ] as const) {
      const res = await get(url, headers);
      isErrorBody(res, 400, url);
      assert.ok(res.json().required.id, 'the 400 still echoes the id rule');
    }
    // A repeated or unknown format falls back to Accept.
    isPage(await get('/report/rep_0?format=json&format=html', { accept: BROWSER }), 400, 'repeated format');
  });

  it('a 400 page says in words what a good address looks like, not a pattern', async () => {
    const report = await get('/report/rep_0', { accept: BROWSER });
    assert.match(report.body, /a report is named by its SHA-256 hash/);
    assert.doesNotMatch(report.body, /\^\(rep_\)/, 'no regular expression on the page');
    assert.match((await get('/submissions/short', { accept: BROWSER })).body, /whole address from the email/);
    assert.match((await get('/report/%ZZ', { accept: BROWSER })).body, /a report is named by its SHA-256 hash/);
    assert.match((await get('/api/keys/verify?token=x', { accept: BROWSER })).body, /whole address from the email/);
    // a bad ?format= is about the format, not the id
    assert.match((await get('/report/abcdefabcdef?format=xml', { accept: BROWSER })).body, /Invalid format/);
  });

  it('GET /report/<id that does not decode>: HTML for a browser, the Error body for JSON', async () => {
    isPage(await get('/report/%ZZ', { accept: BROWSER }), 400, '/report/%ZZ');
    isErrorBody(await get('/report/%ZZ', { accept: 'application/json' }), 400, '/report/%ZZ json');
  });

  it('GET /submissions/<malformed token>: an HTML 400 page (as its 404), the Error body with ?format=json', async () => {
    for (const url of [
      '/submissions/short',
      '/submissions/short?format=xml',
      `/submissions/${'A'.repeat(32)}?format=x`,
    ]) {
      const res = await get(url, { accept: BROWSER });
      isPage(res, 400, url);
      assert.equal(res.headers['cache-control'], 'no-store', url);
      assert.equal(res.headers['referrer-policy'], 'no-referrer', url);
    }
    isPage(await get('/submissions/short'), 400, 'no Accept');
    isErrorBody(await get('/submissions/short?format=json'), 400, '?format=json');
    isPage(await get('/submissions/%ZZ', { accept: BROWSER }), 400, '/submissions/%ZZ');
  });

  it('GET /models/<slug that does not decode or is too long>: an HTML page like its 404', async () => {
    isPage(await get('/models/%ZZ', { accept: BROWSER }), 400, '/models/%ZZ');
    isPage(await get(`/models/${'a'.repeat(500)}`, { accept: BROWSER }), 414, '/models/<long>');
    isPage(await get('/assets/%ZZ', { accept: BROWSER }), 400, '/assets/%ZZ');
  });

  it('GET /api/keys/verify with a malformed or missing token: an HTML page for a browser, the Error body otherwise', async () => {
    for (const url of ['/api/keys/verify?token=short', '/api/keys/verify']) {
      const page = await get(url, { accept: BROWSER });
      isPage(page, 400, url);
      assert.equal(page.headers['referrer-policy'], 'no-referrer', url);
      assert.equal(page.headers['cache-control'], 'no-store', url);
      isErrorBody(await get(url, { accept: 'application/json' }), 400, url);
      isErrorBody(await get(url), 400, url);
    }
  });

  it('a 500 page says what the Error body says (its text is public), with the request id', async () => {
    // makeApp's store is `memory`: the activation link cannot work, 500 store_not_configured.
    const res = await get(`/api/keys/verify?token=${'A'.repeat(43)}`, { accept: BROWSER });
    isPage(res, 500, 'store_not_configured');
    assert.match(res.body, /The key-value store is not configured on this instance/);
    assert.match(res.body, new RegExp(`request id ${res.headers['x-request-id']}`));
  });

  it('leaves the other routes’ refusals as the Error body, whatever Accept says', async () => {
    isErrorBody(await get('/api/model?slug=%21', { accept: BROWSER }), 400, '/api/model');
    isErrorBody(await get('/api/verify?hash=zz', { accept: BROWSER }), 400, '/api/verify');
    const unknown = await get('/nope', { accept: BROWSER });
    assert.equal(unknown.statusCode, 404);
    assert.match(String(unknown.headers['content-type']), /^application\/json/);
  });
});
