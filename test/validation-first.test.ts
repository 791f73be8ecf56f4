/**
 * Bad input is a 400 before anything else is decided: with SVC_STORE_URL=memory (keys and waitlist answer 500
 * store_not_configured to a good body) a bad body must still be a 400, never the 500. docs/api.md, General:
 * "Unknown fields in a request body answer 400", on every JSON-body POST.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { gzipSync } from 'node:zlib';
import { makeApp, type TestApp } from './helpers.ts';

describe('memory store: validation comes before store_not_configured', () => {
  let t: TestApp;
  let ip = 0;
  before(async () => {
    t = await makeApp({ env: { SVC_STORE_URL: 'memory' } });
  });
  after(() => t.close());
  const post = (url: string, payload: string) =>
    t.app.inject({
      method: 'POST',
      url,
      payload,
      headers: { 'content-type': 'application/json' },
      remoteAddress: `10.9.${ip >> 8}.${ip++ & 255}`,
    });

  const BAD: Record<string, string[]> = {
    '/api/keys': [
      '{"email":"a@b.co","zz":1}',
      '{"email":"a@b.co","source":"x"}',
      '{"email":"a@b.co","use_case":"x"}',
      '{"email":"a@b.co","plan":"free","zz":1}',
      'null',
      '{}',
    ],
    '/api/keys?format=quickref': ['{"email":"a@b.co","plan":"pro","zz":1}', '{"email":"a@b.co"}'],
    '/api/waitlist': [
      '{"email":"a@b.co","zz":1}',
      '{"email":"a@b.co","plan":"free"}',
      '{"email":"a@b.co","constructor":"x"}',
      'null',
      '{"email":""}',
    ],
    '/api/waitlist?format=quickref': ['{"email":"a@b.co","source":"x","zz":1}'],
    '/api/submit': [
      '{"model_name":"m","vendor":"v","api_endpoint":"https://x.example","contact_email":"a@b.co","zz":1}',
      '{"model_name":"m","vendor":"v","api_endpoint":"https://x.example","contact_email":"a@b.co","source":"x"}',
    ],
  };

  for (const [url, bodies] of Object.entries(BAD)) {
    it(`POST ${url}: every bad body is a 400 with the Error body`, async () => {
      for (const body of bodies) {
        const res = await post(url, body);
        assert.equal(res.statusCode, 400, `${url} ${body}: ${res.body}`);
        assert.equal(res.json().code, 'bad_request', body);
        assert.equal(typeof res.json().required, 'object', `${body}: required`);
      }
    });
  }

  it('an unknown field is named in the message', async () => {
    assert.equal((await post('/api/waitlist', '{"email":"a@b.co","zz":1}')).json().error, 'Unknown field: zz');
  });

  it('good bodies still answer 500 store_not_configured for keys and waitlist (the contract)', async () => {
    for (const [url, body] of [
      ['/api/keys', '{"email":"a@b.co","name":"A","organization":"O"}'],
      ['/api/keys?format=quickref', '{"email":"a@b.co","plan":"pro"}'],
      ['/api/waitlist', '{"email":"a@b.co","name":"A","organization":"O","use_case":"u"}'],
      ['/api/waitlist?format=quickref', '{"email":"a@b.co","source":"s"}'],
    ] as const) {
      const res = await post(url, body);
      assert.equal(res.statusCode, 500, `${url} ${body}`);
      assert.equal(res.json().code, 'store_not_configured');
    }
  });
});

describe('a query parameter given more than once', () => {
  let t: TestApp;
  before(async () => {
    t = await makeApp();
  });
  after(() => t.close());

  it('is a 400 that says so, not "must be string"', async () => {
    for (const [url, name] of [
      ['/api/leaderboard?type=pai&type=pai', 'type'],
      ['/api/model?slug=green-model&slug=green-model', 'slug'],
      [`/api/verify?hash=${'a'.repeat(64)}&hash=${'b'.repeat(64)}`, 'hash'],
      ['/api/model?slug=green-model&format=core&format=quickref', 'format'],
    ] as const) {
      const res = await t.app.inject(url);
      assert.equal(res.statusCode, 400, url);
      assert.equal(res.json().error, `Invalid ${name}: give it once, not several times`, url);
    }
    // a wrong type that is not a repetition keeps its message
    assert.match((await t.app.inject('/api/log/consistency?from=x')).json().error, /^Invalid from: must be integer/);
  });
});

describe('a compressed request body', () => {
  let t: TestApp;
  before(async () => {
    t = await makeApp();
  });
  after(() => t.close());

  it('is a 415 that says to send it uncompressed, not "not valid JSON" (or parsed as if it were plain)', async () => {
    const body = gzipSync(JSON.stringify({ prompt: 'a', response: 'b' }));
    for (const [encoding, payload] of [
      ['gzip', body],
      ['br', Buffer.from('{"prompt":"a","response":"b"}')],
    ] as const) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/score',
        payload,
        headers: { 'content-type': 'application/json', 'content-encoding': encoding },
      });
      assert.equal(res.statusCode, 415, encoding);
      assert.equal(res.json().code, 'unsupported_media_type');
      assert.match(res.json().error, new RegExp(`Content-Encoding ${encoding} is not supported`));
    }
    const page = await t.app.inject({
      method: 'POST',
      url: '/try',
      payload: gzipSync('prompt=a&response=b'),
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'content-encoding': 'gzip' },
    });
    assert.equal(page.statusCode, 415);
    assert.match(String(page.headers['content-type']), /^text\/html/);
    const plain = await t.app.inject({
      method: 'POST',
      url: '/api/score',
      payload: '{"prompt":"a","response":"b"}',
      headers: { 'content-type': 'application/json', 'content-encoding': 'identity' },
    });
    assert.equal(plain.statusCode, 200, 'identity is no encoding');
  });
});

describe('a JSON body with a __proto__ key', () => {
  it('is a 400 whose message names the forbidden key (the body is valid JSON)', async () => {
    const t = await makeApp();
    try {
      for (const payload of ['{"__proto__":{"x":1},"prompt":"a","response":"b"}', '{"constructor":{"prototype":{}}}']) {
        const res = await t.app.inject({
          method: 'POST',
          url: '/api/score',
          payload,
          headers: { 'content-type': 'application/json' },
        });
        assert.equal(res.statusCode, 400);
        assert.match(res.json().error, /__proto__ or constructor\.prototype/);
      }
    } finally {
      await t.close();
    }
  });
});
