/**
 * Rate limits: fixed one-hour windows per client and operation, counted in the store.
 *
 * | operation (route config `rateLimit`) | cap per hour, per IP |
 * |---|---|
 * | score  (POST /api/score)   | 100 |
 * | verify (GET /api/verify)   | 50  |
 * | submit (POST /api/submit)  | 5   |
 * | waitlist (POST /api/waitlist) | 5 |
 * | keys   (POST /api/keys)    | 3   |
 * | log    (GET /api/log/*, the four together) | 600 |
 * | council (POST /api/council) | SVC_COUNCIL_HOURLY_LIMIT, default 60, per key (keyless attempts, refused, per IP) |
 *
 * Windows are aligned to the clock hour-length grid ([floor(now/1h)*1h, +1h)); every instance that shares
 * the store (Redis) shares the counts, and a count is taken atomically before the request is served, so N
 * instances together admit exactly the cap. Every attempt counts, including ones later refused as invalid.
 *
 * API keys: a request that carries a valid key (see src/http/plugins/auth.ts) on an API operation
 * (score, verify, council) is counted in the key's own window instead of its IP's, with an hourly cap of
 * max(the operation's IP cap, the key's rate_limit) (default 1000; the council: SVC_COUNCIL_HOURLY_LIMIT), and each admitted call takes one call
 * from the key's allowance (calls_remaining). When the allowance is used up the answer is 429 naming the
 * allowance, without Retry-After (waiting does not refill it; an operator does, with `svc keys set-allowance`).
 * The sign-up forms (submit, waitlist, keys) keep their per-IP caps with or without a key and draw nothing.
 * So do the audit-log reads (log): their cap is generous, so that a verifier walking inclusion and consistency
 * proofs never meets it, and only there to stop one client from hammering the store with proof computations.
 *
 * Store failure policy (SVC_LIMIT_ON_STORE_ERROR). With no store configured (`memory`) the counts live in memory.
 * When the configured store fails to count (unreachable, or a write that cannot commit, e.g. a full disk):
 * - `open` (default): the limiter falls back to in-memory counts at once (a warning naming the error, once per
 *   outage), probes the store at most once a second in the background, and returns to it when it answers (logged
 *   once). Refusing all traffic while the store is down would be worse for a scoring API.
 * - `closed`: every limited request answers 500 `store_unavailable` until the store counts again (the same log
 *   lines). For operators who prefer refusing to admitting uncounted traffic.
 * In-memory counts are exact across the workers of one `svc serve` (SVC_WORKERS > 1): a worker does not count in
 * its own memory but asks the primary process over the cluster IPC channel (src/cluster.ts), which holds the one
 * set of counters, so N workers never admit N times the cap. Separate machines (or separate `svc serve`
 * processes) during a store outage each count on their own.
 *
 * Headers follow draft-ietf-httpapi-ratelimit-headers-10 (structured fields with a named policy):
 * `RateLimit-Policy: "hour";q=100;w=3600` and `RateLimit: "hour";r=42;t=1800`; a 429 also carries
 * Retry-After in seconds until the window resets.
 */
import cluster from 'node:cluster';
import { PrimaryCounter } from '../cluster.ts';
import { AppError } from '../errors.ts';
import { rateLimitRejections } from '../metrics.ts';
import { MemoryStore } from '../store/memory/index.ts';
import { isStoreConfigured } from '../config.ts';
import type { RateLimitStore, Store } from '../store/types.ts';

/** council: the default of SVC_COUNCIL_HOURLY_LIMIT; the configured value replaces it (src/config.ts). */
export const LIMITS = { score: 100, verify: 50, submit: 5, waitlist: 5, keys: 3, log: 600, council: 60 } as const;
export type LimitName = keyof typeof LIMITS;
export const LIMIT_NAMES = Object.keys(LIMITS) as LimitName[];
export const WINDOW_MS = 3_600_000;
/** A store outage's state changes are logged at most this often, each way (see RateLimiter.logChange). */
export const LOG_EVERY_MS = 60_000;

/** Operations on which a valid key replaces the per-IP window and draws down the allowance. */
export const KEYED_OPERATIONS: ReadonlySet<LimitName> = new Set<LimitName>(['score', 'verify', 'council']);

export interface LimitLogger {
  warn(obj: object, msg?: string): void;
  info(obj: object, msg?: string): void;
}

export interface Decision {
  allowed: boolean;
  /** The cap in force for this window. */
  limit: number;
  /** Requests left in this window after this one (0 when refused). */
  remaining: number;
  /** Seconds until the window resets (>= 1). */
  resetSeconds: number;
}

export class RateLimiter {
  private readonly fallback: Pick<RateLimitStore, 'hit'> = cluster.isWorker ? new PrimaryCounter() : new MemoryStore();
  private down = false;
  private probing = false;
  private nextProbeMs = 0;
  /** Flapping-safe logging: state changes logged at most once per LOG_EVERY_MS each way; the rest are counted. */
  private lastDownLogMs = -Infinity;
  private lastUpLogMs = -Infinity;
  private unloggedChanges = 0;

  constructor(
    private readonly store: Pick<Store, 'kind' | 'ping' | 'hit'> & Partial<Pick<RateLimitStore, 'hitAndConsume'>>,
    private readonly log: LimitLogger,
    private readonly clock: () => number = Date.now,
    private readonly onStoreError: 'open' | 'closed' = 'open',
  ) {}

  /** True while counts are kept in the store (not in this process). */
  get durable(): boolean {
    return isStoreConfigured(this.store) && !this.down;
  }

  /**
   * Count one request by `subject` (e.g. an IP or `key:<id>`) against `cap` per hour for `op`. With `keyHash`, the
   * same atomic step also takes one call from that key's allowance when the request is within the cap
   * (`callsRemaining`: the allowance left, -1 when none was, null when nothing was taken).
   */
  async take(
    op: LimitName,
    subject: string,
    cap: number,
    keyHash?: string,
  ): Promise<Decision & { callsRemaining: number | null }> {
    const now = this.clock();
    const { count, resetMs, callsRemaining } = await this.hit(`${op}:${subject}`, now, cap, keyHash);
    return {
      allowed: count <= cap,
      limit: cap,
      remaining: Math.max(0, cap - count),
      resetSeconds: Math.max(1, Math.ceil((resetMs - now) / 1000)),
      callsRemaining,
    };
  }

  private async hit(
    key: string,
    now: number,
    cap: number,
    keyHash: string | undefined,
  ): Promise<{ count: number; resetMs: number; callsRemaining: number | null }> {
    if (!isStoreConfigured(this.store))
      return { ...(await this.fallback.hit(key, WINDOW_MS, now)), callsRemaining: null };
    if (this.down) {
      this.maybeProbe();
      return this.degraded(key, now);
    }
    try {
      if (keyHash !== undefined && this.store.hitAndConsume)
        return await this.store.hitAndConsume(key, WINDOW_MS, now, cap, keyHash);
      return { ...(await this.store.hit(key, WINDOW_MS, now)), callsRemaining: null };
    } catch (err) {
      if (err instanceof AppError && err.code !== 'store_unavailable') throw err;
      if (!this.down) {
        this.down = true;
        this.nextProbeMs = this.clock() + 1000;
        const cause = (err as Error).cause instanceof Error ? ((err as Error).cause as Error).message : undefined;
        this.logChange('down', {
          store: this.store.kind,
          err: cause ?? (err as Error).message,
          policy: this.onStoreError,
        });
      }
      return this.degraded(key, now);
    }
  }

  /** During a store outage: the policy's answer. */
  private async degraded(key: string, now: number): Promise<{ count: number; resetMs: number; callsRemaining: null }> {
    if (this.onStoreError === 'closed') {
      rateLimitRejections.inc({ operation: key.slice(0, key.indexOf(':')), reason: 'store_error' });
      throw new AppError(
        'store_unavailable',
        'Requests cannot be counted: the data store is unavailable; try again shortly.',
      );
    }
    return { ...(await this.fallback.hit(key, WINDOW_MS, now)), callsRemaining: null };
  }

  /**
   * Log a state change, at most once per LOG_EVERY_MS in each direction: a store at the edge (a disk almost full,
   * a flaky link) can go down and up many times a second, and a line each time is a line per request. Changes not
   * logged are counted and reported with the next line (`changes_not_logged`).
   */
  private logChange(to: 'down' | 'up', fields: Record<string, unknown>): void {
    const now = this.clock();
    const last = to === 'down' ? this.lastDownLogMs : this.lastUpLogMs;
    if (now - last < LOG_EVERY_MS) {
      this.unloggedChanges++;
      return;
    }
    if (to === 'down') this.lastDownLogMs = now;
    else this.lastUpLogMs = now;
    const extra = this.unloggedChanges > 0 ? { changes_not_logged: this.unloggedChanges } : {};
    this.unloggedChanges = 0;
    if (to === 'up') {
      this.log.info({ ...fields, ...extra }, 'rate-limit store reachable again: limits are durable again');
      return;
    }
    this.log.warn(
      { ...fields, ...extra },
      this.onStoreError === 'open'
        ? 'rate-limit store unavailable: counting in memory until it returns (SVC_LIMIT_ON_STORE_ERROR=open)'
        : 'rate-limit store unavailable: refusing limited requests until it returns (SVC_LIMIT_ON_STORE_ERROR=closed)',
    );
  }

  /**
   * At most once a second while the store is down: is it back? The probe is a counter write (a hit on one
   * window of its own), not a read: on a full disk reads still work, and a read probe would declare the store back
   * every second and lose it again on the next request.
   */
  private maybeProbe(): void {
    if (this.probing || this.clock() < this.nextProbeMs) return;
    this.probing = true;
    void this.store
      .hit('probe:rate-limit-store', WINDOW_MS, this.clock())
      .then(
        () => true,
        () => false,
      )
      .then((ok) => {
        if (ok && this.down) {
          this.down = false;
          this.logChange('up', { store: this.store.kind });
        }
      })
      .finally(() => {
        this.probing = false;
        this.nextProbeMs = this.clock() + 1000;
      });
  }
}
