/**
 * Every 400 carries `required` (docs/api.md, General: "plus `required` on 400 (the route's required fields and
 * their constraints)"; contract, Errors: "required may echo the required fields"): a refusal a handler makes
 * after validation (the council's question without options, a consistency proof with from > to) as much as a
 * schema failure, and a refusal made before any route runs (an object with no fields, as no route matched).
 */
import assert from 'node:assert/strict';
import net from 'node:net';
import { after, before, describe, it } from 'node:test';
import { makeApp, type TestApp } from './helpers.ts';
import { SqliteStore } from '../src/store/index.ts';

describe('every 400 has a required echo', () => {
  let t: TestApp;
  let key = '';
  before(async () => {
    t = await makeApp({ store: new SqliteStore(':memory:') });
    key = (await t.app.inject({ method: 'POST', url: '/api/keys', payload: { email: 'k@example.com' } })).json()
      .api_key;
  });
  after(() => t.close());

  it('POST /api/council with a question that has no options: required names question', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/council',
      payload: { question: 'hello there' },
      headers: { authorization: `Bearer ${key}` },
    });
    assert.equal(res.statusCode, 400);
    assert.match(res.json().error, /No options found/);
    assert.deepEqual(Object.keys(res.json().required ?? {}), ['question']);
    assert.equal(res.json().required.question.maxLength, 2000);
  });

  it('GET /api/log/consistency?from=5&to=2: required names from', async () => {
    const res = await t.app.inject('/api/log/consistency?from=5&to=2');
    assert.equal(res.statusCode, 400);
    assert.deepEqual(Object.keys(res.json().required ?? {}), ['from']);
  });

  it('GET /api/leaderboard?type=x (no required field): required is an empty object', async () => {
    const res = await t.app.inject('/api/leaderboard?type=x');
    assert.equal(res.statusCode, 400);
    assert.deepEqual(res.json().required, {});
  });

  it('a URL that does not decode and a request without Host: required is an empty object', async () => {
    const bad = await t.app.inject({ url: '/api/model/%ZZ', headers: { accept: 'application/json' } });
    assert.equal(bad.statusCode, 400);
    assert.deepEqual(bad.json().required, {});
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const port = (t.app.server.address() as net.AddressInfo).port;
    const raw = await new Promise<string>((resolve, reject) => {
      const s = net.connect(port, '127.0.0.1', () => s.write('GET /healthz HTTP/1.1\r\n\r\n'));
      let out = '';
      s.on('data', (d) => {
        out += d;
      });
      s.on('end', () => resolve(out));
      s.on('error', reject);
    });
    assert.match(raw, /^HTTP\/1\.1 400/);
    assert.deepEqual(JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4)).required, {});
  });
});
