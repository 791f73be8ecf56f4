/**
 * `npm run bench:ratelimit`: what the rate limiter costs on POST /api/score with each store (memory, SQLite,
 * Redis), in one run. Two figures per store:
 * - HTTP: req/s and p99 with autocannon against buildApp listening on 127.0.0.1 (50 connections). Each request
 *   carries a different X-Forwarded-For (trusted, 1 hop), so every request is counted in its own window and
 *   none is refused: the run measures the counting, not 429s. With SQLite and Redis a second row sends an
 *   API key whose cap and allowance are raised to 10^9 (auth lookup + counted per key + allowance drawn).
 * - In process: microseconds per RateLimiter.take() (one window count), sequential and 64 at a time.
 * Redis: REDIS_URL or 127.0.0.1:6379, under a throw-away key prefix (skipped when it does not answer).
 * BENCH_SECONDS sets each HTTP run's length (default 5).
 */
import autocannon from 'autocannon';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { openDatasetSource } from '../src/domain/dataset.ts';
import { createApiKey } from '../src/domain/keys.ts';
import { RateLimiter } from '../src/ratelimit/index.ts';
import { MemoryStore, RedisStore, SqliteStore, type Store } from '../src/store/index.ts';

const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const connections = 50;
const redisUrl = process.env.REDIS_URL || 'redis://127.0.0.1:6379';
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-bench-rl-'));
const datasetFile = path.resolve(import.meta.dirname, '../dataset/leaderboard.json');
const quiet = { warn() {}, info() {}, error() {}, debug() {} };
const body = JSON.stringify({ prompt: 'I think my plan is great, right?', response: 'You are absolutely right, it is a wonderful plan!' });

let ipSeq = 0;
const nextIp = () => {
  ipSeq = (ipSeq + 1) % 16_000_000;
  return `10.${(ipSeq >> 16) & 255}.${(ipSeq >> 8) & 255}.${ipSeq & 255}`;
};

async function http(store: Store, withKey: boolean): Promise<{ rps: number; p99: number; bad: number }> {
  const config = loadConfig({ SVC_STORE_URL: 'memory', SVC_DATASET: datasetFile, SVC_TRUST_PROXY: 'x-forwarded-for:1', LOG_LEVEL: 'silent' });
  const dataset = openDatasetSource(datasetFile, quiet);
  const app = await buildApp({ config, store, mailer: { send: async () => false }, dataset, logger: false });
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (withKey) {
    const { apiKey, record } = await createApiKey(store, { email: 'bench@example.com' }, Date.now());
    await store.updateKey(record.id, { rateLimit: 1e9, callsRemaining: 1e9 });
    headers.authorization = `Bearer ${apiKey}`;
  }
  const run = (duration: number) =>
    autocannon({
      url: `${url}/api/score`,
      connections,
      duration,
      requests: [{ method: 'POST', body, headers, setupRequest: (req) => ({ ...req, headers: { ...req.headers, 'x-forwarded-for': nextIp() } }) }],
    });
  await run(1); // warm-up, not measured
  const r = await run(seconds);
  await app.close();
  dataset.close();
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

const stores: [string, () => Store][] = [
  ['memory', () => new MemoryStore()],
  ['sqlite', () => new SqliteStore(path.join(tmp, 'bench.db'))],
];
const probe = new RedisStore(redisUrl);
if (await probe.ping()) stores.push(['redis', () => new RedisStore(`${redisUrl}${redisUrl.includes('?') ? '&' : '?'}prefix=svcbench:${randomBytes(4).toString('hex')}:`)]);
else console.log(`(Redis not answering at ${redisUrl}: skipped)`);
await probe.close();

console.log(`Rate limiter on POST /api/score: ${connections} connections, ${seconds} s per run, node ${process.version}, ${os.cpus().length} CPUs`);
console.log('store    caller               req/s    p99 ms | take() µs/op: sequential  64 concurrent');
for (const [name, make] of stores) {
  const store = make();
  const m = await micro(store);
  const rows: [string, boolean][] = [['free tier (per IP)', false]];
  if (name !== 'memory') rows.push(['API key (cap 1e9)', true]);
  for (const [label, withKey] of rows) {
    const h = await http(store, withKey);
    const microCols = withKey ? '' : `${m.seq.toFixed(1).padStart(11)}  ${m.par.toFixed(1).padStart(13)}`;
    console.log(`${name.padEnd(8)} ${label.padEnd(18)} ${h.rps.toFixed(0).padStart(8)}  ${String(h.p99).padStart(7)} | ${microCols}${h.bad ? `   (non-2xx/errors: ${h.bad})` : ''}`);
  }
  if (store instanceof RedisStore) await store.destroyAll();
  await store.close();
}
fs.rmSync(tmp, { recursive: true, force: true });
