/**
 * `npm run bench:audit`: the audit log's costs.
 * 1. 1,000 reports sealed, stored and appended in one atomic append (as an ingest does), then each proven
 *    (ReportVerifier.verify: stored content re-read and hashed, log entry looked up, inclusion proof checked
 *    against the signed checkpoint); then 1,000 appends of one report each. SQLite file in a temp folder.
 *    Target: under 1 s for the first.
 * 2. GET /api/verify latency with autocannon on 127.0.0.1 over those 1,000 reports (server in its own process,
 *    same SQLite file; each request from a different forwarded IP, so the 50/hour limit is counted, one SQLite
 *    write per request, but never hit): with 1 connection (latency without queueing; target p99 under 5 ms), then with 10; and the
 *    same over Redis when it answers (keys under a unique prefix, deleted afterwards).
 *    BENCH_SECONDS sets the run length (default 5); BENCH_DIR the temp folder (default the OS temp dir).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import autocannon from 'autocannon';
import { AuditLog } from '../src/audit/log.ts';
import { ReportVerifier, buildReport, sealReport } from '../src/domain/reports.ts';
import { RedisStore, SqliteStore } from '../src/store/index.ts';
import { Redis } from 'ioredis';

const N = 1000;
const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const dir = fs.mkdtempSync(path.join(process.env.BENCH_DIR ?? os.tmpdir(), 'svc-bench-audit-'));
const dbFile = path.join(dir, 'svc.db');

function report(i: number) {
  const t = (x: number) => ({
    syco: { ev: x, me: x / 2, il: 1, ia: 0, fa: x },
    pai: { emi: x / 4, exl: 0, bnd: 0.5, dep: x / 3, aud: 0 },
  });
  return buildReport({
    model: { slug: `model-${i}`, name: `Model ${i}`, vendor: 'Bench' },
    datasetVersion: 'bench',
    generatedAt: new Date().toISOString(),
    engine: { name: 'bench', version: '1' },
    judges: ['bench 1'],
    transcripts: Array.from({ length: 20 }, (_, k) => t((i + k) % 10)),
  });
}

const ms = (t0: bigint) => Number(process.hrtime.bigint() - t0) / 1e6;

// 1. Append and prove.
const store = new SqliteStore(dbFile);
const log = new AuditLog(store);
await log.publicKey(); // key creation is a one-time cost, not part of the figure
const sealed = Array.from({ length: N }, (_, i) => sealReport(report(i)));
let t0 = process.hrtime.bigint();
for (const s of sealed) await store.putReport(s.hash, s.json);
await log.append(sealed.map((s) => s.hash));
const tAppend = ms(t0);
const verifier = new ReportVerifier(store, log);
const perCall: number[] = [];
t0 = process.hrtime.bigint();
for (const s of sealed) {
  const t1 = process.hrtime.bigint();
  if (!(await verifier.verify(s.hash)).verified) throw new Error('a report did not verify');
  perCall.push(ms(t1));
}
const tProve = ms(t0);
perCall.sort((a, b) => a - b);
console.log(`audit log benchmark, node ${process.version}, SQLite (WAL, synchronous=FULL)`);
console.log(
  `${N} reports stored + appended (one append): ${tAppend.toFixed(0)} ms; all ${N} proven: ${tProve.toFixed(0)} ms; total ${(tAppend + tProve).toFixed(0)} ms (target < 1000 ms)`,
);
console.log(
  `one verification in process (no HTTP, no rate limit): p50 ${perCall[N / 2]!.toFixed(3)} ms, p99 ${perCall[Math.floor(N * 0.99)]!.toFixed(3)} ms`,
);

const single = Array.from({ length: N }, (_, i) => sealReport(report(N + i)));
t0 = process.hrtime.bigint();
for (const s of single) {
  await store.putReport(s.hash, s.json);
  await log.append([s.hash]);
}
const tSingle = ms(t0);
console.log(
  `${N} more reports appended one at a time (each with a new signed checkpoint): ${tSingle.toFixed(0)} ms (${(tSingle / N).toFixed(2)} ms each)`,
);
await store.close();

// 2. GET /api/verify under load.
async function start(storeUrl: string): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/fixture-server.ts', 'app'], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: {
      ...process.env,
      SVC_STORE_URL: storeUrl,
      BENCH_ENV: JSON.stringify({ SVC_TRUST_PROXY: 'x-forwarded-for:1' }),
    },
  });
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });
  return { url: (JSON.parse(line) as { url: string }).url, child };
}

let n = 0;
const opts = (url: string, duration: number, connections: number): autocannon.Options => ({
  url,
  connections,
  duration,
  requests: [
    {
      method: 'GET',
      setupRequest: (req) => {
        n += 1;
        return {
          ...req,
          path: `/api/verify?hash=${sealed[n % N]!.hash}`,
          headers: { ...req.headers, 'x-forwarded-for': `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}` },
        };
      },
    },
  ],
});

async function measure(storeUrl: string, label: string): Promise<void> {
  const server = await start(storeUrl);
  try {
    const check = (await (
      await fetch(`${server.url}/api/verify?hash=${sealed[0]!.hash}`, { headers: { 'x-forwarded-for': '192.0.2.1' } })
    ).json()) as { verified?: boolean };
    if (check.verified !== true) throw new Error(`the benchmarked hashes do not verify over ${label}`);
    const show = (what: string, r: autocannon.Result) =>
      console.log(
        `GET /api/verify [${label}] ${what}: ${r.requests.average.toFixed(0)} req/s, p50 ${r.latency.p50} ms, p99 ${r.latency.p99} ms` +
          `${r.errors + r.non2xx ? `, errors ${r.errors}, non-2xx ${r.non2xx}` : ''}`,
      );
    await autocannon(opts(server.url, 1, 10)); // warm-up, not measured
    show(`1 connection, ${seconds} s`, await autocannon(opts(server.url, seconds, 1)));
    show(`10 connections, ${seconds} s`, await autocannon(opts(server.url, seconds, 10)));
  } finally {
    server.child.kill();
  }
}

console.log('GET /api/verify target: p99 < 5 ms. Each request also counts one rate-limit hit in the store.');
await measure(`sqlite:${dbFile}`, 'SQLite');

// The same reports in Redis (the multi-instance store), when it answers.
const redisUrl = `${process.env.REDIS_URL ?? 'redis://127.0.0.1:6379'}?prefix=svcbench:audit:${process.pid}:`;
const redis = new RedisStore(redisUrl);
if (await redis.ping()) {
  const rlog = new AuditLog(redis);
  for (const s of sealed) await redis.putReport(s.hash, s.json);
  await rlog.append(sealed.map((s) => s.hash));
  try {
    await measure(redisUrl, 'Redis');
  } finally {
    const c = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
    const keys = await c.keys(`svcbench:audit:${process.pid}:*`);
    if (keys.length) await c.del(...keys);
    c.disconnect();
  }
} else {
  console.log('Redis is not answering: Redis run skipped');
}
await redis.close();
fs.rmSync(dir, { recursive: true, force: true });
