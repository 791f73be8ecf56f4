/** POST /api/submit: recording and queueing, email_sent, and table-driven bad input (never 500, no limit reset). */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Mailer, MailMessage } from '../src/domain/email.ts';
import { SqliteStore } from '../src/store/index.ts';
import { assertErrorStatus } from './helpers.ts';
import { freshIp, makeServiceApp } from './store-helpers.ts';

const good = {
  model_name: 'Model X',
  vendor: 'Vendor',
  api_endpoint: 'https://api.example.com/v1',
  contact_email: 'ml@example.com',
  notes: 'n',
};
const NOW = 1_800_000_123_456;

describe('submit', () => {
  let t: Awaited<ReturnType<typeof makeServiceApp>>;
  let store: SqliteStore;
  const sent: MailMessage[] = [];
  let providerOk = true;
  const mailer: Mailer = { send: async (m) => (sent.push(m), providerOk) };
  before(async () => {
    store = new SqliteStore(':memory:');
    t = await makeServiceApp({ store, mailer, now: () => NOW, env: { SVC_ADMIN_EMAIL: 'admin@svc.test' } });
  });
  after(() => t.close());

  const post = (payload: unknown, opts: { ip?: string; headers?: Record<string, string> } = {}) =>
    t.app.inject({
      method: 'POST',
      url: '/api/submit',
      remoteAddress: opts.ip ?? freshIp(),
      headers: { 'content-type': 'application/json', ...opts.headers },
      payload: typeof payload === 'string' ? payload : JSON.stringify(payload),
    });

  it('records and queues the submission: 200 with success, message, a millisecond id and email_sent', async () => {
    const r = await post(good);
    assert.equal(r.statusCode, 200);
    const body = r.json();
    assert.deepEqual(Object.keys(body).sort(), ['email_sent', 'id', 'message', 'success']);
    assert.equal(body.success, true);
    assert.equal(body.id, NOW);
    assert.equal(body.email_sent, true);
    const rec = (await store.listSubmissions()).find((s) => s.id === NOW);
    assert.match(rec?.statusTokenHash ?? '', /^[0-9a-f]{64}$/);
    assert.deepEqual(rec && { ...rec, statusTokenHash: undefined }, {
      id: NOW,
      modelName: 'Model X',
      vendor: 'Vendor',
      apiEndpoint: 'https://api.example.com/v1',
      contactEmail: 'ml@example.com',
      notes: 'n',
      createdAt: new Date(NOW).toISOString(),
      status: 'pending',
      statusTokenHash: undefined,
    });
    assert.deepEqual(sent.map((m) => m.to).sort(), ['admin@svc.test', 'ml@example.com']);
  });

  it('mails a private status-page link whose token is stored only as a hash', async () => {
    sent.length = 0;
    const r = await post({ ...good, model_name: 'Status <b>Model</b>' });
    const id = r.json().id as number;
    const confirmation = sent.find((m) => m.to === 'ml@example.com')!;
    const link = /http:\/\/localhost:\d+\/submissions\/([A-Za-z0-9_-]{32})/.exec(confirmation.text);
    assert.ok(link, confirmation.text);
    assert.ok(confirmation.html?.includes(link[0]));
    assert.equal(
      sent.find((m) => m.to === 'admin@svc.test')!.text.includes(link[1]!),
      false,
      'the admin notice has no token',
    );
    const rec = await store.getSubmission(id);
    assert.notEqual(rec?.statusTokenHash, link[1]);
    const page = await t.app.inject(`/submissions/${link[1]}`);
    assert.equal(page.statusCode, 200);
    assert.equal(page.headers['cache-control'], 'no-store');
    assert.match(page.body, /waiting for an operator to approve/);
    assert.match(page.body, /Status &lt;b&gt;Model&lt;\/b&gt;/, 'user text is escaped');
    const data = (await t.app.inject(`/submissions/${link[1]}?format=json`)).json();
    assert.equal(data.id, id);
    assert.equal(data.status, 'pending');
    assert.equal((await t.app.inject(`/submissions/${'A'.repeat(32)}`)).statusCode, 404);
    assert.equal((await t.app.inject('/submissions/short')).statusCode, 400);
  });

  it('answers an unknown status link with an HTML page (a person clicked it), and with the Error body for ?format=json', async () => {
    const page = await t.app.inject(`/submissions/${'A'.repeat(32)}`);
    assert.equal(page.statusCode, 404);
    assert.match(page.headers['content-type'] as string, /^text\/html/);
    assert.equal(page.headers['cache-control'], 'no-store');
    assert.equal(page.headers['referrer-policy'], 'no-referrer');
    assert.match(page.body, /<html[^>]*>[\s\S]*No submission has this status link/);
    const data = await t.app.inject(`/submissions/${'A'.repeat(32)}?format=json`);
    assert.equal(data.statusCode, 404);
    assert.equal(data.json().code, 'not_found');
  });

  it('gives simultaneous submissions distinct ids', async () => {
    const rs = await Promise.all(Array.from({ length: 8 }, () => post(good)));
    const ids = rs.map((r) => r.json().id);
    assert.equal(new Set(ids).size, 8);
    assert.ok(ids.every((id) => Number.isInteger(id) && id > NOW));
  });

  it('still receives the submission when the provider errors, with email_sent false', async () => {
    providerOk = false;
    const r = await post({ ...good, model_name: 'Unlucky' });
    providerOk = true;
    assert.equal(r.statusCode, 200);
    assert.equal(r.json().email_sent, false);
    assert.ok((await store.listSubmissions()).some((s) => s.modelName === 'Unlucky'));
  });

  const long = 'x'.repeat(501);
  const cases: [string, unknown, number, Record<string, string>?][] = [];
  for (const field of ['model_name', 'vendor', 'api_endpoint', 'contact_email']) {
    const { [field as keyof typeof good]: _omit, ...rest } = good;
    cases.push([`${field} missing`, rest, 400]);
    cases.push([`${field} empty`, { ...good, [field]: '' }, 400]);
  }
  for (const field of Object.keys(good)) {
    cases.push([`${field} is an object`, { ...good, [field]: { a: 1 } }, 400]);
    cases.push([`${field} is a list`, { ...good, [field]: ['a', 'b'] }, 400]);
    cases.push([
      `${field} too long`,
      { ...good, [field]: field === 'contact_email' ? `${long}@example.com` : long },
      400,
    ]);
  }
  cases.push(['notes of exactly 500 code points', { ...good, notes: '😀'.repeat(500) }, 200]);
  for (const bad of ['plainaddress', '@example.com', 'a@', 'a b@example.com', 'a@example.com\nBcc: x@example.com']) {
    cases.push([`invalid email ${JSON.stringify(bad)}`, { ...good, contact_email: bad }, 400]);
  }
  // An endpoint the evaluation could never call is refused now, not failed by the worker later.
  for (const endpoint of [
    'not a url',
    'ftp://models.example/v1',
    'api.example.com/v1',
    'javascript:alert(1)',
    'https://',
  ])
    cases.push([`api_endpoint ${JSON.stringify(endpoint)}`, { ...good, api_endpoint: endpoint }, 400]);
  cases.push(['api_endpoint http with a port', { ...good, api_endpoint: 'http://10.0.0.5:8000/v1' }, 200]);
  cases.push(['non-JSON body', '{"model_name": ', 400]);
  cases.push(['empty body', '', 400]);
  cases.push(['a JSON array', '[]', 400]);
  cases.push(['a JSON string', '"hello"', 400]);
  cases.push(['__proto__ key', `{"__proto__": {"admin": true}, ${JSON.stringify(good).slice(1)}`, 400]);
  cases.push([
    'constructor.prototype key',
    `{"constructor": {"prototype": {"admin": true}}, ${JSON.stringify(good).slice(1)}`,
    400,
  ]);
  // bodies are JSON only: text/plain has no parser (415)
  cases.push(['text/plain content type', JSON.stringify(good), 415, { 'content-type': 'text/plain' }]);
  cases.push(['form content type', 'model_name=x', 415, { 'content-type': 'application/x-www-form-urlencoded' }]);

  for (const [name, payload, status, headers] of cases) {
    it(`bad input: ${name} -> ${status}`, async () => {
      const r = await post(payload, { headers });
      assert.equal(r.statusCode, status, r.body);
      assert.notEqual(r.statusCode, 500);
      if (status >= 400) assertErrorStatus(r, status, name);
      if (status === 400 && !name.includes('key'))
        assert.ok(r.json().required?.contact_email, 'required echoes the fields');
      assert.equal(({} as Record<string, unknown>).admin, undefined, 'no prototype pollution');
    });
  }

  it('echoes every field the shape requires in `required`: vendor for the core body, provider and model_slug for the alternate', async () => {
    const core = await post({ model_name: 'm', api_endpoint: 'https://a.example/v1', contact_email: 'a@example.com' });
    assert.equal(core.statusCode, 400);
    assert.match(core.json().error, /vendor/);
    assert.deepEqual(Object.keys(core.json().required).sort(), [
      'api_endpoint',
      'contact_email',
      'model_name',
      'vendor',
    ]);
    const alt = await post({ ...good, vendor: undefined, provider: 'P' });
    assert.equal(alt.statusCode, 400);
    assert.match(alt.json().error, /model_slug/);
    assert.deepEqual(Object.keys(alt.json().required).sort(), [
      'api_endpoint',
      'contact_email',
      'model_name',
      'model_slug',
      'provider',
    ]);
  });

  it('counts refused input against the limit, and a spoofed X-Forwarded-For never resets it', async () => {
    const ip = freshIp();
    const codes = [];
    codes.push((await post({ ...good, contact_email: 'nope' }, { ip })).statusCode);
    codes.push((await post('{', { ip })).statusCode);
    codes.push((await post(good, { ip, headers: { 'x-forwarded-for': '1.2.3.4' } })).statusCode);
    codes.push((await post(good, { ip, headers: { 'x-forwarded-for': '5.6.7.8' } })).statusCode);
    codes.push((await post(good, { ip })).statusCode);
    codes.push((await post(good, { ip, headers: { 'x-forwarded-for': '9.9.9.9' } })).statusCode);
    codes.push((await post({ model_name: 1 }, { ip, headers: { 'x-forwarded-for': '10.1.1.1' } })).statusCode);
    assert.deepEqual(codes, [400, 400, 200, 200, 200, 429, 429]);
  });
});
