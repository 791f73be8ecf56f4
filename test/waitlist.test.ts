/** POST /api/waitlist: 201/200 bodies, case-insensitive de-duplication under concurrency, emails for new sign-ups only. */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import type { Mailer, MailMessage } from '../src/domain/email.ts';
import { MemoryStore, RedisStore, SqliteStore, type Store } from '../src/store/index.ts';
import { freshIp, makeServiceApp, redisSkip, redisTestUrl } from './store-helpers.ts';

function recordingMailer(ok = true): Mailer & { sent: MailMessage[] } {
  const sent: MailMessage[] = [];
  return { sent, send: async (m) => (sent.push(m), ok) };
}

const join = (t: Awaited<ReturnType<typeof makeServiceApp>>, payload: object, ip = freshIp()) =>
  t.app.inject({ method: 'POST', url: '/api/waitlist', payload, remoteAddress: ip });

function suite(name: string, makeStore: () => Store, skip: false | string = false) {
  describe(`waitlist (${name})`, { skip }, () => {
    // close everything even when an assertion fails, so an open Redis connection never keeps the run alive
    const open: { close(): Promise<void> }[] = [];
    const make = async (opts: Omit<Parameters<typeof makeServiceApp>[0], 'store'> = {}) => {
      const t = await makeServiceApp({ store: makeStore(), ...opts });
      open.push(t);
      return t;
    };
    after(async () => {
      for (const t of open) await t.close().catch(() => {});
    });
    it('adds with 201 and a position, then answers 200 for the same address in any case', async () => {
      const mailer = recordingMailer();
      const t = await make({ mailer, env: { SVC_ADMIN_EMAIL: 'admin@svc.test' } });
      const a = await join(t, { email: 'Ada@Example.com', name: 'Ada', organization: 'Engines', use_case: 'audits' });
      assert.equal(a.statusCode, 201);
      assert.deepEqual(a.json(), {
        success: true,
        message: 'You are on the waitlist at position 1.',
        position: 1,
        email_sent: true,
      });
      assert.deepEqual(mailer.sent.map((m) => m.to).sort(), ['Ada@Example.com', 'admin@svc.test']);
      assert.match(mailer.sent.find((m) => m.to === 'Ada@Example.com')!.text, /position 1/);
      const b = await join(t, { email: 'bob@example.com' });
      assert.equal(b.json().position, 2);
      const sentBefore = mailer.sent.length;
      const again = await join(t, { email: 'ada@EXAMPLE.COM' });
      assert.equal(again.statusCode, 200);
      assert.deepEqual(again.json(), { success: true, message: 'You are already on the waitlist.', position: 1 });
      assert.equal(mailer.sent.length, sentBefore, 'no email is re-sent for an address already on the list');
    });

    it('gives one 201 and one 200 to two simultaneous sign-ups of one address', async () => {
      const t = await make();
      for (let round = 0; round < 5; round++) {
        const email = `race${round}@example.com`;
        const [x, y] = await Promise.all([join(t, { email }), join(t, { email: email.toUpperCase() })]);
        assert.deepEqual([x.statusCode, y.statusCode].sort(), [200, 201]);
        assert.equal(x.json().position, y.json().position);
      }
    });

    it('reports email_sent false when the provider fails, and still adds the address', async () => {
      const t = await make({ mailer: recordingMailer(false) });
      const r = await join(t, { email: 'fail@example.com' });
      assert.equal(r.statusCode, 201);
      assert.equal(r.json().email_sent, false);
    });
  });
}

suite('sqlite', () => new SqliteStore(':memory:'));
suite('redis', () => new RedisStore(redisTestUrl('waitlist')), await redisSkip());

describe('waitlist validation and configuration', () => {
  it('answers 400 for a bad body and 500 when the store is not configured', async () => {
    const t = await makeServiceApp({ store: new SqliteStore(':memory:') });
    for (const payload of [
      {},
      { email: 'nope' },
      { email: 'a@example.com', use_case: 'u'.repeat(501) },
      { email: 'a@example.com', name: { x: 1 } },
    ]) {
      const r = await join(t, payload);
      assert.equal(r.statusCode, 400, JSON.stringify(payload).slice(0, 50));
    }
    await t.close();
    const m = await makeServiceApp({ store: new MemoryStore(), env: { SVC_STORE_URL: 'memory' } });
    const r = await join(m, { email: 'a@example.com' });
    assert.equal(r.statusCode, 500);
    assert.equal(r.json().code, 'store_not_configured');
    await m.close();
  });

  it('sends nothing and reports email_sent false with no provider configured', async () => {
    const { createMailer } = await import('../src/domain/email.ts');
    const { loadConfig } = await import('../src/config.ts');
    const t = await makeServiceApp({
      store: new SqliteStore(':memory:'),
      mailer: createMailer(loadConfig({}).email, { warn() {} }),
    });
    const r = await join(t, { email: 'quiet@example.com' });
    assert.equal(r.statusCode, 201);
    assert.equal(r.json().email_sent, false);
    await t.close();
  });
});
