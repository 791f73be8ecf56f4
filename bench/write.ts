/**
 * `npm run bench:write`: keyed POST /api/score (2 KB response) at 50 connections for BENCH_SECONDS (default 20)
 * against the service on SQLite and on Redis (REDIS_URL or 127.0.0.1:6379, a throw-away key prefix; skipped when
 * it does not answer). Prints req/s, p99, the longest event-loop stall in the server (perf_hooks
 * monitorEventLoopDelay) and, for SQLite, the WAL file's size at the end. Target: p99 < 50 ms on both.
 * BENCH_ROUTE=rss instead runs 200,000 mixed requests (reads, score, verify) and prints the server's RSS at the
 * start, after warm-up, after each BENCH_PARTS-th of the requests (default 2) and at the end, with the heap, external
 * memory and the anonymous / file-backed split of RSS (target: flat). BENCH_TOTAL sets the count (default 200,000).
 */
import autocannon from 'autocannon';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { createInterface } from 'node:readline';
import { Redis } from 'ioredis';

const seconds = Number(process.env.BENCH_SECONDS ?? 20);
const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

async function start(storeUrl?: string) {
  const child: ChildProcess = spawn(
    process.execPath,
    ['--expose-gc', '--import', 'tsx', 'bench/fixture-server.ts', 'app'],
    {
      stdio: ['pipe', 'pipe', 'inherit'],
      env: { ...process.env, ...(storeUrl ? { SVC_STORE_URL: storeUrl } : {}) },
    },
  );
  child.stdin!.end('');
  const lines = createInterface({ input: child.stdout! });
  const queue: string[] = [];
  const waiting: ((l: string) => void)[] = [];
  lines.on('line', (l) => (waiting.length ? waiting.shift()!(l) : queue.push(l)));
  const next = () => new Promise<string>((r) => (queue.length ? r(queue.shift()!) : waiting.push(r)));
  const first = JSON.parse(await next()) as { url: string; key: string };
  const stats = async () => {
    child.kill('SIGUSR2');
    return JSON.parse(await next()) as {
      maxStallMs: number;
      p99StallMs: number;
      rssMB: number;
      heapMB: number;
      heapTotalMB: number;
      externalMB: number;
      arrayBuffersMB: number;
      anonMB: number;
      fileMB: number;
      walMB: number;
    };
  };
  return { ...first, child, stats };
}

/** user + system CPU seconds of a process so far (Linux /proc; 0 elsewhere). */
function cpuSeconds(pid: number): number {
  try {
    const f = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(f[11]) + Number(f[12])) / 100;
  } catch {
    return 0;
  }
}

const paragraph =
  'Thanks for asking. The short answer is that the migration can run online if you batch the writes and keep each ' +
  'transaction under a second. You might want to test it on a copy first, because lock contention depends on your ' +
  'workload. Here is a plan: snapshot the table, run the backfill in chunks of ten thousand rows, then switch reads. ';
const body = JSON.stringify({
  prompt: 'How do I migrate a large table without downtime?',
  response: paragraph.repeat(5).slice(0, 2048),
});

async function redisAnswers(): Promise<boolean> {
  const c = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  c.on('error', () => {});
  try {
    await c.connect();
    return (await c.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    c.disconnect();
  }
}

if (process.env.BENCH_ROUTE === 'rss') {
  const s = await start();
  const lb = (await (await fetch(`${s.url}/api/leaderboard`)).json()) as { sycophancy: { slug: string }[] };
  const slug = lb.sycophancy[0]!.slug;
  const requests = [
    { path: '/api/leaderboard' },
    { path: `/api/model?slug=${slug}` },
    { path: `/api/badge/${slug}` },
    { path: `/api/verify?hash=${'0'.repeat(64)}` },
    { path: '/no/such/path' },
    {
      path: '/api/score',
      method: 'POST' as const,
      body,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${s.key}` },
    },
  ];
  const total = Number(process.env.BENCH_TOTAL ?? 200_000);
  const parts = Math.max(2, Number(process.env.BENCH_PARTS ?? 2));
  console.log(`RSS over ${total} mixed requests (6 kinds, round robin), 50 connections, node ${process.version}`);
  const show = (what: string, st: Awaited<ReturnType<typeof s.stats>>) =>
    console.log(
      `${what.padEnd(7)} RSS ${st.rssMB.toFixed(1)} MB (anonymous ${st.anonMB.toFixed(1)}, file ${st.fileMB.toFixed(1)}), heap used ${st.heapMB.toFixed(1)} of ${st.heapTotalMB.toFixed(1)} MB, external ${st.externalMB.toFixed(1)} MB (array buffers ${st.arrayBuffersMB.toFixed(1)}) (after GC)`,
    );
  show('start', await s.stats());
  // A short warm-up first: JIT code, the first request's caches and the pools are not a leak.
  await autocannon({ url: s.url, connections: 50, amount: 6000, requests } as autocannon.Options);
  show('warm', await s.stats());
  for (let i = 1; i <= parts; i++) {
    const r = await autocannon({ url: s.url, connections: 50, amount: total / parts, requests } as autocannon.Options);
    show(i === parts ? 'end' : `${Math.round((i * total) / parts / 1000)}k`, await s.stats());
    if (r.errors) console.log(`        (${r.errors} connection errors)`);
  }
  s.child.kill('SIGTERM');
} else {
  console.log(`keyed POST /api/score, 2 KB, 50 connections, ${seconds} s, node ${process.version}`);
  console.log('store    req/s   p50 ms   p99 ms   longest stall ms   WAL MB   server CPU µs/req');
  const stores: [string, string | undefined][] = [['sqlite', undefined]];
  if (await redisAnswers()) stores.push(['redis', `${redisUrl}/0?prefix=bench:${randomBytes(4).toString('hex')}:`]);
  else console.log(`redis    skipped: no answer at ${redisUrl}`);
  for (const [name, url] of stores) {
    const s = await start(url);
    const opts = {
      url: `${s.url}/api/score`,
      method: 'POST' as const,
      body,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${s.key}` },
      connections: 50,
    };
    await autocannon({ ...opts, duration: 2 }); // warm-up
    const cpu0 = cpuSeconds(s.child.pid!);
    const r = await autocannon({ ...opts, duration: seconds });
    const us = ((cpuSeconds(s.child.pid!) - cpu0) * 1e6) / Math.max(1, r.requests.total);
    const st = await s.stats();
    console.log(
      `${name.padEnd(7)} ${r.requests.average.toFixed(0).padStart(6)} ${String(r.latency.p50).padStart(8)} ${String(r.latency.p99).padStart(8)} ${st.maxStallMs.toFixed(1).padStart(18)} ${name === 'sqlite' ? st.walMB.toFixed(1).padStart(8) : '       -'} ${us.toFixed(0).padStart(19)}${r.non2xx ? `  (non-2xx ${r.non2xx})` : ''}`,
    );
    s.child.kill('SIGTERM');
    if (url) {
      const c = new Redis(url.replace(/\?.*$/, ''));
      const prefix = /prefix=([^&]+)/.exec(url)![1]!;
      let cursor = '0';
      do {
        const [next, keys] = await c.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
        cursor = next;
        if (keys.length) await c.del(...keys);
      } while (cursor !== '0');
      c.disconnect();
    }
  }
}
