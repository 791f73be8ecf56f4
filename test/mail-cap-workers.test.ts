/**
 * SVC_MAIL_PER_RECIPIENT_DAY across SVC_WORKERS=2 without a store (SVC_STORE_URL=memory): the in-memory count is
 * the primary's, as the rate limits' are, so two workers together send one address at most the cap (each used to
 * count in its own memory, which let n workers send n times the cap).
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { after, it } from 'node:test';

const root = path.resolve(import.meta.dirname, '..');

it('two workers send one address at most SVC_MAIL_PER_RECIPIENT_DAY messages', { timeout: 180_000 }, async () => {
  // a Resend-compatible provider that records every recipient
  const to: string[] = [];
  const provider = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      to.push(String(JSON.parse(body).to));
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"id":"x"}');
    });
  });
  provider.listen(0, '127.0.0.1');
  await once(provider, 'listening');
  const child = spawn(process.execPath, ['bin/svc.js', 'serve'], {
    cwd: root,
    env: {
      PATH: process.env.PATH ?? '',
      PORT: '0',
      HOST: '127.0.0.1',
      SVC_WORKERS: '2',
      SVC_STORE_URL: 'memory',
      LOG_LEVEL: 'info',
      SVC_DATASET: path.join(root, 'dataset/leaderboard.json'),
      SVC_RESEND_API_KEY: 're_test',
      SVC_RESEND_BASE_URL: `http://127.0.0.1:${(provider.address() as AddressInfo).port}`,
      SVC_MAIL_PER_RECIPIENT_DAY: '2',
      // one client address per request, so the submit form's per-IP cap (5) is not what stops the mail
      SVC_TRUST_PROXY: 'x-forwarded-for:1',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  after(() => {
    if (child.exitCode === null) child.kill('SIGKILL');
    provider.close();
  });
  let out = '';
  child.stdout!.on('data', (c) => (out += c));
  const waitFor = async (re: RegExp): Promise<RegExpExecArray> => {
    for (;;) {
      const m = re.exec(out);
      if (m) return m;
      if (child.exitCode !== null) throw new Error(`no ${re} in:\n${out}`);
      await Promise.race([once(child.stdout!, 'data'), once(child, 'exit')]);
    }
  };
  await waitFor(/"msg":"svc ready \(cluster\)"/);
  const base = (await waitFor(/Server listening at (http:\/\/127\.0\.0\.1:\d+)/))[1]!;
  await waitFor(/Server listening[^\n]*\n[\s\S]*Server listening/); // both workers
  const body = JSON.stringify({
    model_name: 'M',
    vendor: 'V',
    api_endpoint: 'https://example.com/v1',
    contact_email: 'capped@example.com',
  });
  const statuses = await Promise.all(
    Array.from({ length: 12 }, (_, i) =>
      fetch(`${base}/api/submit`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', connection: 'close', 'x-forwarded-for': `203.0.113.${i + 1}` },
        body,
      }).then((r) => r.status),
    ),
  );
  assert.deepEqual(statuses, Array(12).fill(200), 'every submission is received');
  const servedBy = new Set([...out.matchAll(/"pid":(\d+),[^\n]*"route":"\/api\/submit"/g)].map((m) => Number(m[1])));
  for (let i = 0; i < 40 && servedBy.size < 2; i++) {
    await new Promise((r) => setTimeout(r, 50));
    for (const m of out.matchAll(/"pid":(\d+),[^\n]*"route":"\/api\/submit"/g)) servedBy.add(Number(m[1]));
  }
  assert.equal(servedBy.size, 2, 'both workers served submissions');
  assert.equal(to.filter((a) => a === 'capped@example.com').length, 2, `messages sent: ${to.join(' ')}`);
  child.kill('SIGTERM');
  await once(child, 'exit');
});
