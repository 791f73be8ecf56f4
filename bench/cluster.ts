/**
 * `npm run bench:cluster`: `svc serve` with SVC_WORKERS=2 (default settings otherwise: logs at info, SQLite)
 * against nginx with 2 worker processes serving the same leaderboard bytes from a file, side by side in one run,
 * with wrk (50 connections, BENCH_SECONDS each, default 10). Target: svc at 70% or more of nginx.
 * Needs nginx and wrk (apt-get install -y nginx wrk); nginx runs on a loopback port with a temporary config and is
 * stopped at the end.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const root = path.resolve(import.meta.dirname, '..');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-bench-cluster-'));
fs.chmodSync(dir, 0o755); // nginx workers run as an unprivileged user and must read the file

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

function wrk(url: string): { rps: number; p99: string; line: string } {
  const out = execFileSync('wrk', ['-t2', '-c50', `-d${seconds}s`, '--latency', url], { encoding: 'utf8' });
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? 0);
  const p99 = /\s99%\s+([\d.]+\w+)/.exec(out)?.[1] ?? '?';
  const non2xx = /Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1];
  return { rps, p99, line: non2xx ? ` (non-2xx ${non2xx})` : '' };
}

async function waitFor(url: string): Promise<void> {
  for (let i = 0; i < 600; i++) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {}
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${url} did not answer`);
}

const svcPort = await freePort();
const svc: ChildProcess = spawn(process.execPath, ['bin/svc.js', 'serve'], {
  cwd: root,
  env: {
    ...process.env,
    PORT: String(svcPort),
    HOST: '127.0.0.1',
    SVC_WORKERS: '2',
    SVC_STORE_URL: `sqlite:${path.join(dir, 'svc.db')}`,
  },
  stdio: ['ignore', fs.openSync(path.join(dir, 'svc.log'), 'w'), 'inherit'],
});
let nginx: ChildProcess | undefined;
try {
  await waitFor(`http://127.0.0.1:${svcPort}/healthz`);
  const body = await (await fetch(`http://127.0.0.1:${svcPort}/api/leaderboard`)).text();
  fs.mkdirSync(path.join(dir, 'www'));
  fs.writeFileSync(path.join(dir, 'www', 'leaderboard.json'), body);
  const ngPort = await freePort();
  fs.writeFileSync(
    path.join(dir, 'nginx.conf'),
    `worker_processes 2;
daemon off;
pid ${dir}/nginx.pid;
error_log ${dir}/nginx-error.log;
events { worker_connections 1024; }
http {
  access_log off;
  default_type application/json;
  server { listen 127.0.0.1:${ngPort}; root ${dir}/www; location / { } }
}
`,
  );
  nginx = spawn('nginx', ['-c', path.join(dir, 'nginx.conf'), '-p', dir], { stdio: 'inherit' });
  await waitFor(`http://127.0.0.1:${ngPort}/leaderboard.json`);
  const svcUrl = `http://127.0.0.1:${svcPort}/api/leaderboard`;
  const ngUrl = `http://127.0.0.1:${ngPort}/leaderboard.json`;
  wrk(svcUrl.replace('leaderboard', 'leaderboard?warm=1')); // warm-up, not measured
  console.log(
    `cluster benchmark: wrk 50 connections, ${seconds} s each, ${os.availableParallelism()} cores, node ${process.version}`,
  );
  console.log('what                                 req/s     p99');
  const rows: [string, ReturnType<typeof wrk>][] = [];
  for (const [name, url] of [
    ['svc SVC_WORKERS=2  /api/leaderboard', svcUrl],
    ['nginx 2 workers    same bytes', ngUrl],
    ['svc SVC_WORKERS=2  (second run)', svcUrl],
    ['nginx 2 workers    (second run)', ngUrl],
  ] as const) {
    const r = wrk(url);
    rows.push([name, r]);
    console.log(`${name.padEnd(36)} ${r.rps.toFixed(0).padStart(7)} ${r.p99.padStart(7)}${r.line}`);
  }
  const s = (rows[0]![1].rps + rows[2]![1].rps) / 2;
  const n = (rows[1]![1].rps + rows[3]![1].rps) / 2;
  console.log(`svc / nginx: ${((s / n) * 100).toFixed(0)}% (target >= 70%)`);
} finally {
  nginx?.kill('SIGQUIT');
  svc.kill('SIGTERM');
  await new Promise((r) => setTimeout(r, 1500));
  fs.rmSync(dir, { recursive: true, force: true });
}
