/**
 * Bearer-key authentication on every route of the scope it is registered on. No Authorization header:
 * the free tier (request.apiKey = null). A header that is present but malformed, or names an unknown,
 * inactive or revoked key: 401 with an Error body and `WWW-Authenticate: Bearer` (on a rate-limited route, after the
 * attempt was counted in the caller's IP window). A valid key is put on
 * the request for the rate limiter and the routes.
 *
 * Verified keys are remembered for KEY_CACHE_MS (1 s) per Authorization header, so a client sending many requests
 * pays for the key's hash and store look-up (and the daily-refill count) once a second instead of on every request;
 * the allowance and the rate-limit window are still taken in the store on every request. A key changed in this
 * process (revoked, activated, its allowance set) is looked up again at once (the store's keyVersion); a change made
 * by another process (`svc keys revoke`) takes effect within KEY_CACHE_MS. Refusals are never remembered: a key
 * activated a moment ago works at once, and a guessed key costs its store look-up every time. At most
 * KEY_CACHE_MAX entries are held (the oldest go first), each under the SHA-256 of the header, never the key itself.
 */
import { createHash } from 'node:crypto';
import { resolveBearer } from '../outcomes.ts';
import { AppError } from '../../errors.ts';
import { DAY_MS } from '../../domain/keys.ts';
import type { ApiKeyRecord } from '../../store/types.ts';
import type { App, Deps } from '../types.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The caller's valid API key, or null on the free tier. Set by the auth plugin. */
    apiKey: ApiKeyRecord | null;
    /** A refused bearer key on a rate-limited route, thrown by the limiter once the attempt is counted. */
    authError: AppError | null;
  }
}

export const KEY_CACHE_MS = 1000;
export const KEY_CACHE_MAX = 10_000;

interface Remembered {
  record: ApiKeyRecord;
  until: number;
  /** The UTC day it was verified on: the daily refill is checked again on a new day. */
  day: number;
  version: number;
}

export function registerAuth(app: App, deps: Pick<Deps, 'store' | 'now'>): void {
  app.decorateRequest('apiKey', null);
  app.decorateRequest('authError', null);
  const cache = new Map<string, Remembered>();
  const version = () => (deps.store as { keyVersion?: number }).keyVersion ?? 0;
  // Callback style, so the keyless majority of requests pays for no promise.
  app.addHook('onRequest', (request, _reply, done) => {
    const header = request.headers.authorization;
    if (header === undefined) return done();
    const now = deps.now();
    const id = createHash('sha256').update(header).digest('base64');
    const hit = cache.get(id);
    if (hit && hit.until > now && hit.day === Math.floor(now / DAY_MS) && hit.version === version()) {
      request.apiKey = hit.record;
      return done();
    }
    const v = version();
    resolveBearer(deps.store, header, now).then(
      (key) => {
        request.apiKey = key;
        if (key) {
          cache.delete(id);
          if (cache.size >= KEY_CACHE_MAX) cache.delete(cache.keys().next().value!);
          cache.set(id, { record: key, until: now + KEY_CACHE_MS, day: Math.floor(now / DAY_MS), version: v });
        }
        done();
      },
      (err: unknown) => {
        // On a rate-limited route the 401 is decided by the limiter's hook, after it counted the attempt in the
        // caller's IP window: guessing keys must not be free (docs/api.md, Rate limits).
        if (err instanceof AppError && err.code === 'unauthorized' && request.routeOptions.config.rateLimit) {
          request.authError = err;
          return done();
        }
        done(err as Error);
      },
    );
  });
}
