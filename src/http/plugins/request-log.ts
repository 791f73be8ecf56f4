/**
 * Request logging and request metrics (src/metrics.ts: count and latency per method, route and status).
 *
 * Logging: one info line per finished request, `{reqId, method, route, status, ms}` and the message
 * "request", instead of Fastify's two lines (incoming, completed) that serialized the whole request each time.
 *
 * - `route` is the route's pattern (`/api/keys`, `/api/badge/:slug`), never the URL: query strings are not logged,
 *   so no spelling of a secret parameter (`?key=`, `?%6bey=`, `?k%65y=`, `?key[]=`) can reach the log. Requests
 *   that matched no route log their path without the query (and a path under /submissions/, where the status
 *   token is, as `/submissions/[redacted]`).
 * - Sampling: SVC_LOG_SAMPLE (0-1, default 1) is the share of requests with a status below 500 that are logged;
 *   every 5xx is logged. Errors inside handlers are logged by the error handler with the same request id.
 * - Authorization and Cookie headers are never logged (nothing logs headers).
 *
 * Cost (bench/http.ts): this line is written on every request, so it is built as one string, the same JSON that
 * pino writes for `log.info({...}, 'request')` (level, time, the logger's bindings, reqId, the fields, msg), and
 * handed straight to the logger's destination (src/log-sink.ts: encoded once into a reused buffer, written in
 * batches). That skips the per-request child logger and pino's generic serializer; every value in it is either a
 * constant of the route or checked text (the request id matches [A-Za-z0-9._-], the method is an HTTP token), and a
 * 404's path goes through JSON.stringify. A logger that is not a plain pino instance (custom formatters, a mixin, a multistream) gets
 * the ordinary `request.log.info` call instead.
 *
 * The hook is attached per route (onRoute), so the route pattern is a closure constant rather than a per-request
 * look-up of request.routeOptions (which builds a new object on each access); a request no route matched is
 * counted and logged by the not-found handler (`unmatched`, called from src/http/plugins/methods.ts).
 */
import { isDeepStrictEqual } from 'node:util';
import type { FastifyBaseLogger, FastifyReply, FastifyRequest, onResponseHookHandler } from 'fastify';
import pino from 'pino';
import { requestSeries, type RequestSeries } from '../../metrics.ts';
import type { App } from '../types.ts';

type Writer = (reqId: string, method: string, routeJson: string, status: number, ms: number) => void;

/** A function that writes the request line straight to pino's destination, or null when the logger is not plain. */
function fastWriter(log: FastifyBaseLogger): Writer | null {
  const l = log as unknown as Record<symbol, unknown>;
  const s = pino.symbols;
  const stream = l[s.streamSym] as { write?: (line: string) => unknown } | undefined;
  const time = l[s.timeSym] as (() => string) | undefined;
  const chindings = l[s.chindingsSym];
  const formatters = l[s.formattersSym] as
    | { level?: (label: string, n: number) => object; log?: (o: object) => object }
    | undefined;
  const plain =
    typeof stream?.write === 'function' &&
    !(stream as Record<symbol, unknown>)[s.needsMetadataGsym] &&
    typeof time === 'function' &&
    typeof chindings === 'string' &&
    !l[s.mixinSym] &&
    !l[(s as unknown as Record<string, symbol>).msgPrefixSym!] &&
    l[s.messageKeySym] === 'msg' &&
    isDeepStrictEqual(formatters?.level?.('info', 30), { level: 30 }) &&
    (formatters?.log === undefined || isDeepStrictEqual(formatters.log({ a: 1 }), { a: 1 }));
  if (!plain) return null;
  const write = stream.write!.bind(stream);
  const head = '{"level":30';
  return (reqId, method, routeJson, status, ms) => {
    write(
      `${head}${time.call(log)}${chindings},"reqId":"${reqId}","method":"${method}","route":${routeJson},"status":${status},"ms":${ms},"msg":"request"}\n`,
    );
  };
}

const SAFE_ID = /^[A-Za-z0-9._-]*$/;

/** Metric series per method and status for one route, made once. Keys are numbers: no string per request. */
function routeMetrics(route: string): (method: string, status: number) => RequestSeries {
  const cache = new Map<number, RequestSeries>();
  const methods = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];
  return (method, status) => {
    const m = methods.indexOf(method);
    const k = status * 8 + (m < 0 ? 7 : m);
    let s = cache.get(k);
    if (!s) {
      s = requestSeries(method, route, status);
      if (m >= 0) cache.set(k, s);
    }
    return s;
  };
}

export interface RequestLog {
  /** Count and log a request that matched no route (the not-found handler calls it as it answers). */
  unmatched(request: FastifyRequest, reply: FastifyReply): void;
  /** Count and log a request answered outside Fastify (src/http/plugins/hot-cache.ts), under its route pattern. */
  served(reqId: string, method: string, route: string, status: number, ms: number): void;
}

export function registerRequestLog(app: App, sample: number): RequestLog {
  const logging = ['info', 'debug', 'trace'].includes(app.log.level);
  const fast = logging ? fastWriter(app.log) : null;
  const keep = (status: number) => logging && (status >= 500 || sample >= 1 || (sample > 0 && Math.random() < sample));
  const write = (reqId: string, method: string, route: string, routeJson: string, status: number, ms: number) => {
    if (!keep(status)) return;
    const rounded = Math.round(ms * 100) / 100;
    if (fast && SAFE_ID.test(reqId) && SAFE_ID.test(method)) fast(reqId, method, routeJson, status, rounded);
    else app.log.info({ reqId, method, route, status, ms: rounded }, 'request');
  };
  const observe = (
    request: FastifyRequest,
    reply: FastifyReply,
    route: string,
    routeJson: string,
    series: RequestSeries,
  ) => {
    const ms = reply.elapsedTime;
    series.observe(ms / 1000);
    write(request.id, request.method, route, routeJson, reply.statusCode, ms);
  };
  const byRoute = new Map<string, { json: string; metrics: ReturnType<typeof routeMetrics> }>();
  app.addHook('onRoute', (route) => {
    const pattern = route.url;
    const patternJson = JSON.stringify(pattern);
    const metrics = routeMetrics(pattern);
    const hook: onResponseHookHandler = (request, reply, done) => {
      observe(request, reply, pattern, patternJson, metrics(request.method, reply.statusCode));
      done();
    };
    route.onResponse = [...(route.onResponse === undefined ? [] : [route.onResponse].flat()), hook];
  });
  // 404s (no route): logged with the path, never the query; counted under the one route label "(none)".
  const none = routeMetrics('(none)');
  return {
    served(reqId, method, route, status, ms) {
      let r = byRoute.get(route);
      if (!r) {
        r = { json: JSON.stringify(route), metrics: routeMetrics(route) };
        byRoute.set(route, r);
      }
      r.metrics(method, status).observe(ms / 1000);
      write(reqId, method, route, r.json, status, ms);
    },
    unmatched(request, reply) {
      // A submission's status token is a secret in the path: never logged, also under a path no route matched
      // (a trailing slash or an extra segment after the token).
      let path = (request.raw.url ?? '').split('?')[0]!;
      if (path.startsWith('/submissions/')) path = '/submissions/[redacted]';
      observe(request, reply, path, JSON.stringify(path), none(request.method, reply.statusCode));
    },
  };
}
