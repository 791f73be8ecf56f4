/**
 * Every core: `SVC_WORKERS=<n>` (or `auto`, one per core) runs n worker processes with node:cluster. The workers
 * share one listening port (the primary accepts and hands connections out round-robin) and one store: the SQLite
 * file (every counter write is one transaction, safe across processes) or Redis.
 *
 * - The primary serves no HTTP. It forks the workers, replaces one that dies (at most 10 replacements a minute;
 *   more means something is wrong at start-up, and the primary stops with the worker's error), serves
 *   /metrics when SVC_METRICS_PORT is set (aggregating every worker), and holds the in-memory rate-limit counts.
 * - In-memory counts (SVC_STORE_URL=memory, or a configured store during an outage with
 *   SVC_LIMIT_ON_STORE_ERROR=open) are not kept per worker, which would multiply every cap by n: a worker sends
 *   each hit to the primary over the cluster IPC channel (PrimaryCounter) and the primary counts in one
 *   MemoryStore, so the caps stay exact across workers.
 * - SIGTERM (or SIGINT) to the primary: it sends SIGTERM to every worker; each stops accepting, finishes its
 *   requests in flight and closes the store; the primary exits when all have (0), or after 15 s (1).
 * - A start-up failure in a worker (port in use, bad dataset …) prints that worker's one line; the primary then
 *   stops the others and exits 1 instead of restarting them forever.
 */
import cluster, { type Worker } from 'node:cluster';
import fs from 'node:fs';
import net from 'node:net';
import type { Config } from './config.ts';
import type { Logger } from './logging.ts';
import { startMetricsServer } from './metrics.ts';
import { MemoryStore } from './store/memory/index.ts';
import { listenErrorMessage, METRICS_VARS, StartupError } from './startup.ts';

interface HitRequest {
  svc: 'hit';
  id: number;
  key: string;
  windowMs: number;
  nowMs: number;
}
interface HitAnswer {
  svc: 'hit-answer';
  id: number;
  count: number;
  resetMs: number;
}

/** Worker side: a RateLimitStore.hit that counts in the primary. */
export class PrimaryCounter {
  private nextId = 0;
  private readonly pending = new Map<number, (a: { count: number; resetMs: number }) => void>();
  private listening = false;

  hit(key: string, windowMs: number, nowMs: number): Promise<{ count: number; resetMs: number }> {
    if (!this.listening) {
      this.listening = true;
      process.on('message', (m: HitAnswer) => {
        if (m?.svc !== 'hit-answer') return;
        const done = this.pending.get(m.id);
        this.pending.delete(m.id);
        done?.({ count: m.count, resetMs: m.resetMs });
      });
    }
    const id = ++this.nextId;
    return new Promise((resolve, reject) => {
      this.pending.set(id, resolve);
      const msg: HitRequest = { svc: 'hit', id, key, windowMs, nowMs };
      process.send!(msg, undefined, {}, (err) => {
        if (err) {
          this.pending.delete(id);
          reject(err);
        }
      });
    });
  }
}

/** Primary side: answer the workers' hits from one set of counters. */
function countForWorkers(worker: Worker, counters: MemoryStore): void {
  worker.on('message', (m: HitRequest) => {
    if (m?.svc !== 'hit') return;
    void counters.hit(m.key, m.windowMs, m.nowMs).then(({ count, resetMs }) => {
      if (worker.isConnected()) worker.send({ svc: 'hit-answer', id: m.id, count, resetMs } satisfies HitAnswer);
    });
  });
}

/** What every worker would trip over, checked once in the primary so that it is reported once. */
async function precheck(config: Config): Promise<void> {
  if (!fs.existsSync(config.datasetPath))
    throw new StartupError(
      `SVC_DATASET=${config.datasetPath} does not exist (point SVC_DATASET at a published dataset file)`,
    );
  const probe = net.createServer();
  await new Promise<void>((resolve, reject) => {
    probe.once('error', (err: NodeJS.ErrnoException) =>
      reject(new StartupError(listenErrorMessage(err, config.host, config.port))),
    );
    probe.listen(config.port, config.host, () => probe.close(() => resolve()));
  });
}

/** Run the primary: fork, replace, drain. Resolves once the workers listen; rejects when they cannot start. */
export async function runPrimary(config: Config, log: Logger): Promise<void> {
  const counters = new MemoryStore();
  let closing = false;
  let listening = 0;
  const restarts: number[] = [];
  let startupFailure: ((err: Error) => void) | undefined;
  let started: (() => void) | undefined;

  const fork = (): Worker => {
    const w = cluster.fork();
    countForWorkers(w, counters);
    w.once('listening', () => {
      listening += 1;
      if (listening === config.workers) started?.();
    });
    return w;
  };

  cluster.on('exit', (worker, code, signal) => {
    if (closing) return;
    const everListened = listening > 0;
    if (!everListened && code !== 0) {
      // The worker printed its one line; the primary adds none.
      startupFailure?.(new StartupError(''));
      return;
    }
    const now = Date.now();
    restarts.push(now);
    while (restarts.length && restarts[0]! < now - 60_000) restarts.shift();
    if (restarts.length > 10) {
      log.error({ restarts: restarts.length }, 'workers keep dying: more than 10 restarts in a minute; stopping');
      void stop(1);
      return;
    }
    log.warn({ pid: worker.process.pid, code, signal }, 'worker died; starting a replacement');
    fork();
  });

  const stop = async (exitCode: number) => {
    closing = true;
    const workers = Object.values(cluster.workers ?? {}).filter((w): w is Worker => w !== undefined);
    for (const w of workers) w.process.kill('SIGTERM');
    const force = setTimeout(() => process.exit(1), 15_000);
    force.unref();
    await Promise.all(workers.map((w) => (w.isDead() ? undefined : new Promise((r) => w.once('exit', r)))));
    clearTimeout(force);
    process.exit(exitCode);
  };
  process.once('SIGTERM', () => void stop(0));
  process.once('SIGINT', () => void stop(0));

  await precheck(config);
  await new Promise<void>((resolve, reject) => {
    started = resolve;
    startupFailure = (err) => {
      closing = true;
      for (const w of Object.values(cluster.workers ?? {})) w?.process.kill('SIGTERM');
      reject(err);
    };
    for (let i = 0; i < config.workers; i++) fork();
  });
  if (config.metrics) {
    await startMetricsServer(config.metrics.port, config.metrics.host).catch((err: NodeJS.ErrnoException) => {
      throw new StartupError(
        `cannot serve metrics on ${config.metrics!.host}:${config.metrics!.port}: ${listenErrorMessage(err, config.metrics!.host, config.metrics!.port, METRICS_VARS)}`,
      );
    });
  }
  log.info({ workers: config.workers, port: config.port }, 'svc ready (cluster)');
}
