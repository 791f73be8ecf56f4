/** GET /api/log/*: the audit-log endpoints share one per-IP hourly limit (LIMITS.log). */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { AuditLog } from '../src/audit/log.ts';
import { certifyReports, sealReport } from '../src/domain/reports.ts';
import { LIMITS, WINDOW_MS } from '../src/ratelimit/index.ts';
import { SqliteStore } from '../src/store/index.ts';
import { sampleReport } from './audit-helpers.ts';
import { makeApp, type TestApp } from './helpers.ts';

const T0 = 1_800_000_000_000 - (1_800_000_000_000 % WINDOW_MS);
const CAP = LIMITS.log;

describe('GET /api/log/* rate limit', () => {
  const sealed = ['alpha', 'bravo', 'charlie'].map((s) => sealReport(sampleReport(s)));
  const urls = [
    '/api/log/checkpoint',
    '/api/log/public-key',
    `/api/log/inclusion?hash=${sealed[1]!.hash}`,
    '/api/log/consistency?from=1&to=3',
  ];
  const apps: TestApp[] = [];
  const app = async (env: Record<string, string> = {}): Promise<TestApp> => {
    const store = new SqliteStore(':memory:');
    await certifyReports(store, new AuditLog(store), sealed);
    const t = await makeApp({ store, env, now: () => T0 + 1000 });
    apps.push(t);
    return t;
  };
  let t: TestApp;
  const get = (url: string, ip: string, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'GET', url, remoteAddress: ip, headers });

  before(async () => {
    t = await app();
  });
  after(async () => {
    for (const a of apps) await a.close();
  });

  it('carries RateLimit and RateLimit-Policy on every answer, counting the four endpoints in one window', async () => {
    const ip = '203.0.113.10';
    for (const [i, url] of urls.entries()) {
      const res = await get(url, ip);
      assert.equal(res.statusCode, 200, url);
      assert.equal(res.headers['ratelimit-policy'], `"hour";q=${CAP};w=3600`, url);
      assert.equal(res.headers.ratelimit, `"hour";r=${CAP - 1 - i};t=3599`, url);
      assert.equal(res.headers['retry-after'], undefined, url);
    }
    const missing = await get(`/api/log/inclusion?hash=${'ab'.repeat(32)}`, ip);
    assert.equal(missing.statusCode, 404, 'a refused attempt counts too');
    assert.equal(missing.headers.ratelimit, `"hour";r=${CAP - 5};t=3599`);
  });

  it(`answers 429 with the Error body and Retry-After after ${CAP} requests an hour; other IPs are unaffected`, async () => {
    const ip = '203.0.113.20';
    for (let i = 0; i < CAP; i++) {
      const res = await get(urls[i % urls.length]!, ip);
      assert.equal(res.statusCode, 200, `request ${i + 1}`);
    }
    for (const url of urls) {
      const res = await get(url, ip);
      assert.equal(res.statusCode, 429, url);
      assert.match(String(res.headers['content-type']), /^application\/json/);
      const body = res.json();
      assert.ok(body.error.startsWith(`Rate limit exceeded: ${CAP} requests per hour.`), body.error);
      assert.equal(body.code, 'rate_limited');
      assert.equal(res.headers['retry-after'], '3599');
      assert.equal(res.headers['ratelimit-policy'], `"hour";q=${CAP};w=3600`);
      assert.equal(res.headers.ratelimit, '"hour";r=0;t=3599');
      assert.equal(res.headers['access-control-expose-headers']?.includes('Retry-After'), true);
    }
    assert.equal((await get(urls[0]!, '203.0.113.21')).statusCode, 200, 'another IP has its own window');
  });

  it('never lets a spoofed X-Forwarded-For reset the count', async () => {
    for (const env of [{}, { SVC_TRUST_PROXY: 'x-forwarded-for:1' }] as Record<string, string>[]) {
      t = await app(env);
      const hit = (xff: string) => get(urls[0]!, '10.0.0.1', { 'x-forwarded-for': xff });
      for (let i = 0; i < CAP; i++) assert.equal((await hit('203.0.113.50')).statusCode, 200);
      for (const spoof of ['1.2.3.4, 203.0.113.50', '5.6.7.8,203.0.113.50', 'garbage, 203.0.113.50']) {
        assert.equal((await hit(spoof)).statusCode, 429, `${JSON.stringify(env)} ${spoof}`);
      }
    }
  });
});
