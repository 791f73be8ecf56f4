/**
 * Start-up as an operator meets it: a fixable mistake prints one line and exits non-zero (no stack trace); the
 * bundled reports are certified even when the store was unreachable at first, and /healthz is not ready until
 * then; an audit log that shrank under a running process is a clear error and /healthz fails.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { execFile } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { describe, it } from 'node:test';
import { promisify } from 'node:util';
import Database from 'better-sqlite3';
import { AuditLog } from '../src/audit/log.ts';
import { ConfigError, loadConfig } from '../src/config.ts';
import { sealReport } from '../src/domain/reports.ts';
import { Readiness, certifyWithRetry } from '../src/startup.ts';
import { SqliteStore } from '../src/store/index.ts';
import { makeApp, silentLog, tmpDir } from './helpers.ts';

const root = path.resolve(import.meta.dirname, '..');
const run = promisify(execFile);

async function serveFails(
  env: Record<string, string>,
  timeout = 90_000,
): Promise<{ code: number; stderr: string; stdout: string }> {
  const dir = tmpDir('svc-start-');
  try {
    await run(process.execPath, ['bin/svc.js', 'serve'], {
      cwd: root,
      timeout,
      env: {
        PATH: process.env.PATH,
        HOST: '127.0.0.1',
        PORT: '0',
        LOG_LEVEL: 'warn',
        SVC_STORE_URL: `sqlite:${path.join(dir, 'svc.db')}`,
        ...env,
      },
    });
    throw new Error('svc serve started although it should have refused');
  } catch (err) {
    const e = err as { code?: number; stderr?: string; stdout?: string };
    if (typeof e.code !== 'number') throw err;
    return { code: e.code, stderr: e.stderr ?? '', stdout: e.stdout ?? '' };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

function assertOneLine(r: { code: number; stderr: string }, pattern: RegExp) {
  assert.notEqual(r.code, 0);
  const lines = r.stderr.trim().split('\n');
  assert.equal(lines.length, 1, `one line, got:\n${r.stderr}`);
  assert.match(lines[0]!, /^svc: /);
  assert.match(lines[0]!, pattern);
  assert.doesNotMatch(r.stderr, /\n\s+at /, 'no stack trace');
}

describe('start-up errors are one clear line', () => {
  it('a port in use', async () => {
    const blocker = net.createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', r));
    const port = (blocker.address() as net.AddressInfo).port;
    try {
      assertOneLine(await serveFails({ PORT: String(port) }), new RegExp(`port ${port} .*already in use`));
    } finally {
      blocker.close();
    }
  });

  it('a metrics port in use names SVC_METRICS_PORT, not PORT', async () => {
    const blocker = net.createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', r));
    const port = (blocker.address() as net.AddressInfo).port;
    try {
      const r = await serveFails({ SVC_METRICS_PORT: String(port), SVC_EVAL_WORKER: 'false' });
      assertOneLine(r, new RegExp(`port ${port} .*already in use \\(set SVC_METRICS_PORT to a free port`));
    } finally {
      blocker.close();
    }
  });

  it('a Redis that does not answer: named (without credentials), not mistaken for one that refuses CONFIG', async () => {
    const closed = net.createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as net.AddressInfo).port;
    await new Promise<void>((r) => closed.close(() => r()));
    for (const durability of ['warn', 'require']) {
      const r = await serveFails({
        SVC_STORE_URL: `redis://user:s3cret@127.0.0.1:${port}/3`,
        SVC_REDIS_DURABILITY: durability,
      });
      assertOneLine(r, new RegExp(`SVC_STORE_URL=redis://127\\.0\\.0\\.1:${port}/3 did not answer`));
      assert.doesNotMatch(r.stderr + r.stdout, /s3cret/);
      assert.doesNotMatch(r.stderr + r.stdout, /persistence could not be checked|CONFIG GET refused/);
    }
  });

  it('an SQLite path whose folder cannot be created: one line naming SVC_STORE_URL, no hang', async () => {
    // Node 20's recursive mkdirSync loops for ever under /proc (ENOENT from a parent that exists).
    const started = Date.now();
    const r = await serveFails({ SVC_STORE_URL: 'sqlite:/proc/x/y.db', SVC_EVAL_WORKER: 'false' }, 30_000);
    assertOneLine(r, /cannot open the store SVC_STORE_URL=sqlite:\/proc\/x\/y\.db: cannot create the folder \/proc\/x/);
    assert.ok(Date.now() - started < 30_000, 'refused promptly');
    assert.equal(r.code, 1);
    const file = path.join(tmpDir('svc-start-'), 'a-file');
    fs.writeFileSync(file, '');
    assertOneLine(
      await serveFails({ SVC_STORE_URL: `sqlite:${file}/sub/y.db`, SVC_EVAL_WORKER: 'false' }),
      /cannot open the store SVC_STORE_URL=sqlite:.*a-file\/sub\/y\.db: cannot create the folder/,
    );
  });

  it('a missing SVC_DATASET', async () => {
    assertOneLine(await serveFails({ SVC_DATASET: '/nonexistent/leaderboard.json' }), /SVC_DATASET=.* does not exist/);
  });

  it('a HOST that is not an address of this machine, or does not resolve', async () => {
    assertOneLine(await serveFails({ HOST: '203.0.113.254' }), /HOST=203\.0\.113\.254 is not an address/);
    assertOneLine(await serveFails({ HOST: 'no-such-host.invalid' }), /HOST=no-such-host\.invalid/);
  });

  it('an SVC_SIGNING_KEY that is not an Ed25519 private key, without echoing it', async () => {
    const r = await serveFails({ SVC_SIGNING_KEY: 'not-a-key-secret-value' });
    assertOneLine(r, /SVC_SIGNING_KEY/);
    assert.equal(r.code, 2);
    assert.doesNotMatch(r.stderr, /secret-value/);
  });
});

describe('every documented setting refuses a bad value, naming the variable', () => {
  // README, Configuration: "a bad value stops start-up with a message naming the variable".
  for (const [env, pattern] of [
    // Checked even while no model is configured: a typo is found when it is made, not when SVC_LLM_URL is set.
    [{ SVC_LLM_TIMEOUT_MS: 'abc' }, /^SVC_LLM_TIMEOUT_MS must be an integer from 1000 to 600000$/],
    [{ SVC_LLM_CONCURRENCY: '0' }, /^SVC_LLM_CONCURRENCY must be an integer from 1 to 64$/],
    // integers in decimal digits: Number() read PORT=0x50 as 80 and SVC_BODY_LIMIT=1e6 as 1000000
    [{ PORT: '0x50' }, /^PORT must be an integer from 0 to 65535$/],
    [{ SVC_BODY_LIMIT: '1e6' }, /^SVC_BODY_LIMIT must be an integer/],
    [{ SVC_WORKERS: '2.0' }, /^SVC_WORKERS must be an integer/],
    [{ SVC_LOG_SAMPLE: '0x1' }, /^SVC_LOG_SAMPLE must be a number from 0 to 1$/],
    // Addresses mail is sent to or from: a value that is not one would fail every send, silently (email_sent: false).
    [{ SVC_ADMIN_EMAIL: 'nope' }, /^SVC_ADMIN_EMAIL must be an email address/],
    [{ SVC_ADMIN_EMAIL: 'a@b.example, c@d.example' }, /^SVC_ADMIN_EMAIL must be an email address/],
    [{ SVC_EMAIL_FROM: 'svc noreply' }, /^SVC_EMAIL_FROM must be an email address or "Name <address>"/],
    [{ SVC_EMAIL_FROM: 'svc <noreply@x.example>\r\nBcc: a@b.example' }, /^SVC_EMAIL_FROM must be/],
    // Base URLs that paths are appended to: a query or fragment made links such as https://x.example?a=1/report/…
    [{ SVC_PUBLIC_URL: 'https://x.example?a=1' }, /^SVC_PUBLIC_URL must be an http\(s\) URL without \? or #/],
    [{ SVC_PUBLIC_URL: 'https://x.example/#top' }, /^SVC_PUBLIC_URL must be an http\(s\) URL without \? or #/],
    [{ SVC_LLM_URL: 'http://127.0.0.1:11434/v1?x', SVC_LLM_MODEL: 'm' }, /^SVC_LLM_URL must be an http\(s\) URL/],
  ] as const) {
    it(JSON.stringify(env), () => {
      assert.throws(
        () => loadConfig(env),
        (err) => err instanceof ConfigError && pattern.test(err.message),
      );
    });
  }

  it('keeps accepting the documented forms', () => {
    for (const from of ['svc <noreply@localhost>', 'noreply@svc.test', '"svc bot" <noreply@svc.test>'])
      assert.equal(loadConfig({ SVC_EMAIL_FROM: from }).email.from, from);
    assert.equal(loadConfig({ SVC_ADMIN_EMAIL: 'admin@svc.test' }).email.admin, 'admin@svc.test');
    assert.equal(loadConfig({ SVC_LLM_TIMEOUT_MS: '5000' }).llm, undefined);
    assert.equal(loadConfig({ SVC_PUBLIC_URL: 'https://x.example/svc/' }).publicUrl, 'https://x.example/svc');
    assert.equal(loadConfig({ PORT: ' 8080 ' }).port, 8080, 'spaces around a value (an .env file) are fine');
    assert.equal(loadConfig({ SVC_LOG_SAMPLE: '.25' }).logSample, 0.25);
  });
});

describe('certification of the bundled reports', () => {
  it('is retried until the store answers, and /healthz is not ready until then', async () => {
    const dir = tmpDir('svc-cert-');
    const reports = path.join(dir, 'reports');
    fs.mkdirSync(reports);
    const sealed = sealReport({ schema: 'svc.report/1', model: { slug: 'm', name: 'M', vendor: 'V' }, n: 1 } as never);
    fs.writeFileSync(path.join(reports, `${sealed.hash}.json`), sealed.json);
    const store = new SqliteStore(':memory:');
    let failures = 3;
    const realAppend = store.appendLeaves.bind(store);
    store.appendLeaves = async (leaves) => {
      if (failures-- > 0) throw new Error('store unreachable');
      return realAppend(leaves);
    };
    const readiness = new Readiness();
    const t = await makeApp({ store, readiness });
    const app = t.app;
    const audit = new AuditLog(store);
    await certifyWithRetry(store, reports, audit, silentLog, readiness, { firstDelayMs: 20, maxDelayMs: 40 });
    const before = await app.inject('/healthz');
    assert.equal(before.statusCode, 503);
    assert.equal(before.json().code, 'not_ready');
    assert.match(before.json().error, /not certified/);
    for (let i = 0; i < 100 && readiness.reason() !== null; i++) await new Promise((r) => setTimeout(r, 20));
    assert.equal(readiness.reason(), null, 'certified after the store came back');
    assert.equal((await app.inject('/healthz')).statusCode, 200);
    assert.equal((await audit.check(sealed.hash)).ok, true);
    await t.close();
  });
});

describe('an audit log that shrank', () => {
  it('is a clear error, and /healthz fails', async () => {
    const dir = tmpDir('svc-shrink-');
    const file = path.join(dir, 'svc.db');
    const store = new SqliteStore(file);
    const t = await makeApp({ store, env: { SVC_STORE_URL: `sqlite:${file}` } });
    const { AuditLog } = await import('../src/audit/log.ts');
    await new AuditLog(store).append(['a'.repeat(64), 'b'.repeat(64)]);
    assert.equal((await t.app.inject('/api/log/checkpoint')).statusCode, 200);
    assert.equal((await t.app.inject('/healthz')).statusCode, 200);
    const other = new Database(file);
    other.exec('DELETE FROM log_leaves; DELETE FROM checkpoints;');
    other.close();
    const health = await t.app.inject('/healthz');
    assert.equal(health.statusCode, 503);
    assert.match(health.json().error, /audit log .*fewer than the 2/);
    const cp = await t.app.inject('/api/log/checkpoint');
    assert.equal(cp.statusCode, 500);
    assert.equal(cp.json().code, 'audit_log_corrupt');
    assert.match(cp.json().error, /store was wiped or replaced/);
    await t.close();
  });
});
