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
 *
 * Windows are aligned to the clock hour-length grid ([floor(now/1h)*1h, +1h)); every instance that shares
 * the store (Redis) shares the counts, and a count is taken atomically before the request is served, so N
 * instances together admit exactly the cap. Every attempt counts, including ones later refused as invalid.
 *
 * API keys: a request that carries a valid key (see src/http/plugins/auth.ts) on an API operation
 * (score, verify) is counted in the key's own window instead of its IP's, with an hourly cap of
 * max(the operation's IP cap, the key's rate_limit) (default 1000), and each admitted call takes one call
 * from the key's allowance (calls_remaining). When the allowance is used up the answer is 429 naming the
 * allowance, without Retry-After (waiting does not refill it; an operator does, with `svc keys set-allowance`).
 * The sign-up forms (submit, waitlist, keys) keep their per-IP caps with or without a key and draw nothing.
 * So do the audit-log reads (log): their cap is generous, so that a verifier walking inclusion and consistency
 * proofs never meets it, and only there to stop one client from hammering the store with proof computations.
 *
 * Fail-open policy: with no store configured (`memory`) the counts live in this process only. When the
 * configured store fails, the limiter falls back to in-process counts at once (logged once per outage),
 * probes the store at most once a second in the background, and returns to it when it answers (logged once).
 * During an outage each instance enforces the caps on its own, so several instances admit up to N times the
 * cap; refusing all traffic while the store is down would be worse for a scoring API.
 *
 * Headers follow draft-ietf-httpapi-ratelimit-headers-10 (structured fields with a named policy):
 * `RateLimit-Policy: "hour";q=100;w=3600` and `RateLimit: "hour";r=42;t=1800`; a 429 also carries
 * Retry-After in seconds until the window resets.
 */
import { MemoryStore } from '../store/memory/index.ts';
import { isStoreConfigured } from '../config.ts';
import type { RateLimitStore, Store } from '../store/types.ts';

export const LIMITS = { score: 100, verify: 50, submit: 5, waitlist: 5, keys: 3, log: 600 } as const;
export type LimitName = keyof typeof LIMITS;
export const LIMIT_NAMES = Object.keys(LIMITS) as LimitName[];
export const WINDOW_MS = 3_600_000;

/** Operations on which a valid key replaces the per-IP window and draws down the allowance. */
export const KEYED_OPERATIONS: ReadonlySet<LimitName> = new Set<LimitName>(['score', 'verify']);

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
  private readonly fallback = new MemoryStore();
  private down = false;
  private probing = false;
  private nextProbeMs = 0;

  constructor(
    private readonly store: Pick<Store, 'kind' | 'ping'> & RateLimitStore,
    private readonly log: LimitLogger,
    private readonly clock: () => number = Date.now,
  ) {}

  /** True while counts are kept in the store (not in this process). */
  get durable(): boolean {
    return isStoreConfigured(this.store) && !this.down;
  }

  /** Count one request by `subject` (e.g. an IP or `key:<id>`) against `cap` per hour for `op`. */
  async take(op: LimitName, subject: string, cap: number): Promise<Decision> {
    const now = this.clock();
    const { count, resetMs } = await this.hit(`${op}:${subject}`, now);
    return {
      allowed: count <= cap,
      limit: cap,
      remaining: Math.max(0, cap - count),
      resetSeconds: Math.max(1, Math.ceil((resetMs - now) / 1000)),
    };
  }

  private async hit(key: string, now: number): Promise<{ count: number; resetMs: number }> {
    if (!isStoreConfigured(this.store)) return this.fallback.hit(key, WINDOW_MS, now);
    if (this.down) {
      this.maybeProbe();
      return this.fallback.hit(key, WINDOW_MS, now);
    }
    try {
      return await this.store.hit(key, WINDOW_MS, now);
    } catch (err) {
      if (!this.down) {
        this.down = true;
        this.nextProbeMs = Date.now() + 1000;
        this.log.warn(
          { store: this.store.kind, err: (err as Error).message },
          'rate-limit store unavailable: counting in memory until it returns',
        );
      }
      return this.fallback.hit(key, WINDOW_MS, now);
    }
  }

  private maybeProbe(): void {
    if (this.probing || Date.now() < this.nextProbeMs) return;
    this.probing = true;
    void this.store
      .ping()
      .then((ok) => {
        if (ok && this.down) {
          this.down = false;
          this.log.info({ store: this.store.kind }, 'rate-limit store reachable again: limits are durable again');
        }
      })
      .finally(() => {
        this.probing = false;
        this.nextProbeMs = Date.now() + 1000;
      });
  }
}
