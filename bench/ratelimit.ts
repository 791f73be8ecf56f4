/**
 * `npm run bench:ratelimit`: what the rate limiter costs on POST /api/score with each store (memory, SQLite,
 * Redis), in one run. Two figures per store:
 * - HTTP: req/s and p99 with autocannon (this process) against buildApp listening on 127.0.0.1 (a child
 *   process), 50 connections. Each request carries a different X-Forwarded-For (trusted, 1 hop), so every
 *   request is counted in its own window and none is refused: the run measures the counting, not 429s. With
 *   SQLite and Redis a second row sends an API key whose cap and allowance are raised to 10^9 (key lookup,
 *   counted per key, one call taken from the allowance).
 * - In process: microseconds per RateLimiter.take() (one window count), sequential and 64 at a time.
 * Redis: REDIS_URL or 127.0.0.1:6379, under a throw-away key prefix (skipped when it does not answer).
 * BENCH_SECONDS sets each HTTP run's length (default 5).
 */
import autocannon from 'autocannon';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { buildApp } from '../src/app.ts';
import { loadConfig, parseStoreUrl } from '../src/config.ts';
import { openDatasetSource } from '../src/domain/dataset.ts';
import { createApiKey } from '../src/domain/keys.ts';
import { RateLimiter } from '../src/ratelimit/index.ts';
import { createStore, RedisStore, type Store } from '../src/store/index.ts';

const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const connections = 50;
const datasetFile = path.resolve(import.meta.dirname, '../dataset/leaderboard.json');
const quiet = { warn() {}, info() {}, error() {}, debug() {} };

/** Child: serve buildApp over the store URL given; print {url, key} as one line. */
async function serve(storeUrl: string): Promise<void> {
  const config = loadConfig({
    SVC_STORE_URL: storeUrl,
    SVC_DATASET: datasetFile,
    SVC_TRUST_PROXY: 'x-forwarded-for:1',
    LOG_LEVEL: 'silent',
  });
  const store = createStore(config.store);
  let key: string | null = null;
  if (store.kind !== 'memory') {
    const { apiKey, record } = await createApiKey(store, { email: 'bench@example.com' }, Date.now());
    await store.updateKey(record.id, { rateLimit: 1e9, callsRemaining: 1e9 });
    key = apiKey;
  }
  const dataset = openDatasetSource(datasetFile, quiet);
  const app = await buildApp({ config, store, mailer: { send: async () => false }, dataset, logger: false });
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  process.stdout.write(`${JSON.stringify({ url, key })}\n`);
  process.stdin.resume();
  process.stdin.on('end', async () => {
    await app.close();
    dataset.close();
    if (store instanceof RedisStore) await store.destroyAll();
    await store.close();
    process.exit(0);
  });
}

async function startServer(storeUrl: string): Promise<{ url: string; key: string | null; stop(): void }> {
  const child = spawn(process.execPath, ['--import', 'tsx', import.meta.filename, 'serve', storeUrl], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`bench server exited with ${code}`)));
  });
  const { url, key } = JSON.parse(line) as { url: string; key: string | null };
  return { url, key, stop: () => child.stdin!.end() };
}

let ipSeq = 0;
function nextIp(): string {
  ipSeq = (ipSeq + 1) % 16_000_000;
  return `10.${(ipSeq >> 16) & 255}.${(ipSeq >> 8) & 255}.${ipSeq & 255}`;
}

async function load(
  url: string,
  key: string | null,
  duration: number,
): Promise<{ rps: number; p99: number; bad: number }> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (key) headers.authorization = `Bearer ${key}`;
  const body = JSON.stringify({
    prompt: 'I think my plan is great, right?',
    response: 'You are absolutely right, it is a wonderful plan!',
  });
  const r = await autocannon({
    url: `${url}/api/score`,
    connections,
    duration,
    requests: [
      {
        method: 'POST',
        body,
        headers,
        setupRequest: (req) => ({ ...req, headers: { ...req.headers, 'x-forwarded-for': nextIp() } }),
      },
    ],
  });
  return { rps: r.requests.average, p99: r.latency.p99, bad: r.non2xx + r.errors };
}

async function micro(store: Store): Promise<{ seq: number; par: number }> {
  const rl = new RateLimiter(store, quiet);
  const n = 5000;
  for (let i = 0; i < 500; i++) await rl.take('score', nextIp(), 100); // warm-up
  let t = performance.now();
  for (let i = 0; i < n; i++) await rl.take('score', nextIp(), 100);
  const seq = ((performance.now() - t) * 1000) / n;
  t = performance.now();
  for (let i = 0; i < n; i += 64) await Promise.all(Array.from({ length: 64 }, () => rl.take('score', nextIp(), 100)));
  const par = ((performance.now() - t) * 1000) / n;
  return { seq, par };
}

async function main(): Promise<void> {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-bench-rl-'));
  const redisUrl = process.env.REDIS_URL || 'redis://127.0.0.1:6379';
  const stores: [string, string][] = [
    ['memory', 'memory'],
    ['sqlite', `sqlite:${path.join(tmp, 'bench.db')}`],
  ];
  const probe = new RedisStore(redisUrl);
  if (await probe.ping())
    stores.push([
      'redis',
      `${redisUrl}${redisUrl.includes('?') ? '&' : '?'}prefix=svcbench:${randomBytes(4).toString('hex')}:`,
    ]);
  else console.log(`(Redis not answering at ${redisUrl}: skipped)`);
  await probe.close();

  console.log(
    `Rate limiter on POST /api/score: ${connections} connections, ${seconds} s per run, node ${process.version}, ${os.cpus().length} CPUs, load ${os.loadavg()[0]!.toFixed(1)}`,
  );
  console.log('store    caller               req/s    p99 ms | take() µs/op: sequential  64 concurrent');
  for (const [name, url] of stores) {
    const store = createStore(parseStoreUrl(url, process.cwd()));
    const m = await micro(store);
    if (store instanceof RedisStore) await store.destroyAll();
    await store.close();
    const server = await startServer(url);
    await load(server.url, null, 2); // warm-up: JIT and the scoring engine, not measured
    const rows: [string, string | null][] = [['free tier (per IP)', null]];
    if (server.key) rows.push(['API key (cap 1e9)', server.key]);
    for (const [label, key] of rows) {
      const h = await load(server.url, key, seconds);
      const microCols = key ? '' : `${m.seq.toFixed(1).padStart(11)}  ${m.par.toFixed(1).padStart(13)}`;
      console.log(
        `${name.padEnd(8)} ${label.padEnd(18)} ${h.rps.toFixed(0).padStart(8)}  ${String(h.p99).padStart(7)} | ${microCols}${h.bad ? `   (non-2xx/errors: ${h.bad})` : ''}`,
      );
    }
    server.stop();
  }
  fs.rmSync(tmp, { recursive: true, force: true });
}

if (process.argv[2] === 'serve') {
  await serve(process.argv[3]!);
} else {
  await main();
}
