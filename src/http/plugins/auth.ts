/**
 * Bearer-key authentication on every route of the scope it is registered on. No Authorization header:
 * the free tier (request.apiKey = null). A header that is present but malformed, or names an unknown,
 * inactive or revoked key: 401 with an Error body and `WWW-Authenticate: Bearer` (on a rate-limited route, after the
 * attempt was counted in the caller's IP window). A valid key is put on
 * the request for the rate limiter and the routes.
 */
import { resolveBearer } from '../outcomes.ts';
import { AppError } from '../../errors.ts';
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

export function registerAuth(app: App, deps: Pick<Deps, 'store' | 'now'>): void {
  app.decorateRequest('apiKey', null);
  app.decorateRequest('authError', null);
  // Callback style, so the keyless majority of requests pays for no promise.
  app.addHook('onRequest', (request, _reply, done) => {
    const header = request.headers.authorization;
    if (header === undefined) return done();
    resolveBearer(deps.store, header, deps.now()).then(
      (key) => {
        request.apiKey = key;
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
