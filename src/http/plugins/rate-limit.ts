/**
 * The rate limiter as a hook: a route opts in with `config: { rateLimit: 'score' | 'verify' | 'submit' |
 * 'waitlist' | 'keys' | 'log' }`. Policy, caps, key rules and headers: src/ratelimit/index.ts. Register after the
 * auth plugin (it reads request.apiKey). Every response of a limited route carries RateLimit-Policy and
 * RateLimit; a refusal is 429 with Retry-After and the Error body.
 */
import { clientIp, rateLimitSubject } from '../client-ip.ts';
import { DAY_MS } from '../../domain/keys.ts';
import { AppError, rateLimitMessage } from '../../errors.ts';
import { KEYED_OPERATIONS, LIMITS, RateLimiter, type LimitName } from '../../ratelimit/index.ts';
import { rateLimitRejections } from '../../metrics.ts';
import type { FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify';
import type { App, Deps } from '../types.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Which hourly limit this route counts against (see src/ratelimit/index.ts). */
    rateLimit?: LimitName;
  }
}

export function registerRateLimit(
  app: App,
  deps: Pick<Deps, 'store' | 'config' | 'now'> & { log?: App['log'] },
): RateLimiter {
  const limiter = new RateLimiter(deps.store, deps.log ?? app.log, deps.now, deps.config.limitOnStoreError);
  // The hook is added to the limited routes only: the read routes, the hot path, pay nothing for it, not even
  // the look-up of their route config. It goes first among the route's own hooks, so it runs after the scope's
  // (auth) and before a route's own refusals (the council's keyless 401), which therefore still count.
  app.addHook('onRoute', (route) => {
    const op = route.config?.rateLimit;
    if (!op) return;
    const hook: onRequestHookHandler = (request, reply, done) => {
      limit(request, reply, op).then(() => done(), done);
    };
    route.onRequest = [hook, ...(route.onRequest === undefined ? [] : [route.onRequest].flat())];
  });

  async function limit(request: FastifyRequest, reply: FastifyReply, op: LimitName): Promise<void> {
    const key = KEYED_OPERATIONS.has(op) ? request.apiKey : null;
    const subject = key
      ? `key:${key.id}`
      : rateLimitSubject(clientIp(request.socket.remoteAddress, request.headers, deps.config.trustProxy));
    // The council's cap is the operator's (SVC_COUNCIL_HOURLY_LIMIT), per key, whatever the key's plan: one council
    // call can be dozens of model calls.
    const cap =
      op === 'council' ? deps.config.council.hourlyLimit : key ? Math.max(LIMITS[op], key.rateLimit) : LIMITS[op];
    // With a key: the window count and the call taken from the allowance are one atomic store step.
    const d = await limiter.take(op, subject, cap, key?.hash);
    const headers: Record<string, string> = {
      'ratelimit-policy': `"hour";q=${d.limit};w=3600`,
      ratelimit: `"hour";r=${d.remaining};t=${d.resetSeconds}`,
    };
    reply.headers(headers);
    // A refused bearer key (see the auth plugin) was counted in the IP window just now: 401, or 429 past the cap.
    if (request.authError && d.allowed) throw request.authError;
    if (!d.allowed) {
      rateLimitRejections.inc({ operation: op, reason: 'rate_limited' });
      throw new AppError('rate_limited', rateLimitMessage(cap), {
        headers: { ...headers, 'retry-after': String(d.resetSeconds) },
      });
    }
    // While the store cannot count (SVC_LIMIT_ON_STORE_ERROR=open, counting in memory), no call can be taken from
    // the allowance either: the request is admitted, as the policy says.
    if (key && (d.callsRemaining ?? (limiter.durable ? await deps.store.consumeCall(key.hash) : 0)) < 0) {
      // A key never leaves its holder worse off than no key (docs/decisions.md): with its allowance used up, the
      // call counts against the free tier's per-IP cap, and the headers say so.
      const ip = rateLimitSubject(clientIp(request.socket.remoteAddress, request.headers, deps.config.trustProxy));
      const free = await limiter.take(op, ip, LIMITS[op]);
      const freeHeaders: Record<string, string> = {
        'ratelimit-policy': `"hour";q=${free.limit};w=3600`,
        ratelimit: `"hour";r=${free.remaining};t=${free.resetSeconds}`,
        'svc-allowance': `exhausted; tier=free; refill=${Math.ceil((DAY_MS - (deps.now() % DAY_MS)) / 1000)}`,
      };
      reply.headers(freeHeaders);
      if (!free.allowed) rateLimitRejections.inc({ operation: op, reason: 'rate_limited' });
      if (!free.allowed)
        throw new AppError('rate_limited', rateLimitMessage(LIMITS[op]), {
          headers: { ...freeHeaders, 'retry-after': String(free.resetSeconds) },
        });
    }
  }
  return limiter;
}
