/**
 * The narrow store interfaces. Every implementation (memory, sqlite, redis) implements all of them and
 * passes the one suite in test/store.test.ts. Only src/store knows SQLite or Redis.
 *
 * Atomicity: every method is atomic on its own (one transaction, MULTI or a Lua script), so that several
 * service processes sharing one Redis never double-count, fork the audit log or lose an acknowledged write.
 * A method resolves only after the write is durable in that store (SQLite: committed in WAL).
 */

export interface RateLimitStore {
  /**
   * Count one hit in the fixed window that contains `nowMs` and return the count after this hit.
   * `key` is opaque (e.g. "score:203.0.113.9"); the window is [floor(now/windowMs)*windowMs, +windowMs).
   * Hits past the cap are still counted (the caller compares). Entries expire after their window.
   */
  hit(key: string, windowMs: number, nowMs: number): Promise<{ count: number; resetMs: number }>;
  /**
   * A keyed request's counters in one atomic step: count the hit as hit() does and, when the count is within
   * `cap`, take one call from the allowance of the key with hash `keyHash` (as consumeCall). `callsRemaining` is
   * consumeCall's answer, or null when the hit was over the cap (nothing taken).
   */
  hitAndConsume(
    key: string,
    windowMs: number,
    nowMs: number,
    cap: number,
    keyHash: string,
  ): Promise<{ count: number; resetMs: number; callsRemaining: number | null }>;
}

export interface ApiKeyRecord {
  /** Prefixed id, e.g. "key_1a2b3c4d"; safe to log and show operators. */
  id: string;
  /** SHA-256 hex of the full key; the key itself is never stored. */
  hash: string;
  email: string;
  name?: string;
  organization?: string;
  /** "free" | "pro" | "enterprise" (alternate shape); core keys are "free". */
  plan: string;
  createdAt: string;
  /** Calls per allowance (contract: default 1000). */
  rateLimit: number;
  callsRemaining: number;
  /** False until the email verification link is followed (alternate shape); core keys are active at once. */
  active: boolean;
  revoked: boolean;
  /** SHA-256 hex of the email verification token, while one is outstanding. */
  verifyTokenHash?: string;
}

export interface KeyStore {
  /**
   * Bumped by every key change made through this store object (updateKey, activateByToken), so a cache of
   * verified keys in this process (src/http/plugins/auth.ts) drops what it holds at once.
   */
  readonly keyVersion?: number;
  createKey(rec: ApiKeyRecord): Promise<void>;
  /**
   * Store a new key unless its address (compared lower-cased) already holds `cap` keys that are not revoked; the
   * count and the insert are one atomic step, so simultaneous requests cannot pass the cap together. `held` is the
   * count before.
   */
  createKeyCapped(rec: ApiKeyRecord, cap: number): Promise<{ created: boolean; held: number }>;
  getKeyByHash(hash: string): Promise<ApiKeyRecord | null>;
  /**
   * Atomically take `n` calls (default 1) from the allowance, all or none. Returns the remaining count after, or -1
   * when fewer than `n` were left (nothing taken), so simultaneous takers of several calls never strand a part.
   */
  consumeCall(hash: string, n?: number): Promise<number>;
  listKeys(): Promise<ApiKeyRecord[]>;
  /**
   * A key's daily refill in one atomic step: count a hit in the window as hit() does (`key` e.g. "key-day:<id>")
   * and, when it is the window's first, set the key with hash `keyHash` to its full allowance (callsRemaining =
   * rateLimit, when below). Calls drawn by requests of that moment come after the refill, never under it.
   */
  hitAndRefill(
    key: string,
    windowMs: number,
    nowMs: number,
    keyHash: string,
  ): Promise<{ count: number; resetMs: number }>;
  /** Patch by id: revoked, callsRemaining, rateLimit, active, verifyTokenHash. Returns false for an unknown id. */
  updateKey(
    id: string,
    patch: Partial<Pick<ApiKeyRecord, 'revoked' | 'callsRemaining' | 'rateLimit' | 'active' | 'verifyTokenHash'>>,
  ): Promise<boolean>;
  /** Activate the key whose outstanding verification token has this hash; returns it, or null. Single use. */
  activateByToken(tokenHash: string): Promise<ApiKeyRecord | null>;
}

export interface WaitlistEntry {
  email: string; // as given
  name?: string;
  organization?: string;
  useCase?: string;
  source?: string;
  createdAt: string;
}

export interface WaitlistStore {
  /**
   * Add unless an entry with the same lower-cased email exists. Atomic under concurrency: of two
   * simultaneous adds of one address exactly one gets created=true. Positions are 1-based, stable, gapless.
   */
  joinWaitlist(entry: WaitlistEntry): Promise<{ created: boolean; position: number }>;
  listWaitlist(): Promise<(WaitlistEntry & { position: number })[]>;
}

export interface SubmissionRecord {
  /** Unique millisecond timestamp (contract: id integer). */
  id: number;
  modelName: string;
  vendor: string;
  apiEndpoint: string;
  contactEmail: string;
  notes?: string;
  modelSlug?: string;
  createdAt: string;
  /**
   * pending: received, waiting for the operator's approval; queued: approved, waiting for a worker;
   * evaluating: a worker runs it; done / failed: the run ended; rejected: the operator declined it.
   * Only the job methods below move a submission between these (in the same atomic step as its job).
   */
  status: SubmissionStatus;
  /** SHA-256 hex of the status page's token (the token itself is only in the confirmation email). */
  statusTokenHash?: string;
}

export type SubmissionStatus = 'pending' | 'queued' | 'evaluating' | 'done' | 'failed' | 'rejected';

export interface SubmissionStore {
  /** Records durably with status pending; assigns the id: max(nowMs, last id + 1), unique across processes. */
  addSubmission(rec: Omit<SubmissionRecord, 'id' | 'status'>, nowMs: number): Promise<SubmissionRecord>;
  listSubmissions(): Promise<SubmissionRecord[]>;
  getSubmission(id: number): Promise<SubmissionRecord | null>;
  /** The submission whose status-page token hashes to this; null when none. */
  getSubmissionByStatusToken(tokenHash: string): Promise<SubmissionRecord | null>;
  /** The operator declines a submission that is pending (or failed). False when unknown or in another status. */
  rejectSubmission(id: number): Promise<boolean>;
}

/**
 * An evaluation job: one per approved submission (same id). Leased by one worker at a time: `leaseOwner` is a
 * random token per worker and run, `leaseUntil` the expiry in ms; a job whose lease expired is taken over by the
 * next worker that asks, and every write of the old holder is refused from then on (fencing by owner).
 */
export interface EvalJob {
  id: number;
  state: 'queued' | 'running' | 'done' | 'failed';
  /** NAME of the environment variable that holds the endpoint's credential on the worker; never the credential. */
  apiKeyEnv?: string;
  /** The model id sent to the endpoint, when the operator overrides the submission's slug or name. */
  model?: string;
  /** How many times a worker has leased it (1 on the first run; more after a crash or a lost lease). */
  attempts: number;
  progress: JobProgress;
  /** The report's generated_at, fixed once when every conversation is in, so a resumed publication is identical. */
  finishedAt?: string;
  reportHash?: string;
  /** Why a failed job failed (no user text, no credential). */
  error?: string;
  createdAt: string;
  updatedAt: string;
  leaseOwner?: string;
  leaseUntil?: number;
}

export interface JobProgress {
  done: number;
  total: number;
  failed: number;
}

export type JobPatch = Partial<Pick<EvalJob, 'progress' | 'finishedAt' | 'reportHash'>>;

export interface JobStore {
  /**
   * Approve (a pending submission) or retry (a failed, done or stuck one): create or reset its job as queued with
   * these parameters, drop its stored conversations, set the submission queued. Null for an unknown id; a
   * rejected submission or a job a worker holds now is left alone (null too).
   */
  enqueueJob(id: number, params: { apiKeyEnv?: string; model?: string }, nowMs: number): Promise<EvalJob | null>;
  getJob(id: number): Promise<EvalJob | null>;
  listJobs(): Promise<EvalJob[]>;
  /** Lease the oldest job that is queued, or running with an expired lease; the submission becomes evaluating. */
  leaseJob(owner: string, nowMs: number, ttlMs: number): Promise<EvalJob | null>;
  /** Extend the lease while `owner` still holds it; false once it was lost (taken over, re-queued or finished). */
  renewLease(id: number, owner: string, nowMs: number, ttlMs: number): Promise<boolean>;
  /**
   * Keep one finished conversation under `key` (the first write of a key wins; a repeat changes nothing) and the
   * progress, in one step, while `owner` holds the lease. False when the lease was lost (nothing written).
   */
  saveConversation(id: number, owner: string, key: string, json: string, progress: JobProgress): Promise<boolean>;
  /** The stored conversations of a job: key -> JSON. */
  listConversations(id: number): Promise<Map<string, string>>;
  /** Patch a leased job while `owner` holds the lease; false when it was lost. */
  updateJob(id: number, owner: string, patch: JobPatch): Promise<boolean>;
  /** End the run (done or failed) while `owner` holds the lease; releases it; the submission's status follows. */
  finishJob(
    id: number,
    owner: string,
    outcome: { state: 'done' | 'failed'; error?: string; reportHash?: string },
    nowMs: number,
  ): Promise<boolean>;
}

/**
 * The published dataset version, shared by every instance: `seq` counts publications (0 = none yet), so an
 * instance polls datasetSeq() (one small read) and fetches the document only when it moved.
 */
export interface DatasetStore {
  datasetSeq(): Promise<number>;
  getPublishedDataset(): Promise<{ seq: number; json: string } | null>;
  /** Compare-and-set: publish only when the current seq is `expectedSeq`; the new seq, or null when another came first. */
  publishDataset(json: string, expectedSeq: number): Promise<number | null>;
}

export interface ReportStore {
  /**
   * Store a report's canonical JSON under its SHA-256 hex hash (idempotent). With `ttlMs` the report expires that
   * long after it is stored (score reports of the alternate POST /api/score); without it, it is kept for good
   * (certified reports). Stored again, a report keeps the longer lifetime, and a kept-for-good one stays so.
   * An expired report is not found (getReport null, not listed by prefix) and is removed in small batches off
   * the request path (SQLite: a timer; Redis: the key's own expiry; memory: on later writes).
   */
  putReport(hash: string, canonicalJson: string, opts?: { ttlMs?: number }): Promise<void>;
  getReport(hash: string): Promise<string | null>;
  /** Full hashes that start with this lowercase hex prefix (at most `limit`). */
  findReportsByPrefix(prefix: string, limit: number): Promise<string[]>;
}

/** What every store's constructor may take: a clock for expiries (tests inject one; the default is Date.now). */
export interface StoreOptions {
  now?: () => number;
}

export interface LogStore {
  /**
   * Append leaf hashes (hex) to the append-only audit log in one atomic step; returns the index of the
   * first. Appends from any number of processes are linearised: the log never forks.
   */
  appendLeaves(leafHashes: string[]): Promise<number>;
  logSize(): Promise<number>;
  /** Leaf hashes [start, end). */
  getLeaves(start: number, end: number): Promise<string[]>;
  /** Index of a leaf hash, or -1. */
  findLeaf(leafHash: string): Promise<number>;
  putCheckpoint(size: number, json: string): Promise<void>;
  getCheckpoint(size: number): Promise<string | null>;
  /** Key/value for small settings that must be shared by instances (e.g. the signing key when generated). Set-if-absent; returns the value in force. */
  setIfAbsent(key: string, value: string): Promise<string>;
}

export interface Store
  extends RateLimitStore,
    KeyStore,
    WaitlistStore,
    SubmissionStore,
    JobStore,
    DatasetStore,
    ReportStore,
    LogStore {
  /** "memory" | "sqlite" | "redis". */
  readonly kind: 'memory' | 'sqlite' | 'redis';
  /** True when the store is reachable now. Never throws. */
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

/** The record of a freshly queued evaluation job, the same in every store (a re-queued job keeps its createdAt). */
export function queuedJob(
  id: number,
  params: { apiKeyEnv?: string; model?: string },
  nowMs: number,
  createdAt?: string,
): EvalJob {
  const at = new Date(nowMs).toISOString();
  return {
    id,
    state: 'queued',
    ...(params.apiKeyEnv !== undefined && { apiKeyEnv: params.apiKeyEnv }),
    ...(params.model !== undefined && { model: params.model }),
    attempts: 0,
    progress: { done: 0, total: 0, failed: 0 },
    createdAt: createdAt ?? at,
    updatedAt: at,
  };
}
