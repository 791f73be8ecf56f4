/**
 * A server for the HTTP benchmarks, in its own process so that autocannon does not share its CPU.
 * argv[2]: "app" (the real service over the bundled dataset and SVC_STORE_URL, by default a SQLite store in a
 * temp folder, with one API key whose cap and allowance are 10^9, so POST /api/score measures scoring, not
 * 429s; BENCH_ENV adds settings as JSON) or "bare" (a plain
 * Fastify route that returns the bytes given on stdin). Prints {url, key} as one JSON line on stdout.
 */
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { openDatasetSource } from '../src/domain/dataset.ts';
import { createMailer } from '../src/domain/email.ts';
import { createApiKey } from '../src/domain/keys.ts';
import fs from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import os from 'node:os';
import path from 'node:path';
import { createStore } from '../src/store/index.ts';
import { createLogger } from '../src/logging.ts';
import Fastify from 'fastify';

const mode = process.argv[2];
const silent = { info() {}, error() {}, warn() {}, debug() {} };

if (mode === 'bare') {
  const bodies = JSON.parse(await new Response(process.stdin as unknown as ReadableStream).text()) as Record<
    string,
    { type: string; body: string }
  >;
  // The bytes encoded once, as the service sends its prepared bodies: a string would be UTF-8 encoded on every
  // request, which for the 100 KB page costs the bare route more than everything else it does.
  const encoded = Object.fromEntries(
    Object.entries(bodies).map(([k, b]) => [k, { type: b.type, body: Buffer.from(b.body) }]),
  );
  const app = Fastify();
  app.get('/bare/:name', async (req, reply) => {
    const b = encoded[(req.params as { name: string }).name]!;
    return reply.type(b.type).send(b.body);
  });
  process.stdout.write(`${JSON.stringify({ url: await app.listen({ port: 0, host: '127.0.0.1' }) })}\n`);
  process.on('SIGTERM', () => process.exit(0));
} else {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-bench-'));
  process.on('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
  // Default settings, logging included (LOG_LEVEL info), as `npm start` runs; the log goes to a file in the temp
  // folder, written the way main writes stdout (src/logging.ts).
  const config = loadConfig({
    SVC_STORE_URL: process.env.SVC_STORE_URL ?? `sqlite:${path.join(dir, 'svc.db')}`,
    ...(process.env.BENCH_ENV ? (JSON.parse(process.env.BENCH_ENV) as Record<string, string>) : {}),
  });
  const store = createStore(config.store);
  const { apiKey, record } = await createApiKey(store, { email: 'bench@example.com' }, Date.now());
  await store.updateKey(record.id, { rateLimit: 1e9, callsRemaining: 1e9 });
  const app = await buildApp({
    config,
    store,
    mailer: createMailer(config.email, silent as never),
    dataset: openDatasetSource(config.datasetPath, silent, { watch: false }),
    loggerInstance: createLogger(config.logLevel, path.join(dir, 'svc.log')),
  });
  process.stdout.write(`${JSON.stringify({ url: await app.listen({ port: 0, host: '127.0.0.1' }), key: apiKey })}\n`);
  // SIGUSR2: print {maxStallMs, p99StallMs, rssMB, heapMB, heapTotalMB, externalMB, arrayBuffersMB, anonMB, fileMB, walMB} as one line (the longest event-loop stall since start).
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  process.on('SIGUSR2', () => {
    // With --expose-gc (bench:rss), a full collection first: RSS after GC, not whatever garbage is pending.
    (globalThis as { gc?: () => void }).gc?.();
    const db = config.store.kind === 'sqlite' ? `${config.store.path}-wal` : '';
    const wal = db && fs.existsSync(db) ? fs.statSync(db).size / 1048576 : 0;
    const mem = process.memoryUsage();
    // RSS split as the kernel counts it: anonymous (heaps, malloc) and file-backed (code, mapped files).
    const rollup = (() => {
      try {
        return fs.readFileSync('/proc/self/smaps_rollup', 'utf8');
      } catch {
        return '';
      }
    })();
    const kb = (name: string) =>
      Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(rollup)?.[1] ?? Number.NaN) / 1024;
    const mb = (n: number) => n / 1048576;
    process.stdout.write(
      `${JSON.stringify({ maxStallMs: delay.max / 1e6, p99StallMs: delay.percentile(99) / 1e6, rssMB: mb(mem.rss), heapMB: mb(mem.heapUsed), heapTotalMB: mb(mem.heapTotal), externalMB: mb(mem.external), arrayBuffersMB: mb(mem.arrayBuffers), anonMB: kb('Anonymous'), fileMB: kb('Rss') - kb('Anonymous'), walMB: wal })}\n`,
    );
  });
  process.on('SIGTERM', () => process.exit(0));
}
