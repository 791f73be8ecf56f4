/**
 * `npm run bench:cluster`: `svc serve` with SVC_WORKERS=2 (default settings otherwise: logs at info, SQLite)
 * against nginx with 2 worker processes serving the same leaderboard bytes from a file, side by side in one run,
 * with wrk (50 connections, BENCH_SECONDS each, default 10). Target: svc at 70% or more of nginx.
 * Beside them, node:http itself with 2 cluster workers answering the same bytes and nothing else
 * (bench/bare-cluster.ts): the ceiling for any Node service on this machine. BENCH_ROUNDS rounds (default 3) of the
 * three in turn; the medians and their ratios are printed, with each server's CPU time per request (all its
 * processes, from /proc), which moves less with the neighbours' load than req/s.
 * Needs nginx and wrk (apt-get install -y nginx wrk); nginx runs on a loopback port with a temporary config and is
 * stopped at the end.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
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

/** user + system CPU seconds of a process and all its descendants so far (Linux /proc). */
function treeCpu(pid: number): number {
  try {
    const f = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    const own = (Number(f[11]) + Number(f[12])) / 100;
    const kids = fs
      .readdirSync(`/proc/${pid}/task`)
      .flatMap((t) => fs.readFileSync(`/proc/${pid}/task/${t}/children`, 'utf8').trim().split(/\s+/).filter(Boolean));
    return own + kids.reduce((a, k) => a + treeCpu(Number(k)), 0);
  } catch {
    return 0;
  }
}

function wrk(url: string, pid?: number): { rps: number; p99: string; us: number; line: string } {
  const before = pid === undefined ? 0 : treeCpu(pid);
  const out = execFileSync('wrk', ['-t2', '-c50', `-d${seconds}s`, '--latency', url], { encoding: 'utf8' });
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? 0);
  const total = Number(/(\d+) requests in/.exec(out)?.[1] ?? 0);
  const us = pid === undefined ? Number.NaN : ((treeCpu(pid) - before) * 1e6) / Math.max(1, total);
  const p99 = /\s99%\s+([\d.]+\w+)/.exec(out)?.[1] ?? '?';
  const non2xx = /Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1];
  return { rps, p99, us, line: non2xx ? ` (non-2xx ${non2xx})` : '' };
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
let bare: ChildProcess | undefined;
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
  const barePort = await freePort();
  bare = spawn(
    process.execPath,
    ['--import', 'tsx', 'bench/bare-cluster.ts', path.join(dir, 'www', 'leaderboard.json'), String(barePort)],
    { cwd: root, stdio: 'inherit' },
  );
  const bareUrl = `http://127.0.0.1:${barePort}/leaderboard.json`;
  await waitFor(bareUrl);
  const svcUrl = `http://127.0.0.1:${svcPort}/api/leaderboard`;
  const ngUrl = `http://127.0.0.1:${ngPort}/leaderboard.json`;
  wrk(svcUrl.replace('leaderboard', 'leaderboard?warm=1')); // warm-up, not measured
  wrk(bareUrl);
  console.log(
    `cluster benchmark: wrk -t2, 50 connections, ${rounds} rounds of ${seconds} s each, ${os.availableParallelism()} cores, node ${process.version}`,
  );
  console.log('what                                  req/s      p99  server CPU µs/req');
  const servers = [
    ['svc SVC_WORKERS=2  /api/leaderboard', svcUrl, svc.pid!],
    ['node:http, 2 workers, same bytes', bareUrl, bare.pid!],
    ['nginx 2 workers    same bytes', ngUrl, nginx.pid!],
  ] as const;
  const runs: ReturnType<typeof wrk>[][] = servers.map(() => []);
  for (let i = 0; i < rounds; i++) {
    servers.forEach(([name, url, pid], j) => {
      const r = wrk(url, pid);
      runs[j]!.push(r);
      console.log(
        `${name.padEnd(36)} ${r.rps.toFixed(0).padStart(7)} ${r.p99.padStart(8)} ${r.us.toFixed(1).padStart(18)}${r.line}`,
      );
    });
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const [s, b, n] = runs.map((rs) => median(rs.map((r) => r.rps)));
  const [su, bu, nu] = runs.map((rs) => median(rs.map((r) => r.us)));
  console.log(
    `medians: svc ${s!.toFixed(0)}, node:http ${b!.toFixed(0)}, nginx ${n!.toFixed(0)} req/s; CPU ${su!.toFixed(1)} / ${bu!.toFixed(1)} / ${nu!.toFixed(1)} µs per request`,
  );
  console.log(
    `svc / nginx: ${((s! / n!) * 100).toFixed(0)}% (target >= 70%); svc / node:http ${((s! / b!) * 100).toFixed(0)}%; node:http / nginx ${((b! / n!) * 100).toFixed(0)}%`,
  );
} finally {
  nginx?.kill('SIGQUIT');
  bare?.kill('SIGTERM');
  svc.kill('SIGTERM');
  await new Promise((r) => setTimeout(r, 1500));
  fs.rmSync(dir, { recursive: true, force: true });
}
