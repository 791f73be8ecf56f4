/**
 * Fuzzed requests against every public endpoint: never a 5xx, every error is the Error body with a code (an SVG
 * for badges, an HTML page for the HTML pages). Seeded, so a failure replays. FUZZ_COUNT per endpoint (default 150
 * in `npm test`); the full run is `npm run fuzz` (10,000 per endpoint). A `:param` in a path is replaced by a fuzzed
 * value each time (percent-encoded, or raw).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ERROR_CODES, type ErrorCode, statusOf } from '../src/errors.ts';
import { SqliteStore } from '../src/store/index.ts';
import { makeApp, type TestApp } from './helpers.ts';
import { mulberry32 } from './prng.ts';

const COUNT = Number(process.env.FUZZ_COUNT ?? 150);
const SEED = Number(process.env.FUZZ_SEED ?? 20261123);

const ENDPOINTS: [string, string][] = [
  ['GET', '/api/leaderboard'],
  ['GET', '/api/model'],
  ['GET', '/api/badge/green-model'],
  ['GET', '/api/badge'],
  ['POST', '/api/score'],
  ['POST', '/api/honesty'],
  ['POST', '/api/council'],
  ['GET', '/api/verify'],
  ['POST', '/api/submit'],
  ['POST', '/api/waitlist'],
  ['GET', '/api/keys'],
  ['POST', '/api/keys'],
  ['GET', '/api/log/checkpoint'],
  ['GET', '/api/log/inclusion'],
  ['GET', '/api/log/consistency'],
  ['GET', '/api/log/public-key'],
  ['GET', '/api/keys/verify'],
  ['GET', '/healthz'],
  ['GET', '/api/badge/:slug'],
  ['GET', '/report/:id'],
  ['GET', '/submissions/:token'],
  ['GET', '/openapi.json'],
  ['GET', '/svc.js'],
  // HTML pages: errors are HTML pages, not the JSON Error body.
  ['GET', '/'],
  ['GET', '/models/:slug'],
  ['GET', '/try'],
  ['POST', '/try'],
  ['POST', '/submit'],
  ['POST', '/waitlist'],
  ['GET', '/docs'],
  ['GET', '/assets/:name'],
];
// The report and submission-status pages answer an unknown id or token with an HTML page when HTML is wanted
// (the Error body on request).
const HTML_PAGES = new Set([
  '/',
  '/models/:slug',
  '/try',
  '/submit',
  '/waitlist',
  '/docs',
  '/assets/:name',
  '/report/:id',
  '/submissions/:token',
]);

const FIELDS = [
  'prompt',
  'response',
  'type',
  'email',
  'name',
  'organization',
  'use_case',
  'model_name',
  'vendor',
  'api_endpoint',
  'contact_email',
  'notes',
  'question',
  'options',
  'key',
  'hash',
  'slug',
  'format',
  'plan',
  'source',
  'style',
  'from',
  'to',
  '__proto__',
  'constructor',
];
const STRINGS = [
  '',
  ' ',
  'a',
  `sk-svc-${'0'.repeat(32)}`,
  'a@example.com',
  'x'.repeat(5000),
  '\u0000\u0001',
  '%',
  '%ZZ',
  '<script>',
  '"\'',
  '\ud800',
  '💥'.repeat(50),
  'sycophancy',
  'pai',
  'both',
  'quickref',
  'green-model',
  'f'.repeat(64),
  '-1',
  '1e309',
  'NaN',
  'null',
  '[]',
  '{}',
];

function value(r: () => number, depth = 0): unknown {
  const k = Math.floor(r() * (depth > 2 ? 5 : 8));
  switch (k) {
    case 0:
      return STRINGS[Math.floor(r() * STRINGS.length)];
    case 1:
      return Math.floor(r() * 2 ** 31) * (r() < 0.5 ? -1 : 1);
    case 2:
      return r() < 0.5;
    case 3:
      return null;
    case 4:
      return r() * 1e6;
    case 5:
      return Array.from({ length: Math.floor(r() * 4) }, () => value(r, depth + 1));
    default: {
      const o: Record<string, unknown> = {};
      for (let i = Math.floor(r() * 5); i > 0; i--) o[FIELDS[Math.floor(r() * FIELDS.length)]!] = value(r, depth + 1);
      return o;
    }
  }
}

function pathParam(r: () => number): string {
  const roll = r();
  if (roll < 0.3) return 'green-model';
  if (roll < 0.4) return 'f'.repeat(12 + Math.floor(r() * 60));
  const v = String(value(r, 3));
  try {
    if (roll < 0.9) return encodeURIComponent(v);
  } catch {
    // a lone surrogate has no UTF-8 form: sent raw below
  }
  return v.replace(/[\s?#/]/g, '');
}

function request(r: () => number, method: string, template: string) {
  const path = template.replace(/:[a-z]+/g, () => pathParam(r));
  const q = new URLSearchParams();
  for (let i = Math.floor(r() * 4); i > 0; i--) q.append(FIELDS[Math.floor(r() * FIELDS.length)]!, String(value(r, 3)));
  const qs = q.toString();
  const url = `${path}${qs ? `?${qs}` : ''}${r() < 0.05 ? (qs ? '&%' : '?%') : ''}`;
  const headers: Record<string, string> = {};
  if (r() < 0.2) headers.authorization = r() < 0.5 ? `Bearer ${STRINGS[Math.floor(r() * STRINGS.length)]}` : 'Basic x';
  if (r() < 0.1) headers.accept = r() < 0.5 ? 'application/vnd.svc.quickref+json' : '*/*';
  if (method !== 'POST') return { method, url, headers };
  const roll = r();
  const form = HTML_PAGES.has(template) && r() < 0.7;
  headers['content-type'] = form
    ? 'application/x-www-form-urlencoded'
    : roll < 0.85
      ? 'application/json'
      : roll < 0.95
        ? 'text/plain'
        : 'application/x-www-form-urlencoded';
  if (form) {
    const f = new URLSearchParams();
    for (let i = Math.floor(r() * 6); i > 0; i--)
      f.append(FIELDS[Math.floor(r() * FIELDS.length)]!, String(value(r, 3)));
    return { method, url, headers, payload: r() < 0.9 ? f.toString() : `${f.toString()}&%zz=%` };
  }
  const body = r() < 0.85 ? JSON.stringify(value(r)) : STRINGS[Math.floor(r() * STRINGS.length)]!;
  return { method, url, headers, payload: body };
}

let t: TestApp;
before(async () => {
  t = await makeApp({ store: new SqliteStore(':memory:') });
});
after(() => t.close());

describe(`fuzz: ${COUNT} requests per endpoint (seed ${SEED})`, () => {
  for (const [method, path] of ENDPOINTS) {
    it(`${method} ${path}`, async () => {
      const r = mulberry32(SEED ^ path.length ^ (method.length * 7919));
      for (let i = 0; i < COUNT; i++) {
        const req = request(r, method, path);
        // A fresh client address each time, so the rate limiter does not turn the run into 429s.
        const res = await t.app.inject({
          ...req,
          remoteAddress: `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`,
        } as never);
        const what = `${req.method} ${req.url} ${JSON.stringify(req.headers)} ${String((req as { payload?: string }).payload).slice(0, 200)}`;
        assert.ok(res.statusCode < 500, `${res.statusCode} for ${what}: ${res.body.slice(0, 300)}`);
        if (res.statusCode >= 400) {
          if (HTML_PAGES.has(path) && /text\/html/.test(String(res.headers['content-type']))) {
            // A page's own refusal is an HTML page; refusals made before any page runs (a bad Authorization
            // header, a URL the router refuses) are the Error body, checked below.
            assert.match(res.body, /<html/i, what);
          } else if (path.startsWith('/api/badge')) {
            assert.match(String(res.headers['content-type'] ?? ''), /image\/svg\+xml/, what);
            assert.match(res.body, /^<svg/, what);
          } else {
            const body = res.json();
            assert.equal(typeof body.error, 'string', what);
            assert.equal(typeof body.code, 'string', `${what}: ${res.body}`);
            // the code is in the catalogue, and the status is the catalogue's for it (src/errors.ts)
            assert.ok(
              (ERROR_CODES as readonly string[]).includes(body.code),
              `${body.code} not in the catalogue: ${what}`,
            );
            assert.equal(res.statusCode, statusOf(body.code as ErrorCode), `${body.code}: ${what}`);
            // every 400 echoes the route's required fields (docs/api.md, General), {} when it has none
            if (res.statusCode === 400)
              assert.equal(typeof body.required, 'object', `400 without required: ${what}: ${res.body}`);
          }
        }
      }
    });
  }
});
