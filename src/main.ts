/**
 * Start-up and shut-down: read config once, build the store, mailer and dataset source, build the app,
 * listen; on SIGTERM/SIGINT stop accepting, finish in-flight requests, close the store, exit.
 *
 * A start-up failure an operator can fix prints one line `svc: <what and how to fix it>` on stderr and exits
 * non-zero (2 for a bad setting, 1 otherwise), without a stack trace (src/startup.ts).
 */
import cluster from 'node:cluster';
import fs from 'node:fs';
import { buildApp } from './app.ts';
import { AuditLog } from './audit/log.ts';
import { ConfigError, isStoreConfigured, loadConfig, type Config } from './config.ts';
import { readDatasetFile, type Dataset } from './domain/dataset.ts';
import { openStoreDatasetSource, takeBundle } from './domain/publication.ts';
import { reportsDirOf } from './domain/reports.ts';
import { capPerRecipient, createMailer } from './domain/email.ts';
import { createLogger, flushLogs } from './logging.ts';
import { startWorker, type Worker } from './jobs/worker.ts';
import { PrimaryCounter, runPrimary } from './cluster.ts';
import { instrumentStore, shareWithPrimary, startMetricsServer } from './metrics.ts';
import {
  checkRedisDurability,
  certifyWithRetry,
  listenErrorMessage,
  METRICS_VARS,
  Readiness,
  StartupError,
} from './startup.ts';
import { describeStore } from './cli/store.ts';
import { createStore, RedisStore } from './store/index.ts';
import type { Store } from './store/types.ts';

/** The settings that choose the metrics address, named in its listen errors. */

export async function main(env: NodeJS.ProcessEnv = process.env): Promise<number> {
  let config: Config;
  try {
    config = loadConfig(env);
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`svc: configuration error: ${err.message}\n`);
      return 2;
    }
    throw err;
  }
  try {
    if (config.workers > 1 && cluster.isPrimary) await runPrimary(config, createLogger(config.logLevel));
    else await serve(config);
    return 0;
  } catch (err) {
    const message = err instanceof StartupError ? err.message : `start-up failed: ${(err as Error).message}`;
    if (message) process.stderr.write(`svc: ${message.split('\n')[0]}\n`);
    await flushLogs();
    return 1;
  }
}

function readBundle(config: Config): Dataset {
  try {
    return readDatasetFile(config.datasetPath);
  } catch (err) {
    const e = err as Error;
    throw new StartupError(
      !fs.existsSync(config.datasetPath)
        ? `SVC_DATASET=${config.datasetPath} does not exist (point SVC_DATASET at a published dataset file)`
        : `SVC_DATASET=${config.datasetPath} cannot be loaded: ${e.message.split('\n')[0]}`,
    );
  }
}

/** A store that does not answer at start: one line naming it (a process manager restarts the service). */
async function withStore<T>(config: Config, what: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    throw new StartupError(
      `${what}: the store SVC_STORE_URL=${describeStore(config.store)} did not answer (${(err as Error).message.split('\n')[0]})`,
    );
  }
}

function openStore(config: Config): Store {
  try {
    return createStore(config.store);
  } catch (err) {
    throw new StartupError(
      `cannot open the store SVC_STORE_URL=${describeStore(config.store)}: ${(err as Error).message.split('\n')[0]}`,
    );
  }
}

/**
 * Before anything else asks Redis (its persistence check would read a dead server as one that refuses CONFIG):
 * a few PINGs over about three seconds, so a server still accepting the first connection is not refused.
 */
async function reachRedis(config: Config, store: RedisStore): Promise<void> {
  for (let attempt = 1; attempt <= 5; attempt++) {
    if (await store.ping()) return;
    await new Promise((r) => setTimeout(r, 200 * attempt));
  }
  throw new StartupError(
    `cannot reach the store: the store SVC_STORE_URL=${describeStore(config.store)} did not answer (no reply to PING)`,
  );
}

async function serve(config: Config): Promise<void> {
  const log = createLogger(config.logLevel);
  const bundle = readBundle(config);
  const store = instrumentStore(openStore(config));
  if (store instanceof RedisStore) {
    await reachRedis(config, store);
    // every worker checks (each refuses under "require"); only the first warns, so a warning shows once per start
    const quiet = { info: () => {}, warn: () => {} };
    await checkRedisDurability(store, config.redisDurability, (cluster.worker?.id ?? 1) === 1 ? log : quiet);
  }
  // The bundled file seeds the store's published versions; only its models newer than the published ones are taken.
  const taken = await withStore(config, 'cannot check the bundled dataset', () => takeBundle(store, bundle));
  log.info({ bundle: taken }, 'bundled dataset checked against the published versions');
  const dataset = await withStore(config, 'cannot read the published dataset', () =>
    openStoreDatasetSource(store, log, { pollMs: config.datasetPollMs }),
  );
  // Without a store the workers' mail counts are the primary's, as the rate limits' are (each worker's own memory
  // would let n workers send an address n times the cap).
  const mailCounter = !isStoreConfigured(store) && cluster.isWorker ? new PrimaryCounter() : store;
  const mailer = capPerRecipient(createMailer(config.email, log), mailCounter, {
    perDay: config.mailPerRecipientDay,
    exempt: config.email.admin,
    log,
  });
  const readiness = new Readiness();
  let closing = false;
  const audit = new AuditLog(store, { signingKey: config.signingKey });
  await certifyWithRetry(store, reportsDirOf(config.datasetPath), audit, log, readiness, {
    stopped: () => closing,
  });
  const app = await buildApp({ config, store, mailer, dataset, audit, readiness, loggerInstance: log });
  let worker: Worker | undefined;

  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), 10_000).unref();
    try {
      await worker?.stop();
      await app.close();
      dataset.close();
      await store.close();
    } finally {
      clearTimeout(force);
      await flushLogs();
      process.exit(0);
    }
  };
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  process.once('SIGINT', () => void shutdown('SIGINT'));

  try {
    await app.listen({ port: config.port, host: config.host });
  } catch (err) {
    closing = true;
    dataset.close();
    await store.close().catch(() => undefined);
    throw new StartupError(listenErrorMessage(err as NodeJS.ErrnoException, config.host, config.port));
  }
  // The evaluation worker runs in every serving process (each cluster worker too): its leases make that safe;
  // SVC_EVAL_WORKER=false leaves the jobs to `svc worker` processes.
  if (config.evalJobs.worker) worker = startWorker({ store, config, mailer, log: app.log });
  if (cluster.isWorker) shareWithPrimary();
  else if (config.metrics) {
    await startMetricsServer(config.metrics.port, config.metrics.host).catch((err: NodeJS.ErrnoException) => {
      throw new StartupError(
        `cannot serve metrics on ${config.metrics!.host}:${config.metrics!.port}: ${listenErrorMessage(err, config.metrics!.host, config.metrics!.port, METRICS_VARS)}`,
      );
    });
  }
  app.log.info({ store: config.store.kind, dataset: dataset.current().dataset.meta.version }, 'svc ready');
}
