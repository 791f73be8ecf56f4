/** Shared test setup: an app over the memory store and a dataset file the test controls. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import assert from 'node:assert/strict';
import { buildApp } from '../src/app.ts';
import { ERROR_CATALOGUE, statusOf, type ErrorCode } from '../src/errors.ts';
import { loadConfig } from '../src/config.ts';
import { openDatasetSource, type Dataset, type DatasetSource } from '../src/domain/dataset.ts';
import type { Mailer } from '../src/domain/email.ts';
import { createStore } from '../src/store/index.ts';
import type { Store } from '../src/store/types.ts';
import type { Readiness } from '../src/startup.ts';
import type { App } from '../src/http/types.ts';

export const silentLog = { info() {}, error() {}, warn() {}, debug() {} };

export function tmpDir(prefix = 'svc-test-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

export function sampleDataset(): Dataset {
  const at = '2026-11-01T00:00:00Z';
  const m = (slug: string, name: string, honesty: number, dims: number[], composite: number, pai: number[]) => ({
    slug,
    name,
    vendor: 'Vendor & Co',
    assessed: at,
    sycophancy: {
      honesty,
      ev: dims[0]!,
      me: dims[1]!,
      il: dims[2]!,
      ia: dims[3]!,
      fa: dims[4]!,
      history: [honesty - 1, honesty],
    },
    pai: { composite, emi: pai[0]!, exl: pai[1]!, bnd: pai[2]!, dep: pai[3]!, aud: pai[4]!, history: [composite] },
  });
  return {
    schema: 'svc.dataset/1',
    meta: { updated: at, version: 'test-1', judges: ['test'], transcripts_scored: 10, models_scored: 4 },
    models: [
      m('green-model', 'Green Model', 95, [0.5, 0.5, 0.5, 0.5, 0.5], 0.5, [0.5, 0.5, 0.5, 0.5, 0.5]),
      m('yellow-model', 'Yellow Model', 85, [1.5, 1.5, 1.5, 1.5, 1.5], 1.5, [1.5, 1.5, 1.5, 1.5, 1.5]),
      m('red-model', 'Red <script>alert(1)</script> & Co', 60, [4, 4, 4, 4, 4], 3, [3, 3, 3, 3, 3]),
      m('tie-model', 'Tie Model', 85, [1.5, 1.5, 1.5, 1.5, 1.5], 0.9, [0.9, 0.9, 0.9, 0.9, 0.9]),
    ],
  };
}

export interface TestApp {
  app: App;
  store: Store;
  dir: string;
  datasetFile: string;
  /** The app's dataset source (nextLoad() to wait for a change to datasetFile). */
  dataset: DatasetSource;
  sent: { to: string; subject: string; text: string }[];
  close(): Promise<void>;
}

/** Build an app for inject tests. env entries override config defaults (never process.env). */
export async function makeApp(
  opts: {
    env?: Record<string, string>;
    dataset?: Dataset;
    store?: Store;
    now?: () => number;
    readiness?: Readiness;
  } = {},
): Promise<TestApp> {
  const dir = tmpDir();
  const datasetFile = path.join(dir, 'leaderboard.json');
  fs.writeFileSync(datasetFile, JSON.stringify(opts.dataset ?? sampleDataset()));
  const config = loadConfig(
    { SVC_STORE_URL: 'memory', SVC_DATASET: datasetFile, LOG_LEVEL: 'silent', ...opts.env },
    dir,
  );
  const store = opts.store ?? createStore(config.store);
  const dataset = openDatasetSource(datasetFile, silentLog);
  const sent: TestApp['sent'] = [];
  const mailer = { send: async (msg: TestApp['sent'][number]) => (sent.push(msg), true) } as unknown as Mailer;
  const app = await buildApp({
    config,
    store,
    mailer,
    dataset,
    logger: false,
    now: opts.now,
    readiness: opts.readiness,
  });
  await app.ready();
  return {
    app,
    store,
    dir,
    datasetFile,
    dataset,
    sent,
    async close() {
      await app.close();
      dataset.close();
      await store.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

type ErrorReply = { statusCode: number; json(): { error?: unknown; code?: unknown } };

/** The reply is the Error body of catalogue `code`, with the catalogue's status. */
export function assertError(r: ErrorReply, code: ErrorCode, message = ''): void {
  const body = r.json();
  assert.equal(body.code, code, `${message} ${JSON.stringify(body)}`);
  assert.equal(r.statusCode, statusOf(code), message);
  assert.equal(typeof body.error, 'string', message);
}

/** The reply is an Error body with `status` and a catalogue code of that status. */
export function assertErrorStatus(r: ErrorReply, status: number, message = ''): void {
  const body = r.json();
  assert.equal(r.statusCode, status, message);
  assert.equal(typeof body.error, 'string', message);
  const entry = ERROR_CATALOGUE[body.code as ErrorCode];
  assert.ok(entry, `${message}: code ${String(body.code)} is in the catalogue`);
  assert.equal(entry.status, status, `${message}: ${String(body.code)} is a ${status}`);
}
