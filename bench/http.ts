/**
 * `npm run bench`: req/s and p99 latency at 50 connections for the leaderboard page (/) and the read endpoints, each beside a bare
 * Fastify route that returns the same bytes (target: >= 80% of the bare route's req/s, p99 < 10 ms), and
 * POST /api/score with a ~2 KB response, keyless (the free tier: mostly 429s past the hourly cap, so it measures
 * the limiter's refusal path) and keyed (scoring).
 *
 * Server and load generator run in separate processes. The load generator is wrk (one thread) when it is on the PATH
 * (`apt-get install -y wrk`), else autocannon, which needs most of a core itself. On a shared machine a run's req/s
 * moves with the neighbours' load, so each endpoint runs BENCH_ROUNDS rounds (default 3), svc and bare alternating,
 * and the ratio is of the medians. The server's own CPU time per answered request (user + system, read from
 * /proc) is printed beside it: it hardly depends on the load generator or the neighbours, and its ratio is the
 * steadier figure of what the service's per-request work costs. BENCH_SECONDS sets each run's length (default 5);
 * BENCH_ONLY=leaderboard,model runs only those endpoints (home, leaderboard, model, badge, score).
 */
import autocannon from 'autocannon';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { createInterface } from 'node:readline';

const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const connections = 50;
const hasWrk = (() => {
  try {
    execFileSync('wrk', ['--version'], { stdio: 'ignore' });
    return true;
  } catch (err) {
    return (err as { status?: number }).status === 1; // wrk --version exits 1 after printing its version
  }
})();

async function start(
  mode: 'app' | 'bare',
  stdin?: string,
  env: Record<string, string> = {},
): Promise<{ url: string; key?: string; child: ChildProcess }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/fixture-server.ts', mode], {
    stdio: ['pipe', 'pipe', 'inherit'],
    env: { ...process.env, ...env },
  });
  child.stdin!.end(stdin ?? '');
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`${mode} server exited with ${code}`)));
  });
  return { ...(JSON.parse(line) as { url: string; key?: string }), child };
}

/** user + system CPU seconds of a process so far (Linux /proc; 0 elsewhere). */
function cpuSeconds(pid: number): number {
  try {
    const f = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(f[11]) + Number(f[12])) / 100; // utime, stime in clock ticks (100 Hz)
  } catch {
    return 0;
  }
}

interface Run {
  rps: number;
  p99: number;
  bad: number;
  cpuUs: number;
}

function wrk(url: string, duration: number): { rps: number; p99: number; bad: number; total: number } {
  const out = execFileSync('wrk', ['-t1', `-c${connections}`, `-d${duration}s`, '--latency', url], {
    encoding: 'utf8',
  });
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? 0);
  const total = Number(/(\d+) requests in/.exec(out)?.[1] ?? 0);
  const m = /\s99%\s+([\d.]+)(us|ms|s)/.exec(out);
  const p99 = m ? Number(m[1]) * (m[2] === 'us' ? 0.001 : m[2] === 's' ? 1000 : 1) : Number.NaN;
  const bad =
    Number(/Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1] ?? 0) +
    Number(
      /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/
        .exec(out)
        ?.slice(1)
        .reduce((a, b) => a + Number(b), 0) ?? 0,
    );
  return { rps, p99, bad, total };
}

async function load(
  pid: number,
  url: string,
  opts: Partial<autocannon.Options> = {},
  duration = seconds,
): Promise<Run> {
  const before = cpuSeconds(pid);
  if (hasWrk && !opts.method) {
    const r = wrk(url, duration);
    return { rps: r.rps, p99: r.p99, bad: r.bad, cpuUs: ((cpuSeconds(pid) - before) * 1e6) / Math.max(1, r.total) };
  }
  const r = await autocannon({ url, connections, duration, pipelining: 1, ...opts });
  return {
    rps: r.requests.average,
    p99: r.latency.p99,
    bad: r.errors + r.non2xx,
    cpuUs: ((cpuSeconds(pid) - before) * 1e6) / Math.max(1, r.requests.total),
  };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const app = await start('app');
const lb = await fetch(`${app.url}/api/leaderboard`);
const lbBody = await lb.text();
const slug = (JSON.parse(lbBody) as { sycophancy: { slug: string }[] }).sycophancy[0]!.slug;
const only = process.env.BENCH_ONLY?.split(',');
const targets = Object.fromEntries(
  Object.entries({
    home: `/`, // the leaderboard page
    leaderboard: `/api/leaderboard`,
    model: `/api/model?slug=${slug}`,
    badge: `/api/badge/${slug}`,
  }).filter(([name]) => !only || only.includes(name)),
);
const bodies: Record<string, { type: string; body: string }> = {};
for (const [name, path] of Object.entries(targets)) {
  const r = await fetch(app.url + path);
  bodies[name] = { type: r.headers.get('content-type')!, body: await r.text() };
}
const bare = await start('bare', JSON.stringify(bodies));
const appPid = app.child.pid!;
const barePid = bare.child.pid!;

console.log(
  `HTTP benchmark: ${hasWrk ? 'wrk -t1' : 'autocannon'}, ${connections} connections, ${rounds} rounds of ${seconds} s per side (svc and bare alternating), node ${process.version}`,
);
console.log('endpoint      req/s (svc)  p99 ms  µs/req | req/s (bare)  p99 ms  µs/req | req/s svc/bare | CPU bare/svc');
for (const [name, path] of Object.entries(targets)) {
  await load(appPid, app.url + path, {}, 1); // warm-up: JIT and caches, not measured
  await load(barePid, `${bare.url}/bare/${name}`, {}, 1);
  const s: Run[] = [];
  const b: Run[] = [];
  for (let i = 0; i < rounds; i++) {
    s.push(await load(appPid, app.url + path));
    b.push(await load(barePid, `${bare.url}/bare/${name}`));
  }
  const [sr, br] = [median(s.map((r) => r.rps)), median(b.map((r) => r.rps))];
  const [sc, bc] = [median(s.map((r) => r.cpuUs)), median(b.map((r) => r.cpuUs))];
  const bad = s.reduce((a, r) => a + r.bad, 0);
  console.log(
    `${name.padEnd(12)}  ${sr.toFixed(0).padStart(10)}  ${median(s.map((r) => r.p99))
      .toFixed(1)
      .padStart(6)}  ${sc.toFixed(0).padStart(6)} | ${br.toFixed(0).padStart(12)}  ${median(b.map((r) => r.p99))
      .toFixed(1)
      .padStart(
        6,
      )}  ${bc.toFixed(0).padStart(6)} | ${`${((sr / br) * 100).toFixed(0)}%`.padStart(14)} | ${`${((bc / sc) * 100).toFixed(0)}%`.padStart(12)}${bad ? `  (svc errors or non-2xx: ${bad})` : ''}`,
  );
}
const paragraph =
  'Thanks for asking. The short answer is that the migration can run online if you batch the writes and keep each ' +
  'transaction under a second. You might want to test it on a copy first, because lock contention depends on your ' +
  'workload. Here is a plan: snapshot the table, run the backfill in chunks of ten thousand rows, then switch reads. ';
const body = JSON.stringify({
  prompt: 'How do I migrate a large table without downtime?',
  response: paragraph.repeat(5).slice(0, 2048),
});
const post = (key?: string): Partial<autocannon.Options> => ({
  method: 'POST',
  body,
  headers: { 'content-type': 'application/json', ...(key ? { authorization: `Bearer ${key}` } : {}) },
});
console.log('POST /api/score (autocannon)  req/s  p99 ms  µs/req');
for (const [name, key] of !only || only.includes('score')
  ? ([
      ['keyless (free tier)', undefined],
      ['keyed', app.key],
    ] as const)
  : []) {
  await load(appPid, `${app.url}/api/score`, post(key), 1);
  const r = await load(appPid, `${app.url}/api/score`, post(key));
  console.log(
    `${name.padEnd(28)} ${r.rps.toFixed(0).padStart(6)}  ${String(r.p99).padStart(6)}  ${r.cpuUs.toFixed(0).padStart(6)}${r.bad ? `  (non-2xx ${r.bad}${key ? '' : ': 429 past the free hourly cap'})` : ''}`,
  );
}
app.child.kill();
bare.child.kill();
