/**
 * Start-up and shut-down: read config once, build the store, mailer and dataset source, build the app,
 * listen; on SIGTERM/SIGINT stop accepting, finish in-flight requests, close the store, exit.
 */
import pino from 'pino';
import { buildApp } from './app.ts';
import { auditLogFor } from './audit/log.ts';
import { ConfigError, loadConfig, type Config } from './config.ts';
import { readDatasetFile } from './domain/dataset.ts';
import { openStoreDatasetSource, takeBundle } from './domain/publication.ts';
import { ensureBundledReports, reportsDirOf } from './domain/reports.ts';
import { createMailer } from './domain/email.ts';
import { startWorker, type Worker } from './jobs/worker.ts';
import { createStore } from './store/index.ts';

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
  const log = pino({ level: config.logLevel });
  const bundle = readDatasetFile(config.datasetPath);
  const store = createStore(config.store);
  // The bundled file seeds the store's published versions; only its models newer than the published ones are taken.
  log.info({ bundle: await takeBundle(store, bundle) }, 'bundled dataset checked against the published versions');
  const dataset = await openStoreDatasetSource(store, log, { pollMs: config.datasetPollMs });
  const mailer = createMailer(config.email, log);
  await ensureBundledReports(store, reportsDirOf(config.datasetPath), auditLogFor(store, config.signingKey)).then(
    (r) => log.info(r, 'bundled reports are in the store and the audit log'),
    (err: Error) => log.error({ err: err.message }, 'could not certify the bundled reports'),
  );
  const app = await buildApp({ config, store, mailer, dataset });

  let worker: Worker | undefined;
  let closing = false;
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
      process.exit(0);
    }
  };
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  process.once('SIGINT', () => void shutdown('SIGINT'));

  await app.listen({ port: config.port, host: config.host });
  // The evaluation worker (SVC_EVAL_WORKER=false leaves the jobs to `svc worker` processes).
  if (config.evalJobs.worker) worker = startWorker({ store, config, mailer, log: app.log });
  app.log.info({ store: config.store.kind, dataset: dataset.current().dataset.meta.version }, 'svc ready');
  return 0;
}
