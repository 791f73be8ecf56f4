/**
 * Helpers for tests that need Redis: the shared server on 127.0.0.1:6379 (or REDIS_URL). When it does not
 * answer, those tests skip with a message, unless SVC_REQUIRE_REDIS=1 (CI), where they fail.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Redis } from 'ioredis';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { openDatasetSource } from '../src/domain/dataset.ts';
import type { MailMessage, Mailer } from '../src/domain/email.ts';
import { RedisStore, type Store } from '../src/store/index.ts';
import { sampleDataset, silentLog, tmpDir } from './helpers.ts';

export const REDIS_URL = process.env.REDIS_URL || 'redis://127.0.0.1:6379';
const required = process.env.SVC_REQUIRE_REDIS === '1';

let cached: Promise<boolean> | undefined;

async function answers(url: string): Promise<boolean> {
  const c = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null, connectTimeout: 1000 });
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

/** `false` when the Redis tests may run; otherwise the skip message (for `{ skip }`). Throws when Redis is required. */
export async function redisSkip(): Promise<false | string> {
  cached ??= answers(REDIS_URL);
  if (await cached) return false;
  const msg = `Redis is not answering at ${REDIS_URL}: Redis tests skipped (set SVC_REQUIRE_REDIS=1 to make this a failure)`;
  if (required) throw new Error(`SVC_REQUIRE_REDIS=1 but Redis is not answering at ${REDIS_URL}`);
  console.warn(msg);
  return msg;
}

/** A store URL with a fresh key prefix, so tests never touch anyone else's keys. */
export function redisTestUrl(tag: string): string {
  const u = new URL(REDIS_URL);
  u.searchParams.set('prefix', `svctest:${tag}:${randomBytes(4).toString('hex')}:`);
  return u.toString();
}

/** An app over a given store and mailer, for the keys/waitlist/submit/rate-limit tests. */
export async function makeServiceApp(opts: {
  store: Store;
  mailer?: Mailer;
  env?: Record<string, string>;
  now?: () => number;
}) {
  const dir = tmpDir('svc-b-');
  const datasetFile = path.join(dir, 'leaderboard.json');
  fs.writeFileSync(datasetFile, JSON.stringify(sampleDataset()));
  const config = loadConfig({ SVC_DATASET: datasetFile, LOG_LEVEL: 'silent', ...opts.env }, dir);
  const sent: MailMessage[] = [];
  const mailer = opts.mailer ?? { send: async (m: MailMessage) => (sent.push(m), true) };
  const dataset = openDatasetSource(datasetFile, silentLog);
  const app = await buildApp({ config, store: opts.store, mailer, dataset, logger: false, now: opts.now });
  await app.ready();
  return {
    app,
    config,
    sent,
    async close() {
      await app.close();
      dataset.close();
      if (opts.store instanceof RedisStore) await opts.store.destroyAll().catch(() => {});
      await opts.store.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

let ipCounter = 0;
/** A fresh client address per call, so a test is not throttled by another's window. */
export function freshIp(): string {
  ipCounter += 1;
  return `198.51.${(ipCounter >> 8) & 255}.${ipCounter & 255}`;
}
