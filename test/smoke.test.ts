/** One smoke test on a real port: `svc serve` as a user starts it, spoken to over HTTP. */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { after, it } from 'node:test';
import { tmpDir } from './helpers.ts';

const root = path.resolve(import.meta.dirname, '..');
const dir = tmpDir('svc-smoke-');
const child = spawn(process.execPath, ['bin/svc.js', 'serve'], {
  cwd: root,
  env: {
    ...process.env,
    PORT: '0',
    HOST: '127.0.0.1',
    SVC_STORE_URL: `sqlite:${path.join(dir, 'svc.db')}`,
    LOG_LEVEL: 'info',
  },
  stdio: ['ignore', 'pipe', 'pipe'],
});
after(() => {
  if (child.exitCode === null) child.kill('SIGKILL');
});

async function address(): Promise<string> {
  let out = '';
  for await (const chunk of child.stdout!) {
    out += chunk;
    const m = /"msg":"Server listening at (http:\/\/127\.0\.0\.1:\d+)"/.exec(out);
    if (m) return m[1]!;
  }
  throw new Error(`server exited before listening: ${out}`);
}

it('serves the read API on a real port and shuts down cleanly on SIGTERM', { timeout: 60_000 }, async () => {
  const base = await address();
  const health = await fetch(`${base}/healthz`);
  assert.equal(health.status, 200);
  assert.equal((await health.json()).kv, true);
  const lb = await fetch(`${base}/api/leaderboard`);
  assert.equal(lb.status, 200);
  const body = await lb.json();
  assert.ok(body.sycophancy.length > 0);
  const slug = body.sycophancy[0].slug;
  assert.equal((await fetch(`${base}/api/model?slug=${slug}`)).status, 200);
  const badge = await fetch(`${base}/api/badge/${slug}`);
  assert.equal(badge.status, 200);
  assert.match(badge.headers.get('content-type') ?? '', /svg/);
  child.kill('SIGTERM');
  const [code] = await once(child, 'exit');
  assert.equal(code, 0);
});
