/**
 * Helpers for tests that need Redis: the shared server on 127.0.0.1:6379 (or REDIS_URL). When it does not
 * answer, those tests skip with a message, unless SVC_REQUIRE_REDIS=1 (CI), where they fail.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Redis } from 'ioredis';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { openDatasetSource, writeDatasetFile } from '../src/domain/dataset.ts';
import { openStoreDatasetSource, takeBundle } from '../src/domain/publication.ts';
import type { MailMessage, Mailer } from '../src/domain/email.ts';
import { RedisStore, type Store } from '../src/store/index.ts';
import { sampleDataset, silentLog, tmpDir } from './helpers.ts';

export const REDIS_URL = process.env.REDIS_URL || 'redis://127.0.0.1:6379';
const required = process.env.SVC_REQUIRE_REDIS === '1';

let cached: Promise<boolean> | undefined;

async function answers(url: string): Promise<boolean> {
  const c = new Redis(url, {
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
    connectTimeout: 1000,
  });
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

/** A TCP port that was free a moment ago (for child processes that need a fixed port). */
export async function freePort(): Promise<number> {
  const net = await import('node:net');
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as import('node:net').AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

export interface Service {
  url: string;
  /** SIGTERM (clean shutdown) or SIGKILL (crash); resolves when the process has exited. */
  stop(signal?: NodeJS.Signals): Promise<void>;
}

/** Start `node bin/svc.js serve` on a fixed free port and wait until /healthz answers (up to ~45 s: start-up takes 10 s and more on the loaded 2-core machine). */
export async function startService(
  env: Record<string, string>,
  opts: { clockStartMs?: number } = {},
): Promise<Service> {
  const { spawn } = await import('node:child_process');
  const port = await freePort();
  const root = path.resolve(import.meta.dirname, '..');
  // The injected clock (test/fixtures/clock.mjs): the process's Date.now starts at clockStartMs.
  const clock =
    opts.clockStartMs === undefined ? [] : ['--import', pathToFileURL(path.join(root, 'test/fixtures/clock.mjs')).href];
  const proc = spawn(process.execPath, [...clock, path.join(root, 'bin/svc.js'), 'serve'], {
    cwd: root,
    env: {
      PATH: process.env.PATH ?? '',
      HOST: '127.0.0.1',
      PORT: String(port),
      LOG_LEVEL: 'error',
      SVC_DATASET: path.join(root, 'dataset/leaderboard.json'),
      ...(opts.clockStartMs !== undefined && { SVC_TEST_CLOCK_START_MS: String(opts.clockStartMs) }),
      ...env,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  proc.stderr!.on('data', (c) => (stderr += c));
  const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  // Start-up takes a few seconds alone and much longer on a loaded 2-core machine: wait for the process to answer
  // or exit, with a generous deadline rather than a count of polls.
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (proc.exitCode !== null || proc.signalCode !== null) throw new Error(`svc exited during start-up: ${stderr}`);
    try {
      await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(1000) });
      break;
    } catch {
      if (Date.now() > deadline) {
        proc.kill('SIGKILL');
        throw new Error(`svc did not answer on ${url}: ${stderr}`);
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  return {
    url,
    async stop(signal = 'SIGTERM') {
      if (proc.exitCode === null && proc.signalCode === null) proc.kill(signal);
      await exited;
    },
  };
}

/**
 * An app over `store` as \`svc serve\` runs it for evaluation jobs: the sample dataset seeded into the store and
 * served from it (polled every 50 ms), private endpoints allowed (the fake models listen on loopback), a 3 s lease,
 * emails collected in `sent`. The shared set-up of the jobs and model-page-examples tests.
 */
export async function evalApp(
  store: Store,
  opts: { prefix: string; env?: Record<string, string>; sent?: MailMessage[] },
) {
  const dir = tmpDirFor(opts.prefix);
  const bundleFile = path.join(dir, 'leaderboard.json');
  writeDatasetFile(bundleFile, sampleDataset());
  const config = loadConfig(
    {
      SVC_DATASET: bundleFile,
      LOG_LEVEL: 'silent',
      SVC_EVAL_ALLOW_PRIVATE: 'true',
      SVC_EVAL_LEASE_MS: '3000',
      ...opts.env,
    },
    dir,
  );
  await takeBundle(store, sampleDataset());
  const dataset = await openStoreDatasetSource(store, silentLog, { pollMs: 50 });
  const sent = opts.sent ?? [];
  const mailer = { send: async (m: MailMessage) => (sent.push(m), true) };
  const app = await buildApp({ config, store, mailer, dataset, logger: false });
  await app.ready();
  return { dir, config, app, dataset, sent, mailer };
}

/** A temporary folder removed when the test process exits. */
export function tmpDirFor(prefix: string): string {
  const dir = tmpDir(prefix);
  process.once('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}
