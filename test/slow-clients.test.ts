/**
 * Slow clients cannot exhaust connections: a service limited to 256 file descriptors (ulimit -n 256), 240
 * connections that send headers and a few body bytes and then stall; the request timeout answers them 408 and
 * closes them, and /healthz answers again. Before the request timeout existed, /healthz stayed unreachable.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { after, it } from 'node:test';
import { tmpDir } from './helpers.ts';

const root = path.resolve(import.meta.dirname, '..');
const dir = tmpDir('svc-slow-');
const child = spawn('sh', ['-c', `ulimit -n 256 && exec "${process.execPath}" bin/svc.js serve`], {
  cwd: root,
  env: {
    ...process.env,
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'info',
    SVC_LOG_SAMPLE: '0',
    SVC_STORE_URL: `sqlite:${path.join(dir, 'svc.db')}`,
    SVC_REQUEST_TIMEOUT_MS: '3000',
    SVC_HEADERS_TIMEOUT_MS: '2000',
  },
  stdio: ['ignore', 'pipe', 'inherit'],
});
after(() => {
  if (child.exitCode === null) child.kill('SIGKILL');
});

async function address(): Promise<{ host: string; port: number }> {
  let out = '';
  for await (const chunk of child.stdout!) {
    out += chunk;
    const m = /"msg":"Server listening at http:\/\/(127\.0\.0\.1):(\d+)"/.exec(out);
    if (m) {
      child.stdout!.resume();
      return { host: m[1]!, port: Number(m[2]) };
    }
  }
  throw new Error(`server exited before listening: ${out}`);
}

it('stalled bodies are answered 408 and closed, and /healthz answers again', { timeout: 60_000 }, async () => {
  const { host, port } = await address();
  const sockets: net.Socket[] = [];
  const answers: string[] = [];
  for (let i = 0; i < 240; i++) {
    const s = net.connect(port, host);
    s.on('error', () => {});
    s.on('data', (d) => answers.push(d.toString()));
    s.write(
      'POST /api/score HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"pro',
    );
    sockets.push(s);
  }
  await new Promise((r) => setTimeout(r, 500));
  const started = Date.now();
  let status = 0;
  while (Date.now() - started < 20_000) {
    try {
      const r = await fetch(`http://${host}:${port}/healthz`, { signal: AbortSignal.timeout(2000) });
      status = r.status;
      if (status === 200) break;
    } catch {
      // not accepted yet: every descriptor is held by a stalled client
    }
  }
  for (const s of sockets) s.destroy();
  assert.equal(status, 200, '/healthz answered within 20 s');
  assert.ok(
    answers.some((a) => a.startsWith('HTTP/1.1 408')),
    'stalled requests got 408',
  );
  assert.ok(answers.some((a) => a.includes('"code":"request_timeout"')));
});
