/**
 * Request logging and request metrics (src/metrics.ts: count and latency per method, route and status).
 *
 * Logging: one info line per finished request, `{reqId, method, route, status, ms}` and the message
 * "request", instead of Fastify's two lines (incoming, completed) that serialized the whole request each time.
 *
 * - `route` is the route's pattern (`/api/keys`, `/api/badge/:slug`), never the URL: query strings are not logged,
 *   so no spelling of a secret parameter (`?key=`, `?%6bey=`, `?k%65y=`, `?key[]=`) can reach the log. Requests
 *   that matched no route log their path without the query.
 * - Sampling: SVC_LOG_SAMPLE (0-1, default 1) is the share of requests with a status below 500 that are logged;
 *   every 5xx is logged. Errors inside handlers are logged by the error handler with the same request id.
 * - Authorization and Cookie headers are never logged (nothing logs headers).
 *
 * The hook is attached per route (onRoute), so the route pattern is a closure constant rather than a per-request
 * look-up of request.routeOptions (which builds a new object on each access).
 */
import type { FastifyReply, FastifyRequest, onResponseHookHandler } from 'fastify';
import { httpDuration, httpRequests } from '../../metrics.ts';
import type { App } from '../types.ts';

function line(request: FastifyRequest, reply: FastifyReply, route: string): void {
  request.log.info(
    {
      method: request.method,
      route,
      status: reply.statusCode,
      ms: Math.round(reply.elapsedTime * 100) / 100,
    },
    'request',
  );
}

type Pair = [{ inc(): void }, { observe(v: number): void }];

/** Metric children per method and status for one route, made once (prom-client hashes labels on every call). */
function routeMetrics(route: string): (method: string, status: number) => Pair {
  const cache = new Map<string, Pair>();
  return (method, status) => {
    const k = `${method} ${status}`;
    const hit = cache.get(k);
    if (hit) return hit;
    const labels = { method, route, status: String(status) };
    const c: Pair = [httpRequests.labels(labels), httpDuration.labels(labels)];
    if (cache.size < 64) cache.set(k, c);
    return c;
  };
}

export function registerRequestLog(app: App, sample: number): void {
  const logging = ['info', 'debug', 'trace'].includes(app.log.level);
  const keep = (status: number) => logging && (status >= 500 || sample >= 1 || (sample > 0 && Math.random() < sample));
  const observe = (
    request: FastifyRequest,
    reply: FastifyReply,
    route: string,
    metrics: ReturnType<typeof routeMetrics>,
  ) => {
    const [count, duration] = metrics(request.method, reply.statusCode);
    count.inc();
    duration.observe(reply.elapsedTime / 1000);
    if (keep(reply.statusCode)) line(request, reply, route);
  };
  app.addHook('onRoute', (route) => {
    const pattern = route.url;
    const metrics = routeMetrics(pattern);
    const hook: onResponseHookHandler = (request, reply, done) => {
      observe(request, reply, pattern, metrics);
      done();
    };
    route.onResponse = [...(route.onResponse === undefined ? [] : [route.onResponse].flat()), hook];
  });
  // 404s (no route): logged with the path, never the query; counted under the one route label "(none)".
  const unmatched = routeMetrics('(none)');
  app.addHook('onResponse', (request, reply, done) => {
    if (request.is404) observe(request, reply, (request.raw.url ?? '').split('?')[0]!, unmatched);
    done();
  });
}
