/**
 * The SQLite store: one embedded file, WAL journal with synchronous=FULL, so a write is on disk before its
 * promise resolves and survives a crash of the process or the machine. Several processes may open the same
 * file: every read-modify-write runs in one IMMEDIATE transaction (or one statement), and busy_timeout makes
 * a writer wait for the others instead of failing.
 *
 * The per-request counters (rate-limit hits and taking a call from a key's allowance) are the one exception
 * to synchronous=FULL: they use a second connection with synchronous=NORMAL (still WAL, still atomic, still
 * exact across processes), about 10x cheaper per write. A killed process loses nothing; a power cut may
 * forget the last moments of counts, which only lets a client a few calls more. Key records, the waitlist,
 * submissions, reports and the log stay FULL.
 *
 * Write path under load:
 * - A request's counters (its rate-limit window and, with a key, the call taken from the allowance) are written
 *   in one transaction (hitAndConsume). Every counter write runs inside an explicit transaction, so a COMMIT that
 *   fails (disk full, I/O error) throws: `.get()` on a bare `INSERT … RETURNING` returned the row even when the
 *   autocommit failed, and the limiter admitted everyone while nothing was counted.
 * - Checkpoints never run on the event loop: both connections have wal_autocheckpoint off, and a worker thread
 *   with its own connection runs `wal_checkpoint(PASSIVE)` every 200 ms (PASSIVE never waits for writers), so a
 *   commit never pays for copying the WAL into the database or for its fsync. journal_size_limit (16 MB) truncates
 *   the WAL file when it is reset, so it stays bounded instead of growing to hundreds of MB.
 */
import path from 'node:path';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { AppError } from '../../errors.ts';
import {
  type ApiKeyRecord,
  type EvalJob,
  type JobPatch,
  type JobProgress,
  queuedJob,
  type Store,
  type StoreOptions,
  type SubmissionRecord,
  type WaitlistEntry,
} from '../types.ts';
import { makeDirs } from '../../files.ts';

const WAL_LIMIT_BYTES = 16 * 1024 * 1024;
/** Expired rate-limit windows: at most SWEEP_BATCH rows deleted every SWEEP_EVERY_MS. */
const SWEEP_BATCH = 500;
const SWEEP_EVERY_MS = 1000;

/**
 * A counter write that could not commit (a full disk, an I/O error, a lock held too long) as the store-failure error
 * every store throws (the Redis store does the same), so the rate limiter applies SVC_LIMIT_ON_STORE_ERROR to it
 * and the error handler answers store_unavailable; the driver's message is kept as the cause, for the log only.
 */
function unavailable(err: unknown): AppError {
  if (err instanceof AppError) return err;
  const e = new AppError('store_unavailable', 'The data store could not record the request; try again shortly.', {
    detail: 'store unavailable',
  });
  e.cause = err;
  return e;
}

/**
 * One counter write: count a hit in a window; when cap >= 0 and the hit is within it, take a call from keyHash; with
 * refill, on the window's first hit, refill keyHash's allowance.
 */
interface CounterOp {
  key: string;
  resetMs: number;
  cap: number;
  keyHash: string;
  refill: boolean;
}
interface CounterResult {
  count: number;
  callsRemaining: number | null;
}
const CHECKPOINT_EVERY_MS = 200;

/**
 * The checkpointing thread: plain JavaScript (worker threads do not get the TypeScript loader), with its own
 * connection to the file. PASSIVE copies what it can without waiting for any writer or reader. On 'stop' it ends its
 * timer and connection and exits by itself: terminating it from outside can land while a failing checkpoint (a full
 * disk) is building its error, which aborts the whole process in the driver.
 */
const CHECKPOINTER = `
const { workerData, parentPort } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file);
db.pragma('busy_timeout = 1000');
db.pragma('journal_size_limit = ' + workerData.limit);
const timer = setInterval(() => {
  try { db.pragma('wal_checkpoint(PASSIVE)'); } catch {}
}, workerData.every);
parentPort.on('message', (m) => {
  if (m !== 'stop') return;
  clearInterval(timer);
  try { db.close(); } catch {}
  parentPort.close();
});
`;
/** How long close() waits for the checkpointer to stop by itself before terminating it. */
const CHECKPOINTER_STOP_MS = 2000;

interface Checkpointer {
  worker: Worker;
  exited: Promise<void>;
}

function startCheckpointer(file: string, onLost: () => void): Checkpointer {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(CHECKPOINTER, {
    eval: true,
    workerData: { file, driver, limit: WAL_LIMIT_BYTES, every: CHECKPOINT_EVERY_MS },
  });
  worker.on('error', onLost);
  worker.unref();
  return { worker, exited: new Promise((resolve) => worker.once('exit', () => resolve())) };
}

/** Ask the checkpointer to stop and wait for it; terminate it only if it does not stop in time. */
async function stopCheckpointer(c: Checkpointer): Promise<void> {
  c.worker.postMessage('stop');
  const late = setTimeout(() => void c.worker.terminate(), CHECKPOINTER_STOP_MS);
  await c.exited;
  clearTimeout(late);
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS rate_limits (key TEXT PRIMARY KEY, count INTEGER NOT NULL, reset_ms INTEGER NOT NULL) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS rate_limits_reset ON rate_limits(reset_ms);
CREATE TABLE IF NOT EXISTS api_keys (
  hash TEXT PRIMARY KEY, id TEXT NOT NULL UNIQUE, email TEXT NOT NULL, name TEXT, organization TEXT,
  plan TEXT NOT NULL, created_at TEXT NOT NULL, rate_limit INTEGER NOT NULL, calls_remaining INTEGER NOT NULL,
  active INTEGER NOT NULL, revoked INTEGER NOT NULL, verify_token_hash TEXT);
CREATE INDEX IF NOT EXISTS api_keys_token ON api_keys(verify_token_hash) WHERE verify_token_hash IS NOT NULL;
CREATE TABLE IF NOT EXISTS waitlist (
  position INTEGER PRIMARY KEY, email_lower TEXT NOT NULL UNIQUE, email TEXT NOT NULL, name TEXT,
  organization TEXT, use_case TEXT, source TEXT, created_at TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS submissions (
  id INTEGER PRIMARY KEY, model_name TEXT NOT NULL, vendor TEXT NOT NULL, api_endpoint TEXT NOT NULL,
  contact_email TEXT NOT NULL, notes TEXT, model_slug TEXT, created_at TEXT NOT NULL, status TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS submissions_status ON submissions(status, id);
CREATE TABLE IF NOT EXISTS reports (hash TEXT PRIMARY KEY, json TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS log_leaves (idx INTEGER PRIMARY KEY, hash TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS log_leaves_hash ON log_leaves(hash, idx);
CREATE TABLE IF NOT EXISTS checkpoints (size INTEGER PRIMARY KEY, json TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS settings (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS jobs (id INTEGER PRIMARY KEY, state TEXT NOT NULL, lease_until INTEGER, json TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS jobs_state ON jobs(state, id);
CREATE TABLE IF NOT EXISTS job_conversations (
  job_id INTEGER NOT NULL, key TEXT NOT NULL, seq INTEGER NOT NULL, json TEXT NOT NULL, PRIMARY KEY (job_id, key));
CREATE TABLE IF NOT EXISTS dataset_current (id INTEGER PRIMARY KEY CHECK (id = 1), seq INTEGER NOT NULL, json TEXT NOT NULL);
`;

/** Run `fn` again while it throws SQLITE_BUSY, for at most `ms`, waiting 10-100 ms between tries (synchronously). */
function retryBusy<T>(fn: () => T, ms: number): T {
  const deadline = Date.now() + ms;
  for (let wait = 10; ; wait = Math.min(100, wait * 2)) {
    try {
      return fn();
    } catch (err) {
      if ((err as { code?: string }).code !== 'SQLITE_BUSY' || Date.now() + wait > deadline) throw err;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, wait);
    }
  }
}

/** Columns added after the first release, for files created before them. */
const MIGRATIONS: [table: string, column: string, ddl: string][] = [
  ['submissions', 'status_token_hash', 'ALTER TABLE submissions ADD COLUMN status_token_hash TEXT'],
  // Score reports' lifetime (ms since the epoch); NULL = kept for good (certified reports).
  ['reports', 'expires_ms', 'ALTER TABLE reports ADD COLUMN expires_ms INTEGER'],
];
const LATE_INDEXES =
  'CREATE UNIQUE INDEX IF NOT EXISTS submissions_token ON submissions(status_token_hash) WHERE status_token_hash IS NOT NULL;' +
  'CREATE INDEX IF NOT EXISTS reports_expiry ON reports(expires_ms) WHERE expires_ms IS NOT NULL;';

interface KeyRow {
  hash: string;
  id: string;
  email: string;
  name: string | null;
  organization: string | null;
  plan: string;
  created_at: string;
  rate_limit: number;
  calls_remaining: number;
  active: number;
  revoked: number;
  verify_token_hash: string | null;
}
interface WaitRow {
  position: number;
  email: string;
  name: string | null;
  organization: string | null;
  use_case: string | null;
  source: string | null;
  created_at: string;
}
interface SubRow {
  id: number;
  model_name: string;
  vendor: string;
  api_endpoint: string;
  contact_email: string;
  notes: string | null;
  model_slug: string | null;
  created_at: string;
  status: SubmissionRecord['status'];
  status_token_hash: string | null;
}

function keyFromRow(r: KeyRow): ApiKeyRecord {
  const rec: ApiKeyRecord = {
    id: r.id,
    hash: r.hash,
    email: r.email,
    plan: r.plan,
    createdAt: r.created_at,
    rateLimit: r.rate_limit,
    callsRemaining: r.calls_remaining,
    active: r.active === 1,
    revoked: r.revoked === 1,
  };
  if (r.name !== null) rec.name = r.name;
  if (r.organization !== null) rec.organization = r.organization;
  if (r.verify_token_hash !== null) rec.verifyTokenHash = r.verify_token_hash;
  return rec;
}

function waitFromRow(r: WaitRow): WaitlistEntry & { position: number } {
  const e: WaitlistEntry & { position: number } = { email: r.email, createdAt: r.created_at, position: r.position };
  if (r.name !== null) e.name = r.name;
  if (r.organization !== null) e.organization = r.organization;
  if (r.use_case !== null) e.useCase = r.use_case;
  if (r.source !== null) e.source = r.source;
  return e;
}

function subFromRow(r: SubRow): SubmissionRecord {
  const s: SubmissionRecord = {
    id: r.id,
    modelName: r.model_name,
    vendor: r.vendor,
    apiEndpoint: r.api_endpoint,
    contactEmail: r.contact_email,
    createdAt: r.created_at,
    status: r.status,
  };
  if (r.notes !== null) s.notes = r.notes;
  if (r.model_slug !== null) s.modelSlug = r.model_slug;
  if (r.status_token_hash !== null) s.statusTokenHash = r.status_token_hash;
  return s;
}

export class SqliteStore implements Store {
  /** See KeyStore.keyVersion. */
  keyVersion = 0;
  readonly kind = 'sqlite' as const;
  private readonly db: Database.Database;
  private readonly counters: Database.Database;
  private pending: (CounterOp & { resolve(r: CounterResult): void; reject(e: unknown): void })[] = [];
  private readonly sweeper: NodeJS.Timeout;
  /** The latest clock reading a counter write was made with: the sweeper's "now" (callers may inject a clock). */
  private latestNowMs = 0;
  private readonly q;
  private readonly checkpointer: Checkpointer | undefined;
  /** One transaction for a batch of counter writes (see enqueue). */
  private readonly txBatch: (batch: readonly CounterOp[]) => CounterResult[];

  private readonly now: () => number;

  constructor(file: string, opts: StoreOptions = {}) {
    this.now = opts.now ?? Date.now;
    if (file !== ':memory:') makeDirs(path.dirname(file));
    this.db = new Database(file);
    this.db.pragma('busy_timeout = 5000');
    // Switching a new file to WAL needs an exclusive lock, and SQLite answers SQLITE_BUSY at once (not through the
    // busy handler) when another process is doing the same (SVC_WORKERS > 1 opening a new file): retry briefly.
    retryBusy(() => this.db.pragma('journal_mode = WAL'), 5000);
    this.db.pragma('synchronous = FULL');
    // Schema and migrations in one IMMEDIATE transaction: processes opening a new file at once (SVC_WORKERS > 1)
    // take turns, so a column is added once (the second ALTER used to fail with "duplicate column name").
    this.db
      .transaction(() => {
        this.db.exec(SCHEMA);
        for (const [table, column, ddl] of MIGRATIONS) {
          const cols = this.db.prepare(`PRAGMA table_info(${table})`).all() as { name: string }[];
          if (!cols.some((c) => c.name === column)) this.db.exec(ddl);
        }
        this.db.exec(LATE_INDEXES);
      })
      .immediate();
    if (file === ':memory:') this.counters = this.db;
    else {
      this.counters = new Database(file);
      this.counters.pragma('busy_timeout = 5000');
      this.counters.pragma('synchronous = NORMAL');
      for (const c of [this.db, this.counters]) {
        c.pragma('wal_autocheckpoint = 0');
        c.pragma(`journal_size_limit = ${WAL_LIMIT_BYTES}`);
      }
      this.checkpointer = startCheckpointer(file, () => {
        // No checkpointing thread: checkpoint inline again rather than let the WAL grow without end.
        for (const c of [this.db, this.counters]) if (c.open) c.pragma('wal_autocheckpoint = 1000');
      });
    }
    const db = this.db;
    this.q = {
      hit: this.counters.prepare<[string, number], { count: number }>(
        `INSERT INTO rate_limits(key, count, reset_ms) VALUES (?, 1, ?)
         ON CONFLICT(key) DO UPDATE SET count = CASE WHEN reset_ms = excluded.reset_ms THEN count + 1 ELSE 1 END,
         reset_ms = excluded.reset_ms RETURNING count`,
      ),
      sweep: this.counters.prepare<[number, number]>(
        'DELETE FROM rate_limits WHERE key IN (SELECT key FROM rate_limits WHERE reset_ms <= ? LIMIT ?)',
      ),
      activeKeysOf: db.prepare<[string], { n: number }>(
        'SELECT COUNT(*) AS n FROM api_keys WHERE lower(email) = ? AND revoked = 0',
      ),
      insertKey: db.prepare(
        `INSERT INTO api_keys(hash, id, email, name, organization, plan, created_at, rate_limit, calls_remaining, active, revoked, verify_token_hash)
         VALUES (@hash, @id, @email, @name, @organization, @plan, @createdAt, @rateLimit, @callsRemaining, @active, @revoked, @verifyTokenHash)`,
      ),
      keyByHash: db.prepare<[string], KeyRow>('SELECT * FROM api_keys WHERE hash = ?'),
      keyByToken: db.prepare<[string], KeyRow>('SELECT * FROM api_keys WHERE verify_token_hash = ?'),
      consume: this.counters.prepare<{ hash: string; n: number }, { calls_remaining: number }>(
        'UPDATE api_keys SET calls_remaining = calls_remaining - @n WHERE hash = @hash AND calls_remaining >= @n RETURNING calls_remaining',
      ),
      refill: this.counters.prepare<[string]>(
        'UPDATE api_keys SET calls_remaining = rate_limit WHERE hash = ? AND calls_remaining < rate_limit',
      ),
      listKeys: db.prepare<[], KeyRow>('SELECT * FROM api_keys ORDER BY created_at, id'),
      activate: db.prepare<[string]>('UPDATE api_keys SET active = 1, verify_token_hash = NULL WHERE hash = ?'),
      waitByEmail: db.prepare<[string], { position: number }>('SELECT position FROM waitlist WHERE email_lower = ?'),
      insertWait: db.prepare(
        `INSERT INTO waitlist(email_lower, email, name, organization, use_case, source, created_at)
         VALUES (@emailLower, @email, @name, @organization, @useCase, @source, @createdAt)`,
      ),
      listWait: db.prepare<[], WaitRow>('SELECT * FROM waitlist ORDER BY position'),
      lastSubId: db.prepare<[], { id: number | null }>('SELECT MAX(id) AS id FROM submissions'),
      insertSub: db.prepare(
        `INSERT INTO submissions(id, model_name, vendor, api_endpoint, contact_email, notes, model_slug, created_at, status, status_token_hash)
         VALUES (@id, @modelName, @vendor, @apiEndpoint, @contactEmail, @notes, @modelSlug, @createdAt, 'pending', @statusTokenHash)`,
      ),
      listSubs: db.prepare<[], SubRow>('SELECT * FROM submissions ORDER BY id'),
      subById: db.prepare<[number], SubRow>('SELECT * FROM submissions WHERE id = ?'),
      subByToken: db.prepare<[string], SubRow>('SELECT * FROM submissions WHERE status_token_hash = ?'),
      setSubStatus: db.prepare<[string, number]>('UPDATE submissions SET status = ? WHERE id = ?'),
      jobById: db.prepare<[number], { json: string }>('SELECT json FROM jobs WHERE id = ?'),
      listJobs: db.prepare<[], { json: string }>('SELECT json FROM jobs ORDER BY id'),
      nextLeasable: db.prepare<[number], { json: string }>(
        `SELECT json FROM jobs WHERE state = 'queued' OR (state = 'running' AND lease_until <= ?) ORDER BY id LIMIT 1`,
      ),
      putJob: db.prepare<[number, string, number | null, string]>(
        'INSERT OR REPLACE INTO jobs(id, state, lease_until, json) VALUES (?, ?, ?, ?)',
      ),
      dropConvs: db.prepare<[number]>('DELETE FROM job_conversations WHERE job_id = ?'),
      putConv: db.prepare<[{ id: number; key: string; json: string }]>(
        `INSERT OR IGNORE INTO job_conversations(job_id, key, seq, json)
         VALUES (@id, @key, (SELECT COUNT(*) FROM job_conversations WHERE job_id = @id), @json)`,
      ),
      listConvs: db.prepare<[number], { key: string; json: string }>(
        'SELECT key, json FROM job_conversations WHERE job_id = ? ORDER BY seq',
      ),
      datasetSeq: db.prepare<[], { seq: number }>('SELECT seq FROM dataset_current WHERE id = 1'),
      getDataset: db.prepare<[], { seq: number; json: string }>('SELECT seq, json FROM dataset_current WHERE id = 1'),
      putDataset: db.prepare<[number, string]>(
        'INSERT OR REPLACE INTO dataset_current(id, seq, json) VALUES (1, ?, ?)',
      ),
      // A report stored again keeps the longer lifetime; kept for good (NULL) wins. An expired row not yet swept
      // is a new report.
      putReport: db.prepare<[{ hash: string; json: string; exp: number | null; now: number }]>(
        `INSERT INTO reports(hash, json, expires_ms) VALUES (@hash, @json, @exp)
         ON CONFLICT(hash) DO UPDATE SET expires_ms = CASE
           WHEN reports.expires_ms IS NOT NULL AND reports.expires_ms <= @now THEN excluded.expires_ms
           WHEN reports.expires_ms IS NULL OR excluded.expires_ms IS NULL THEN NULL
           ELSE max(reports.expires_ms, excluded.expires_ms) END`,
      ),
      getReport: db.prepare<[string, number], { json: string }>(
        'SELECT json FROM reports WHERE hash = ? AND (expires_ms IS NULL OR expires_ms > ?)',
      ),
      reportsByPrefix: db.prepare<[string, string, number, number], { hash: string }>(
        'SELECT hash FROM reports WHERE hash >= ? AND hash < ? AND (expires_ms IS NULL OR expires_ms > ?) ORDER BY hash LIMIT ?',
      ),
      anyExpiredReport: db.prepare<[number], { x: number }>('SELECT 1 AS x FROM reports WHERE expires_ms <= ? LIMIT 1'),
      anyExpiredWindow: this.counters.prepare<[number], { x: number }>(
        'SELECT 1 AS x FROM rate_limits WHERE reset_ms <= ? LIMIT 1',
      ),
      sweepReports: db.prepare<[number, number]>(
        'DELETE FROM reports WHERE hash IN (SELECT hash FROM reports WHERE expires_ms <= ? LIMIT ?)',
      ),
      logSize: db.prepare<[], { n: number }>('SELECT COALESCE(MAX(idx) + 1, 0) AS n FROM log_leaves'),
      insertLeaf: db.prepare<[number, string]>('INSERT INTO log_leaves(idx, hash) VALUES (?, ?)'),
      leaves: db.prepare<[number, number], { hash: string }>(
        'SELECT hash FROM log_leaves WHERE idx >= ? AND idx < ? ORDER BY idx',
      ),
      findLeaf: db.prepare<[string], { idx: number | null }>('SELECT MIN(idx) AS idx FROM log_leaves WHERE hash = ?'),
      putCheckpoint: db.prepare<[number, string]>('INSERT OR REPLACE INTO checkpoints(size, json) VALUES (?, ?)'),
      getCheckpoint: db.prepare<[number], { json: string }>('SELECT json FROM checkpoints WHERE size = ?'),
      insertSetting: db.prepare<[string, string]>('INSERT OR IGNORE INTO settings(key, value) VALUES (?, ?)'),
      getSetting: db.prepare<[string], { value: string }>('SELECT value FROM settings WHERE key = ?'),
    };
    const q = this.q;
    this.txBatch = this.counters.transaction((batch: readonly CounterOp[]) =>
      batch.map((op): CounterResult => {
        const count = q.hit.get(op.key, op.resetMs)!.count;
        if (op.refill && count === 1 && q.refill.run(op.keyHash).changes > 0) this.keyVersion++;
        const callsRemaining =
          op.cap >= 0 && count <= op.cap ? (q.consume.get({ hash: op.keyHash, n: 1 })?.calls_remaining ?? -1) : null;
        return { count, callsRemaining };
      }),
    );
    // Expired windows and score reports go in small batches from a timer, never on a request's path.
    this.sweeper = setInterval(() => {
      try {
        if (this.latestNowMs > 0) this.sweepRateLimits(this.latestNowMs);
        this.sweepReports();
      } catch {
        // a busy or full file: the next turn tries again
      }
    }, SWEEP_EVERY_MS);
    this.sweeper.unref();
  }

  async hit(key: string, windowMs: number, nowMs: number): Promise<{ count: number; resetMs: number }> {
    const resetMs = Math.floor(nowMs / windowMs) * windowMs + windowMs;
    const { count } = await this.enqueue(`${windowMs}:${key}`, resetMs, -1, '', nowMs);
    return { count, resetMs };
  }

  async hitAndConsume(
    key: string,
    windowMs: number,
    nowMs: number,
    cap: number,
    keyHash: string,
  ): Promise<{ count: number; resetMs: number; callsRemaining: number | null }> {
    const resetMs = Math.floor(nowMs / windowMs) * windowMs + windowMs;
    const { count, callsRemaining } = await this.enqueue(`${windowMs}:${key}`, resetMs, cap, keyHash, nowMs);
    return { count, resetMs, callsRemaining };
  }

  async hitAndRefill(
    key: string,
    windowMs: number,
    nowMs: number,
    keyHash: string,
  ): Promise<{ count: number; resetMs: number }> {
    const resetMs = Math.floor(nowMs / windowMs) * windowMs + windowMs;
    // in the same counter transaction as the hit (the counters connection writes api_keys.calls_remaining too)
    const { count } = await this.enqueue(`${windowMs}:${key}`, resetMs, -1, keyHash, nowMs, true);
    return { count, resetMs };
  }

  /**
   * Group commit: the counter writes asked for during one turn of the event loop are written in one transaction
   * at its end (setImmediate), each in order, with its own result. Under load that is one COMMIT (and one set of
   * WAL pages) for every request that arrived together instead of one per request: the WAL grew by about 12 MB/s
   * at 1,000 keyed requests per second, faster than checkpoints could reset it. Nothing is answered before its
   * count is committed, and a COMMIT that fails rejects every write of the batch, so the limiter's store-failure
   * policy applies to each.
   */
  private enqueue(
    key: string,
    resetMs: number,
    cap: number,
    keyHash: string,
    nowMs: number,
    refill = false,
  ): Promise<CounterResult> {
    if (nowMs > this.latestNowMs) this.latestNowMs = nowMs;
    return new Promise((resolve, reject) => {
      this.pending.push({ key, resetMs, cap, keyHash, refill, resolve, reject });
      if (this.pending.length === 1) setImmediate(this.flush);
    });
  }

  private readonly flush = (): void => {
    const batch = this.pending;
    this.pending = [];
    let results: CounterResult[];
    try {
      results = this.txBatch(batch);
    } catch (err) {
      const e = unavailable(err);
      for (const op of batch) op.reject(e);
      return;
    }
    for (let i = 0; i < batch.length; i++) batch[i]!.resolve(results[i]!);
  };

  /** Delete expired score reports, at most `limit` rows; returns how many went. */
  sweepReports(limit = SWEEP_BATCH): number {
    const now = this.now();
    // A read first: no write lock (and no commit) on the shared file when there is nothing to delete.
    if (!this.db.open || !this.q.anyExpiredReport.get(now)) return 0;
    return this.q.sweepReports.run(now, limit).changes;
  }

  /** Delete expired rate-limit windows, at most `limit` rows; returns how many went. */
  sweepRateLimits(nowMs: number, limit = SWEEP_BATCH): number {
    if (!this.counters.open || !this.q.anyExpiredWindow.get(nowMs)) return 0;
    return this.q.sweep.run(nowMs, limit).changes;
  }

  async createKey(rec: ApiKeyRecord): Promise<void> {
    this.insertKey(rec);
  }

  private insertKey(rec: ApiKeyRecord): void {
    this.q.insertKey.run({
      ...rec,
      name: rec.name ?? null,
      organization: rec.organization ?? null,
      verifyTokenHash: rec.verifyTokenHash ?? null,
      active: rec.active ? 1 : 0,
      revoked: rec.revoked ? 1 : 0,
    });
  }

  async createKeyCapped(rec: ApiKeyRecord, cap: number): Promise<{ created: boolean; held: number }> {
    // IMMEDIATE: the write lock is taken before the count, so processes sharing the file (SVC_WORKERS > 1) take turns
    return this.db
      .transaction(() => {
        const held = this.q.activeKeysOf.get(rec.email.toLowerCase())?.n ?? 0;
        if (held >= cap) return { created: false, held };
        this.insertKey(rec);
        return { created: true, held };
      })
      .immediate();
  }

  async getKeyByHash(hash: string): Promise<ApiKeyRecord | null> {
    const row = this.q.keyByHash.get(hash);
    return row ? keyFromRow(row) : null;
  }

  async consumeCall(hash: string, n = 1): Promise<number> {
    try {
      return this.counters.transaction(() => this.q.consume.get({ hash, n })?.calls_remaining ?? -1)();
    } catch (err) {
      throw unavailable(err);
    }
  }

  async listKeys(): Promise<ApiKeyRecord[]> {
    return this.q.listKeys.all().map(keyFromRow);
  }

  async updateKey(id: string, patch: Parameters<Store['updateKey']>[1]): Promise<boolean> {
    this.keyVersion++;
    const cols: string[] = [];
    const vals: (string | number | null)[] = [];
    const set = (col: string, v: string | number | null) => (cols.push(`${col} = ?`), vals.push(v));
    if (patch.revoked !== undefined) set('revoked', patch.revoked ? 1 : 0);
    if (patch.active !== undefined) set('active', patch.active ? 1 : 0);
    if (patch.callsRemaining !== undefined) set('calls_remaining', patch.callsRemaining);
    if (patch.rateLimit !== undefined) set('rate_limit', patch.rateLimit);
    if ('verifyTokenHash' in patch) set('verify_token_hash', patch.verifyTokenHash ?? null);
    if (cols.length === 0) return this.db.prepare('SELECT 1 FROM api_keys WHERE id = ?').get(id) !== undefined;
    const info = this.db.prepare(`UPDATE api_keys SET ${cols.join(', ')} WHERE id = ?`).run(...vals, id);
    return info.changes === 1;
  }

  async activateByToken(tokenHash: string): Promise<ApiKeyRecord | null> {
    this.keyVersion++;
    return this.db
      .transaction(() => {
        const row = this.q.keyByToken.get(tokenHash);
        if (!row) return null;
        this.q.activate.run(row.hash);
        return keyFromRow({ ...row, active: 1, verify_token_hash: null });
      })
      .immediate();
  }

  async joinWaitlist(entry: WaitlistEntry): Promise<{ created: boolean; position: number }> {
    const emailLower = entry.email.toLowerCase();
    return this.db
      .transaction(() => {
        const existing = this.q.waitByEmail.get(emailLower);
        if (existing) return { created: false, position: existing.position };
        const info = this.q.insertWait.run({
          emailLower,
          email: entry.email,
          name: entry.name ?? null,
          organization: entry.organization ?? null,
          useCase: entry.useCase ?? null,
          source: entry.source ?? null,
          createdAt: entry.createdAt,
        });
        return { created: true, position: Number(info.lastInsertRowid) };
      })
      .immediate();
  }

  async listWaitlist(): Promise<(WaitlistEntry & { position: number })[]> {
    return this.q.listWait.all().map(waitFromRow);
  }

  async addSubmission(rec: Omit<SubmissionRecord, 'id' | 'status'>, nowMs: number): Promise<SubmissionRecord> {
    return this.db
      .transaction(() => {
        const last = this.q.lastSubId.get()?.id ?? 0;
        const id = Math.max(Math.floor(nowMs), last + 1);
        this.q.insertSub.run({
          ...rec,
          id,
          notes: rec.notes ?? null,
          modelSlug: rec.modelSlug ?? null,
          statusTokenHash: rec.statusTokenHash ?? null,
        });
        return { ...rec, id, status: 'pending' as const };
      })
      .immediate();
  }

  async listSubmissions(): Promise<SubmissionRecord[]> {
    return this.q.listSubs.all().map(subFromRow);
  }

  async getSubmission(id: number): Promise<SubmissionRecord | null> {
    const row = this.q.subById.get(id);
    return row ? subFromRow(row) : null;
  }

  async getSubmissionByStatusToken(tokenHash: string): Promise<SubmissionRecord | null> {
    const row = this.q.subByToken.get(tokenHash);
    return row ? subFromRow(row) : null;
  }

  async rejectSubmission(id: number): Promise<boolean> {
    const info = this.db
      .prepare("UPDATE submissions SET status = 'rejected' WHERE id = ? AND status IN ('pending', 'failed')")
      .run(id);
    return info.changes === 1;
  }

  private readJob(id: number): EvalJob | undefined {
    const row = this.q.jobById.get(id);
    return row ? (JSON.parse(row.json) as EvalJob) : undefined;
  }

  private writeJob(job: EvalJob): void {
    this.q.putJob.run(job.id, job.state, job.leaseUntil ?? null, JSON.stringify(job));
  }

  /** Read a job held by `owner`, change it, write it back, in one IMMEDIATE transaction; false when not held. */
  private withHeld(id: number, owner: string, change: (job: EvalJob) => void): boolean {
    return this.db
      .transaction(() => {
        const job = this.readJob(id);
        if (job?.state !== 'running' || job.leaseOwner !== owner) return false;
        change(job);
        this.writeJob(job);
        return true;
      })
      .immediate();
  }

  async enqueueJob(id: number, params: { apiKeyEnv?: string; model?: string }, nowMs: number): Promise<EvalJob | null> {
    return this.db
      .transaction(() => {
        const sub = this.q.subById.get(id);
        if (!sub || sub.status === 'rejected') return null;
        const old = this.readJob(id);
        if (old && old.state === 'running' && (old.leaseUntil ?? 0) > nowMs) return null;
        const job = queuedJob(id, params, nowMs, old?.createdAt);
        this.writeJob(job);
        this.q.dropConvs.run(id);
        this.q.setSubStatus.run('queued', id);
        return job;
      })
      .immediate();
  }

  async getJob(id: number): Promise<EvalJob | null> {
    return this.readJob(id) ?? null;
  }

  async listJobs(): Promise<EvalJob[]> {
    return this.q.listJobs.all().map((r) => JSON.parse(r.json) as EvalJob);
  }

  async leaseJob(owner: string, nowMs: number, ttlMs: number): Promise<EvalJob | null> {
    return this.db
      .transaction(() => {
        const row = this.q.nextLeasable.get(nowMs);
        if (!row) return null;
        const job = JSON.parse(row.json) as EvalJob;
        job.state = 'running';
        job.leaseOwner = owner;
        job.leaseUntil = nowMs + ttlMs;
        job.attempts += 1;
        job.updatedAt = new Date(nowMs).toISOString();
        this.writeJob(job);
        this.q.setSubStatus.run('evaluating', job.id);
        return job;
      })
      .immediate();
  }

  async renewLease(id: number, owner: string, nowMs: number, ttlMs: number): Promise<boolean> {
    return this.withHeld(id, owner, (job) => {
      job.leaseUntil = nowMs + ttlMs;
    });
  }

  async saveConversation(
    id: number,
    owner: string,
    key: string,
    json: string,
    progress: JobProgress,
  ): Promise<boolean> {
    return this.withHeld(id, owner, (job) => {
      this.q.putConv.run({ id, key, json });
      job.progress = { ...progress };
    });
  }

  async listConversations(id: number): Promise<Map<string, string>> {
    return new Map(this.q.listConvs.all(id).map((r) => [r.key, r.json]));
  }

  async updateJob(id: number, owner: string, patch: JobPatch): Promise<boolean> {
    return this.withHeld(id, owner, (job) => {
      if (patch.progress) job.progress = { ...patch.progress };
      if (patch.finishedAt !== undefined) job.finishedAt = patch.finishedAt;
      if (patch.reportHash !== undefined) job.reportHash = patch.reportHash;
    });
  }

  async finishJob(
    id: number,
    owner: string,
    outcome: { state: 'done' | 'failed'; error?: string; reportHash?: string },
    nowMs: number,
  ): Promise<boolean> {
    return this.withHeld(id, owner, (job) => {
      job.state = outcome.state;
      if (outcome.error !== undefined) job.error = outcome.error;
      if (outcome.reportHash !== undefined) job.reportHash = outcome.reportHash;
      delete job.leaseOwner;
      delete job.leaseUntil;
      job.updatedAt = new Date(nowMs).toISOString();
      this.q.setSubStatus.run(outcome.state, id);
    });
  }

  async datasetSeq(): Promise<number> {
    return this.q.datasetSeq.get()?.seq ?? 0;
  }

  async getPublishedDataset(): Promise<{ seq: number; json: string } | null> {
    return this.q.getDataset.get() ?? null;
  }

  async publishDataset(json: string, expectedSeq: number): Promise<number | null> {
    return this.db
      .transaction(() => {
        if ((this.q.datasetSeq.get()?.seq ?? 0) !== expectedSeq) return null;
        this.q.putDataset.run(expectedSeq + 1, json);
        return expectedSeq + 1;
      })
      .immediate();
  }

  async putReport(hash: string, canonicalJson: string, opts: { ttlMs?: number } = {}): Promise<void> {
    const now = this.now();
    this.q.putReport.run({ hash, json: canonicalJson, exp: opts.ttlMs === undefined ? null : now + opts.ttlMs, now });
  }

  async getReport(hash: string): Promise<string | null> {
    return this.q.getReport.get(hash, this.now())?.json ?? null;
  }

  async findReportsByPrefix(prefix: string, limit: number): Promise<string[]> {
    return this.q.reportsByPrefix.all(prefix, `${prefix}\u{10FFFF}`, this.now(), limit).map((r) => r.hash);
  }

  async appendLeaves(leafHashes: string[]): Promise<number> {
    return this.db
      .transaction(() => {
        const first = this.q.logSize.get()!.n;
        for (const [i, h] of leafHashes.entries()) this.q.insertLeaf.run(first + i, h);
        return first;
      })
      .immediate();
  }

  async logSize(): Promise<number> {
    return this.q.logSize.get()!.n;
  }

  async getLeaves(start: number, end: number): Promise<string[]> {
    return this.q.leaves.all(start, end).map((r) => r.hash);
  }

  async findLeaf(leafHash: string): Promise<number> {
    return this.q.findLeaf.get(leafHash)?.idx ?? -1;
  }

  async putCheckpoint(size: number, json: string): Promise<void> {
    this.q.putCheckpoint.run(size, json);
  }

  async getCheckpoint(size: number): Promise<string | null> {
    return this.q.getCheckpoint.get(size)?.json ?? null;
  }

  async setIfAbsent(key: string, value: string): Promise<string> {
    return this.db
      .transaction(() => {
        this.q.insertSetting.run(key, value);
        return this.q.getSetting.get(key)!.value;
      })
      .immediate();
  }

  async ping(): Promise<boolean> {
    try {
      return this.db.open && this.db.prepare('SELECT 1 AS ok').get() !== undefined;
    } catch {
      return false;
    }
  }

  async close(): Promise<void> {
    clearInterval(this.sweeper);
    try {
      if (this.pending.length > 0 && this.counters.open) this.flush();
    } finally {
      // a flush that cannot commit (a full disk) still lets the thread and the connections close; its error is thrown
      if (this.checkpointer !== undefined) await stopCheckpointer(this.checkpointer);
      if (this.counters.open) this.counters.close();
      if (this.db.open) this.db.close();
    }
  }
}
