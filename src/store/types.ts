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
  createKey(rec: ApiKeyRecord): Promise<void>;
  getKeyByHash(hash: string): Promise<ApiKeyRecord | null>;
  /** Atomically take one call from the allowance. Returns the remaining count after, or -1 when none was left (nothing taken). */
  consumeCall(hash: string): Promise<number>;
  listKeys(): Promise<ApiKeyRecord[]>;
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
  status: 'queued' | 'evaluating' | 'done' | 'failed';
}

export interface SubmissionStore {
  /** Records durably and queues; assigns the id: max(nowMs, last id + 1), unique across processes. */
  addSubmission(rec: Omit<SubmissionRecord, 'id' | 'status'>, nowMs: number): Promise<SubmissionRecord>;
  listSubmissions(): Promise<SubmissionRecord[]>;
  /** The queue's consumer takes the oldest queued submission and marks it evaluating; null when empty. */
  claimNextSubmission(): Promise<SubmissionRecord | null>;
}

export interface ReportStore {
  /** Store a report's canonical JSON under its SHA-256 hex hash (idempotent). */
  putReport(hash: string, canonicalJson: string): Promise<void>;
  getReport(hash: string): Promise<string | null>;
  /** Full hashes that start with this lowercase hex prefix (at most `limit`). */
  findReportsByPrefix(prefix: string, limit: number): Promise<string[]>;
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

export interface Store extends RateLimitStore, KeyStore, WaitlistStore, SubmissionStore, ReportStore, LogStore {
  /** "memory" | "sqlite" | "redis". */
  readonly kind: 'memory' | 'sqlite' | 'redis';
  /** True when the store is reachable now. Never throws. */
  ping(): Promise<boolean>;
  close(): Promise<void>;
}
