/**
 * Alternate shapes of the write operations (keys, waitlist, submit): contract tests against the schemas written
 * from the second document, the core shape of the same request unchanged, plan keys' email verification and
 * daily allowance, and 400s with the core Error body in either shape.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createApiKey, DAY_MS } from '../src/domain/keys.ts';
import { resolveBearer } from '../src/http/outcomes.ts';
import { assertErrorStatus, makeApp, type TestApp } from './helpers.ts';
import { assertMatches, docSchema } from './quickref-helpers.ts';

const QUICKREF = 'application/vnd.svc.quickref+json';
const NOW = Date.parse('2026-11-21T10:00:00Z');
let t: TestApp;
let ip = 0;
/** A fresh client address per request, so the per-IP sign-up caps (3-5 per hour) do not interfere. */
const post = (url: string, payload: object, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url, payload, headers, remoteAddress: `203.0.113.${++ip}` });

before(async () => {
  t = await makeApp({
    env: { SVC_STORE_URL: 'sqlite::memory:', SVC_PUBLIC_URL: 'https://svc.example' },
    now: () => NOW,
  });
});
after(() => t.close());

function assertCoreError(
  r: { statusCode: number; json(): { error?: unknown } },
  status: number,
  pattern?: RegExp,
): void {
  assertErrorStatus(r, status);
  const body = r.json();
  if (pattern) assert.match(body.error as string, pattern);
}

describe('POST /api/keys with a plan', () => {
  it('issues an inactive key with a daily allowance, activated by the emailed link', async () => {
    const r = await post('/api/keys', { email: 'dev@example.com', plan: 'pro' });
    assert.equal(r.statusCode, 201);
    const body = r.json();
    assertMatches(docSchema('keys'), body);
    assert.equal(body.plan, 'pro');
    assert.equal(body.rate_limit, '10000/day');
    assert.equal(r.headers['cache-control'], 'no-store');

    const mail = t.sent.find((m) => m.to === 'dev@example.com');
    assert.ok(mail, 'verification email sent');
    assert.ok(!mail.text.includes(body.api_key), 'the key itself is never mailed');
    const link = /https:\/\/svc\.example(\/api\/keys\/verify\?token=[A-Za-z0-9_-]+)/.exec(mail.text);
    assert.ok(link, mail.text);

    const bearer = { authorization: `Bearer ${body.api_key}` };
    assert.equal((await t.app.inject({ url: '/api/leaderboard', headers: bearer })).statusCode, 401);
    assert.equal((await t.app.inject(`/api/keys?key=${body.api_key}`)).json().valid, false);

    const verify = await t.app.inject(link[1]!);
    assert.equal(verify.statusCode, 200);
    assert.match(verify.headers['content-type'] as string, /^text\/html/);
    assert.match(verify.body, /active/);
    assert.equal(verify.headers['cache-control'], 'no-store');

    assert.equal((await t.app.inject({ url: '/api/leaderboard', headers: bearer })).statusCode, 200);
    const status = (await t.app.inject(`/api/keys?key=${body.api_key}`)).json();
    assert.equal(status.valid, true);
    assert.equal(status.rate_limit, 10000);

    const again = await t.app.inject(link[1]!);
    assert.equal(again.statusCode, 404);
    assert.match(again.headers['content-type'] as string, /^text\/html/);
  });

  it('refills a plan key’s allowance at the first request of each UTC day', async () => {
    const day = Math.floor(NOW / DAY_MS) * DAY_MS + 3 * DAY_MS;
    const { apiKey, record } = await createApiKey(t.store, { email: 'daily@example.com' }, day, 'pro');
    await t.store.updateKey(record.id, { active: true, callsRemaining: 5 });
    const header = `Bearer ${apiKey}`;
    assert.equal((await resolveBearer(t.store, header, day + 60_000))?.callsRemaining, 10000);
    await t.store.updateKey(record.id, { callsRemaining: 5 });
    assert.equal((await resolveBearer(t.store, header, day + 3_600_000))?.callsRemaining, 5, 'same day: no refill');
    assert.equal((await resolveBearer(t.store, header, day + DAY_MS + 1))?.callsRemaining, 10000, 'next day: refilled');
  });

  it('leaves the core shape and core keys unchanged', async () => {
    const r = await post('/api/keys', { email: 'core@example.com' });
    assert.equal(r.statusCode, 201);
    assert.deepEqual(Object.keys(r.json()).sort(), ['api_key', 'created_at', 'rate_limit']);
    assert.equal(r.json().rate_limit, 1000);
    assert.equal((await t.app.inject(`/api/keys?key=${r.json().api_key}`)).json().valid, true, 'active at once');
    assert.ok(!t.sent.some((m) => m.to === 'core@example.com'));
  });

  it('answers bad input with 400 and the core Error body in either shape', async () => {
    assertCoreError(await post('/api/keys?format=quickref', { email: 'x@example.com' }), 400, /plan/);
    assertCoreError(await post('/api/keys', { email: 'x@example.com' }, { accept: QUICKREF }), 400, /plan/);
    assertCoreError(await post('/api/keys', { email: 'x@example.com', plan: 'enterprise' }), 400, /plan/);
    assertCoreError(await post('/api/keys', { email: 'not-an-email', plan: 'pro' }), 400, /email/);
    assertCoreError(await post('/api/keys', { email: 'not-an-email' }), 400, /email/);
    assertCoreError(await post('/api/keys?format=qr', { email: 'x@example.com' }), 400, /format/);
  });

  it('answers a malformed verification token with 400 and the Error body', async () => {
    assertCoreError(await t.app.inject('/api/keys/verify?token=short'), 400);
    assertCoreError(await t.app.inject('/api/keys/verify'), 400);
  });
});

describe('POST /api/waitlist, alternate shape', () => {
  it('answers {success, message, position} and records the source', async () => {
    const r = await post('/api/waitlist?format=quickref', { email: 'Wait@Example.com', source: 'newsletter' });
    assert.equal(r.statusCode, 201);
    assertMatches(docSchema('waitlist'), r.json());
    assert.deepEqual(Object.keys(r.json()).sort(), ['message', 'position', 'success']);
    const entry = (await t.store.listWaitlist()).find((e) => e.email === 'Wait@Example.com');
    assert.equal(entry?.source, 'newsletter');

    const dup = await post('/api/waitlist', { email: 'wait@example.com', source: 'x' }, { accept: QUICKREF });
    assert.equal(dup.statusCode, 200);
    assertMatches(docSchema('waitlist'), dup.json());
    assert.equal(dup.json().position, r.json().position);
  });

  it('leaves the core shape unchanged', async () => {
    const r = await post('/api/waitlist', { email: 'core-wait@example.com' });
    assert.equal(r.statusCode, 201);
    assert.deepEqual(Object.keys(r.json()).sort(), ['email_sent', 'message', 'position', 'success']);
    assert.match(r.headers['content-type'] as string, /^application\/json/);
  });

  it('answers bad input with 400 and the core Error body in either shape', async () => {
    assertCoreError(await post('/api/waitlist?format=quickref', { email: 'nope', source: 'x' }), 400, /email/);
    assertCoreError(
      await post('/api/waitlist?format=quickref', { email: 'a@example.com', source: 'x'.repeat(501) }),
      400,
      /source/,
    );
    assertCoreError(await post('/api/waitlist', { email: 'nope' }), 400, /email/);
  });
});

describe('POST /api/submit, alternate shape', () => {
  const alt = {
    model_name: 'Example Chat 2',
    model_slug: 'example-chat-2',
    provider: 'Example Labs',
    api_endpoint: 'https://api.example.com/v1/chat',
    contact_email: 'ml@example.com',
  };

  it('is selected by the body, answers {success, submission_id, estimated_completion} and records slug and provider', async () => {
    const key = await post('/api/keys', { email: 'submitter@example.com' });
    const r = await post('/api/submit', alt, { authorization: `Bearer ${key.json().api_key}` });
    assert.equal(r.statusCode, 200);
    const body = r.json();
    assertMatches(docSchema('submit'), body);
    assert.equal(typeof body.submission_id, 'string');
    assert.equal(body.estimated_completion, new Date(NOW + 48 * 3_600_000).toISOString());
    const rec = (await t.store.listSubmissions()).find((s) => `sub_${s.id}` === body.submission_id);
    assert.equal(rec?.modelSlug, 'example-chat-2');
    assert.equal(rec?.vendor, 'Example Labs');
  });

  it('leaves the core shape unchanged', async () => {
    const r = await post('/api/submit', {
      model_name: 'M',
      vendor: 'V',
      api_endpoint: 'https://x.example',
      contact_email: 'a@example.com',
    });
    assert.equal(r.statusCode, 200);
    assert.deepEqual(Object.keys(r.json()).sort(), ['email_sent', 'id', 'message', 'success']);
    assert.equal(typeof r.json().id, 'number');
    const viaFormat = await post('/api/submit?format=quickref', {
      model_name: 'M',
      vendor: 'V',
      api_endpoint: 'https://x.example',
      contact_email: 'a@example.com',
    });
    assertMatches(docSchema('submit'), viaFormat.json());
  });

  it('answers bad input with 400 and the core Error body in either shape', async () => {
    const { model_slug: _s, ...noSlug } = alt;
    assertCoreError(await post('/api/submit', noSlug), 400, /model_slug/);
    const { provider: _p, ...noProvider } = alt;
    assertCoreError(await post('/api/submit', noProvider), 400, /provider/);
    assertCoreError(await post('/api/submit', { ...alt, model_slug: 'Not A Slug' }), 400, /model_slug/);
    assertCoreError(await post('/api/submit', { ...alt, contact_email: 'nope' }), 400, /contact_email/);
    assertCoreError(
      await post('/api/submit', { model_name: 'M', api_endpoint: 'e', contact_email: 'a@example.com' }),
      400,
      /vendor/,
    );
    assertCoreError(await post('/api/submit', { ...alt, provider: 'p'.repeat(501) }), 400, /provider/);
  });
});
