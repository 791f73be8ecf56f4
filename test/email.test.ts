/** The mailer against real local servers: smtp-server for SMTP and a node:http server that plays the provider API. */
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { SMTPServer } from 'smtp-server';
import { loadConfig } from '../src/config.ts';
import {
  capPerRecipient,
  createMailer,
  submissionAdminNotice,
  submissionConfirmation,
  waitlistAdminNotice,
  waitlistConfirmation,
} from '../src/domain/email.ts';
import { MemoryStore } from '../src/store/index.ts';
import { escapeHtml } from '../src/text.ts';

const warnings: object[] = [];
const log = { warn: (o: object) => void warnings.push(o) };

describe('email: Resend-compatible HTTP API', () => {
  const received: { auth?: string; type?: string; body: Record<string, unknown> }[] = [];
  let status = 200;
  let server: http.Server;
  let base = '';
  before(async () => {
    server = http.createServer((req, res) => {
      let raw = '';
      req.on('data', (c) => (raw += c));
      req.on('end', () => {
        if (req.method === 'POST' && req.url === '/emails') {
          received.push({ auth: req.headers.authorization, type: req.headers['content-type'], body: JSON.parse(raw) });
        }
        res.writeHead(req.url === '/emails' ? status : 404, { 'content-type': 'application/json' }).end('{"id":"e1"}');
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => new Promise<void>((r) => server.close(() => r())));

  const cfg = () =>
    loadConfig({
      SVC_RESEND_API_KEY: 're_test_secret',
      SVC_RESEND_BASE_URL: base,
      SVC_EMAIL_FROM: 'svc <noreply@svc.test>',
    }).email;

  it('posts {from,to,subject,text,html} with the bearer key and answers true', async () => {
    const mailer = createMailer(cfg(), log);
    const ok = await mailer.send({ to: 'a@example.com', subject: 'Hi', text: 'plain', html: '<p>x</p>' });
    assert.equal(ok, true);
    assert.deepEqual(received.at(-1), {
      auth: 'Bearer re_test_secret',
      type: 'application/json',
      body: { from: 'svc <noreply@svc.test>', to: 'a@example.com', subject: 'Hi', text: 'plain', html: '<p>x</p>' },
    });
  });

  it('answers false, without throwing or logging the key, when the provider refuses', async () => {
    status = 422;
    const ok = await createMailer(cfg(), log).send({ to: 'a@example.com', subject: 'Hi', text: 'plain' });
    status = 200;
    assert.equal(ok, false);
    assert.ok(!JSON.stringify(warnings).includes('re_test_secret'));
  });

  it('answers false when the provider is unreachable', async () => {
    const dead = loadConfig({ SVC_RESEND_API_KEY: 'k', SVC_RESEND_BASE_URL: 'http://127.0.0.1:1' }).email;
    assert.equal(await createMailer(dead, log).send({ to: 'a@example.com', subject: 'Hi', text: 'x' }), false);
  });
});

describe('email: SMTP', () => {
  const mails: { from?: string; to: string[]; data: string }[] = [];
  let reject = false;
  let smtp: SMTPServer;
  let port = 0;
  before(async () => {
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      onAuth: (auth, _s, cb) => cb(null, { user: auth.username }),
      onRcptTo: (_addr, _s, cb) => (reject ? cb(new Error('mailbox unavailable')) : cb()),
      onData: (stream, session, cb) => {
        let data = '';
        stream.on('data', (c) => (data += c));
        stream.on('end', () => {
          mails.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : undefined,
            to: session.envelope.rcptTo.map((r) => r.address),
            data,
          });
          cb();
        });
      },
    });
    await new Promise<void>((r) => smtp.listen(0, '127.0.0.1', r));
    port = (smtp.server.address() as AddressInfo).port;
  });
  after(() => new Promise<void>((r) => smtp.close(() => r())));

  it('delivers through the configured SMTP server', async () => {
    const cfg = loadConfig({
      SVC_SMTP_URL: `smtp://user:pw@127.0.0.1:${port}`,
      SVC_EMAIL_FROM: 'noreply@svc.test',
    }).email;
    const msg = waitlistConfirmation({ email: 'w@example.com', name: '<b>Eve</b>', position: 7 });
    assert.equal(await createMailer(cfg, log).send(msg), true);
    const got = mails.at(-1)!;
    assert.equal(got.from, 'noreply@svc.test');
    assert.deepEqual(got.to, ['w@example.com']);
    assert.match(got.data, /position 7/);
    assert.doesNotMatch(got.data, /Eve/, 'no requester-chosen text in mail to an unverified address');
  });

  it('answers false when the server refuses the recipient', async () => {
    reject = true;
    const cfg = loadConfig({ SVC_SMTP_URL: `smtp://127.0.0.1:${port}` }).email;
    assert.equal(await createMailer(cfg, log).send({ to: 'x@example.com', subject: 's', text: 't' }), false);
    reject = false;
  });
});

describe('email: messages', () => {
  it('sends nothing and answers false when no provider is configured', async () => {
    assert.equal(
      await createMailer(loadConfig({}).email, log).send({ to: 'a@example.com', subject: 's', text: 't' }),
      false,
    );
  });

  it('escapes every user value in HTML and keeps subjects on one line', () => {
    const msg = submissionAdminNotice('admin@svc.test', {
      id: 1,
      modelName: 'M\r\nBcc: victim@example.com',
      vendor: '<img src=x onerror=alert(1)>',
      apiEndpoint: 'https://x/?a=1&b="2"',
      contactEmail: 'c@example.com',
      notes: "it's <script>",
    });
    assert.ok(!/[\r\n]/.test(msg.subject));
    assert.ok(!msg.html!.includes('<img') && !msg.html!.includes('<script'));
    assert.match(msg.html!, /&lt;img src=x onerror=alert\(1\)&gt;/);
    assert.match(msg.html!, /a=1&amp;b=&quot;2&quot;/);
    assert.equal(escapeHtml(`<>&"'`), '&lt;&gt;&amp;&quot;&#39;');
  });

  it('keeps a user value from starting a line of its own in the plain-text part (no forged "Bcc:" row)', () => {
    const msg = submissionAdminNotice('admin@svc.test', {
      id: 1,
      modelName: 'M\r\nBcc: victim@example.com\rContact: forged@example.com',
      vendor: 'V',
      apiEndpoint: 'https://x.example/v1',
      contactEmail: 'c@example.com',
      notes: 'line one\nline two',
    });
    const lines = msg.text.split('\n');
    assert.deepEqual(
      lines.filter((l) => /^[A-Z][A-Za-z ()]*: /.test(l)).map((l) => l.split(':')[0]),
      ['Submission id', 'Model', 'Vendor', 'API endpoint', 'Contact', 'Notes'],
      msg.text,
    );
    assert.ok(lines.includes('  Bcc: victim@example.com'), 'continuation lines are indented, nothing is lost');
    assert.ok(lines.includes('  line two'));
    assert.ok(!msg.text.includes('\r'));
  });
});

describe('email abuse', () => {
  it('keeps requester text out of subjects and out of mail to the requester', () => {
    const spam = 'BUY CHEAP <a href="http://spam.example">pills</a>';
    const sub = {
      id: 42,
      modelName: spam,
      vendor: spam,
      apiEndpoint: 'https://x.example/v1',
      contactEmail: 'victim@example.com',
      notes: spam,
    };
    for (const m of [
      submissionConfirmation(sub),
      waitlistConfirmation({ email: 'v@example.com', name: spam, organization: spam, position: 3 }),
    ]) {
      assert.doesNotMatch(m.subject, /BUY|pills/);
      assert.doesNotMatch(m.text, /BUY|pills/);
      assert.doesNotMatch(m.html ?? '', /BUY|pills/);
    }
    assert.doesNotMatch(submissionAdminNotice('admin@svc.test', sub).subject, /BUY/);
    assert.doesNotMatch(
      waitlistAdminNotice('admin@svc.test', { email: 'BUY@spam.example', position: 3 }).subject,
      /BUY/,
    );
  });

  it('sends at most SVC_MAIL_PER_RECIPIENT_DAY messages to one address per UTC day; the admin is exempt', async () => {
    const sent: string[] = [];
    const warnings: string[] = [];
    let now = Date.UTC(2026, 10, 23, 12);
    const mailer = capPerRecipient({ send: async (m) => (sent.push(m.to), true) }, new MemoryStore(), {
      perDay: 3,
      exempt: 'admin@svc.test',
      now: () => now,
      log: { warn: (_o, m) => void warnings.push(m ?? '') },
    });
    const results = [];
    for (let i = 0; i < 5; i++)
      results.push(
        await mailer.send({ to: i % 2 ? 'Victim@Example.com' : 'victim@example.com', subject: 's', text: 't' }),
      );
    for (let i = 0; i < 5; i++) await mailer.send({ to: 'admin@svc.test', subject: 's', text: 't' });
    assert.deepEqual(results, [true, true, true, false, false]);
    assert.equal(sent.filter((t) => t === 'admin@svc.test').length, 5);
    assert.match(warnings[0]!, /mail cap reached/);
    now += 86_400_000;
    assert.equal(await mailer.send({ to: 'victim@example.com', subject: 's', text: 't' }), true, 'a new day');
  });
});
