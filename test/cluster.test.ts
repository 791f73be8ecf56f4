/**
 * SVC_WORKERS=2: two workers on one port; in-memory rate limits stay exact across them (the primary counts);
 * a worker that dies is replaced; SIGTERM drains and exits 0.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { after, it } from 'node:test';

const root = path.resolve(import.meta.dirname, '..');
const child = spawn(process.execPath, ['bin/svc.js', 'serve'], {
  cwd: root,
  env: { ...process.env, PORT: '0', HOST: '127.0.0.1', SVC_WORKERS: '2', SVC_STORE_URL: 'memory', LOG_LEVEL: 'info' },
  stdio: ['ignore', 'pipe', 'inherit'],
});
after(() => {
  if (child.exitCode === null) child.kill('SIGKILL');
});

let out = '';
child.stdout!.on('data', (c) => (out += c));

/** The first match of `re` in the output after `from`: checked on every chunk the child writes, not on a timer. */
async function waitFor(re: RegExp, from = 0): Promise<RegExpExecArray> {
  for (;;) {
    const m = re.exec(out.slice(from));
    if (m) return m;
    if (child.exitCode !== null) throw new Error(`no ${re} in:\n${out}`);
    await Promise.race([once(child.stdout!, 'data'), once(child, 'exit')]);
  }
}

it('shares caps across workers, replaces a dead worker and drains on SIGTERM', { timeout: 180_000 }, async () => {
  await waitFor(/"msg":"svc ready \(cluster\)"/);
  const base = (await waitFor(/Server listening at (http:\/\/127\.0\.0\.1:\d+)/))[1]!;
  await waitFor(/Server listening[^\n]*\n[\s\S]*Server listening/); // both workers, in whichever order
  const pids = new Set([...out.matchAll(/"pid":(\d+),[^\n]*"msg":"Server listening/g)].map((m) => Number(m[1])));
  assert.equal(pids.size, 2, 'two workers listen');
  const body = JSON.stringify({
    model_name: 'M',
    vendor: 'V',
    api_endpoint: 'https://example.com/v1',
    contact_email: 'a@example.com',
  });
  const statuses = await Promise.all(
    Array.from({ length: 40 }, () =>
      fetch(`${base}/api/submit`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', connection: 'close' },
        body,
      }).then((r) => r.status),
    ),
  );
  assert.equal(statuses.filter((s) => s === 429).length, 35, `5 of 40 admitted by both workers together: ${statuses}`);
  // request lines are written in batches (src/logging.ts: 16 KB or 250 ms), so wait for both workers' lines
  const servedBy = (): Set<number> =>
    new Set([...out.matchAll(/"pid":(\d+),[^\n]*"route":"\/api\/submit"/g)].map((m) => Number(m[1])));
  for (let i = 0; i < 40 && servedBy().size < 2; i++) await new Promise((r) => setTimeout(r, 50));
  assert.equal(servedBy().size, 2, 'both workers served submits');

  const victim = [...pids][0]!;
  const mark = out.length;
  process.kill(victim, 'SIGKILL');
  await waitFor(/"msg":"worker died; starting a replacement"/, mark);
  await waitFor(/"msg":"Server listening at/, mark);
  assert.equal((await fetch(`${base}/healthz`)).status, 200);

  child.kill('SIGTERM');
  const [code] = await once(child, 'exit');
  assert.equal(code, 0);
});
