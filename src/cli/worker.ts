/**
 * `svc worker`: run evaluation jobs from the store (SVC_STORE_URL) until SIGTERM/SIGINT, beside or instead of
 * the worker inside `svc serve` (SVC_EVAL_WORKER=false there). Any number may run against one store: leases
 * make each job run in one worker at a time (src/jobs/worker.ts).
 */
import pino from 'pino';
import { ConfigError, isStoreConfigured, loadConfig } from '../config.ts';
import { createMailer } from '../domain/email.ts';
import { startWorker } from '../jobs/worker.ts';
import { noArguments, openStore } from './store.ts';

export const USAGE =
  'usage: svc worker\n\nRuns evaluation jobs from the store until stopped. It takes no arguments: settings come from\n' +
  'the environment, e.g. SVC_STORE_URL=sqlite:data/svc.db svc worker (README, Evaluations).\n';

export async function run(args: string[]): Promise<number | undefined> {
  if (args[0] === '--help') {
    process.stdout.write(USAGE);
    return 0;
  }
  if (args.length > 0) return noArguments('worker', args[0]!, USAGE);
  let config;
  try {
    config = loadConfig(process.env);
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`svc worker: configuration error: ${err.message}\n`);
      return 2;
    }
    throw err;
  }
  if (!isStoreConfigured(config.store)) {
    process.stderr.write('svc worker: needs a store shared with the service (SVC_STORE_URL=sqlite:… or redis://…)\n');
    return 2;
  }
  const log = pino({ level: config.logLevel });
  const store = openStore(config.store, 'worker');
  const worker = startWorker({ store, config, mailer: createMailer(config.email, log), log });
  log.info({ store: config.store.kind }, 'svc worker ready');
  await new Promise<void>((resolve) => {
    process.once('SIGTERM', () => resolve());
    process.once('SIGINT', () => resolve());
  });
  await worker.stop();
  await store.close();
  return 0;
}
