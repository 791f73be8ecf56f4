/**
 * Method policy and CORS, in one place.
 * - Every listed path answers every other method with 405, an Error body and an Allow header.
 * - /api paths answer any origin (the client script runs on other sites): Access-Control-Allow-Origin: *, and an
 *   OPTIONS preflight answers 204 with the CORS headers. That is the one exception to "other methods answer 405";
 *   OPTIONS on a non-/api path is a 405 like any other method.
 * - Unknown paths answer 404 with an Error body.
 * - Under /api/badge an unknown path is a placeholder SVG with the 404, so an `<img>` whose address gained a
 *   trailing slash or an extra segment still shows an image. A 405 stays the Error body (the contract asks for
 *   one, and no `<img>` sends another method).
 */
import http from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { placeholderBadge } from '../../badge/index.ts';
import { statusOf, type ErrorCode } from '../../errors.ts';
import { CACHE_ERROR, SVG_TYPE } from '../cache.ts';
import { sendError } from './errors.ts';
import type { RequestLog } from './request-log.ts';
import { BADGE_PATH, SECURITY_HEADERS } from './framework-errors.ts';
import type { App } from '../types.ts';

/** The Error body, or under /api/badge a placeholder SVG with the catalogue's status for the code. */
function refuse(
  reply: FastifyReply,
  url: string,
  code: ErrorCode,
  message: string,
  badgeText: string,
  headers: Record<string, string> = {},
): FastifyReply {
  if (!BADGE_PATH.test(url)) return sendError(reply, code, message, { headers });
  for (const [k, v] of Object.entries(headers)) reply.header(k, v);
  return reply
    .code(statusOf(code))
    .header('cache-control', CACHE_ERROR)
    .type(SVG_TYPE)
    .send(placeholderBadge(badgeText));
}

/**
 * Every method Node's HTTP parser accepts (but CONNECT, which names no path): the router learns the ones Fastify
 * does not know (WebDAV's PROPFIND, PURGE, …), so each one reaches a listed path's 405 instead of a 404.
 */
const ALL = http.METHODS.filter((m) => m !== 'CONNECT');

/** Call before any route is added: teaches the router every method in ALL. */
export function knowAllMethods(app: App): void {
  const known = new Set(app.supportedMethods);
  for (const m of ALL) if (!known.has(m)) app.addHttpMethod(m);
}
const EXPOSED = 'ETag, Retry-After, RateLimit, RateLimit-Policy, Svc-Allowance, X-Request-Id';
const ALLOWED_HEADERS = 'Authorization, Content-Type, Accept, If-None-Match';

/** Call before routes are registered: starts collecting each path's methods. */
export function collectRoutes(app: App): Map<string, Set<string>> {
  const byUrl = new Map<string, Set<string>>();
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const set = byUrl.get(route.url) ?? new Set<string>();
    for (const m of methods) set.add(m);
    byUrl.set(route.url, set);
  });
  // Headers every answer carries, set once as the request arrives (an error later keeps them): the request id and
  // the security headers, and the CORS headers on /api. One hook instead of one here and an onSend hook: hooks
  // are the read routes' main cost besides the write itself (bench/http.ts).
  const security = Object.entries(SECURITY_HEADERS);
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    for (let i = 0; i < security.length; i++) reply.header(security[i]![0], security[i]![1]);
    if (request.url.startsWith('/api/')) {
      reply.header('access-control-allow-origin', '*');
      reply.header('access-control-expose-headers', EXPOSED);
    }
    done();
  });
  return byUrl;
}

/** Call after all routes are registered: adds the 405 and preflight answers, and the 404 handler. */
export function addMethodFallbacks(app: App, byUrl: Map<string, Set<string>>, log?: RequestLog): void {
  for (const [url, methods] of [...byUrl]) {
    if (methods.has('GET')) methods.add('HEAD');
    const allow = ALL.filter((m) => methods.has(m) && m !== 'OPTIONS');
    const rest = ALL.filter((m) => !methods.has(m));
    if (rest.length === 0) continue;
    const isApi = url.startsWith('/api/');
    // Answered in onRequest, before any body is read: a refused method never waits for, parses or
    // size-checks a body (a bodiless QUERY or a large PUT is a 405, not a 400 or 413).
    const answer = async (request: FastifyRequest, reply: FastifyReply) => {
      if (request.method === 'OPTIONS' && isApi) {
        return reply
          .code(204)
          .header('access-control-allow-methods', [...allow, 'OPTIONS'].join(', '))
          .header('access-control-allow-headers', ALLOWED_HEADERS)
          .header('access-control-max-age', '86400')
          .send();
      }
      return sendError(
        reply,
        'method_not_allowed',
        `Method ${request.method} is not allowed on ${url}; use ${allow.join(', ')}`,
        { headers: { allow: allow.join(', ') } },
      );
    };
    app.route({ method: [...rest], url, schema: { hide: true }, onRequest: answer, handler: answer });
  }
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0];
    const sent = refuse(reply, request.url, 'not_found', `No such path: ${path}`, 'no such badge');
    log?.unmatched(request, reply);
    return sent;
  });
}
