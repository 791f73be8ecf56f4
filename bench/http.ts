/**
 * `npm run bench`: req/s and p99 latency at 50 connections for the leaderboard page (/) and the read endpoints, each beside a bare
 * Fastify route that returns the same bytes (target: >= 80% of the bare route's req/s, p99 < 10 ms), and
 * POST /api/score with a ~2 KB response (keyed, so the run measures scoring and not 429s).
 * Server and load generator run in separate processes. BENCH_SECONDS sets each run's length (default 5).
 */
import autocannon from 'autocannon';
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';

const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const connections = 50;

async function start(
  mode: 'app' | 'bare',
  stdin?: string,
): Promise<{ url: string; key?: string; child: ChildProcess }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/fixture-server.ts', mode], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  child.stdin!.end(stdin ?? '');
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`${mode} server exited with ${code}`)));
  });
  return { ...(JSON.parse(line) as { url: string; key?: string }), child };
}

async function load(
  url: string,
  opts: Partial<autocannon.Options> = {},
): Promise<{ rps: number; p99: number; errors: number; non2xx: number }> {
  const r = await autocannon({ url, connections, duration: seconds, pipelining: 1, ...opts });
  return { rps: r.requests.average, p99: r.latency.p99, errors: r.errors, non2xx: r.non2xx };
}

const app = await start('app');
const lb = await fetch(`${app.url}/api/leaderboard`);
const lbBody = await lb.text();
const slug = (JSON.parse(lbBody) as { sycophancy: { slug: string }[] }).sycophancy[0]!.slug;
const targets = {
  home: `/`, // the leaderboard page
  leaderboard: `/api/leaderboard`,
  model: `/api/model?slug=${slug}`,
  badge: `/api/badge/${slug}`,
};
const bodies: Record<string, { type: string; body: string }> = {};
for (const [name, path] of Object.entries(targets)) {
  const r = await fetch(app.url + path);
  bodies[name] = { type: r.headers.get('content-type')!, body: await r.text() };
}
const bare = await start('bare', JSON.stringify(bodies));

console.log(`HTTP benchmark: ${connections} connections, ${seconds} s per run, node ${process.version}`);
console.log('endpoint      req/s (svc)  p99 ms  | req/s (bare)  p99 ms | svc/bare');
for (const [name, path] of Object.entries(targets)) {
  await load(app.url + path, { duration: 1 }); // warm-up: JIT and caches, not measured
  await load(`${bare.url}/bare/${name}`, { duration: 1 });
  const s = await load(app.url + path);
  const b = await load(`${bare.url}/bare/${name}`);
  const ratio = s.rps / b.rps;
  console.log(
    `${name.padEnd(12)}  ${s.rps.toFixed(0).padStart(10)}  ${String(s.p99).padStart(6)}  | ${b.rps.toFixed(0).padStart(12)}  ${String(b.p99).padStart(6)} | ${(ratio * 100).toFixed(0)}%${s.errors + s.non2xx ? `  (errors ${s.errors}, non-2xx ${s.non2xx})` : ''}`,
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
await load(`${app.url}/api/score`, {
  duration: 1,
  method: 'POST',
  body,
  headers: { 'content-type': 'application/json', authorization: `Bearer ${app.key}` },
});
const sc = await load(`${app.url}/api/score`, {
  method: 'POST',
  body,
  headers: { 'content-type': 'application/json', authorization: `Bearer ${app.key}` },
});
console.log(
  `score (2 KB)  ${sc.rps.toFixed(0).padStart(10)}  ${String(sc.p99).padStart(6)}  |${sc.errors + sc.non2xx ? `  (errors ${sc.errors}, non-2xx ${sc.non2xx})` : ''}`,
);
app.child.kill();
bare.child.kill();
