/**
 * Answers to the hottest reads served from memory before Fastify sees the request.
 *
 * The leaderboard page, GET /api/leaderboard, /api/model and /api/badge/:slug answer bytes that change only with
 * the dataset version (each route already serializes them once per version, with an ETag). Routing, the hooks
 * and Fastify's request and reply objects still cost about as much again as a bare route's whole answer
 * (bench/http.ts), so a route marked `config: { hotCache: true }` has its 200 answers remembered here, by URL and
 * Accept header, exactly as Fastify sent them (every header but the request id and Date), and the next identical
 * request is answered from the HTTP server's request listener:
 *
 * - only GET and HEAD without an Authorization header (a bad key must still answer 401, through the auth plugin);
 * - with the same headers as before: the request id (a valid X-Request-Id is echoed, as genReqId does), the
 *   security and CORS headers, ETag, Cache-Control, Vary, Content-Type and Content-Length; If-None-Match that names
 *   the ETag gets the 304 Fastify would send; HEAD gets the headers without the body;
 * - counted and logged like every request (src/http/plugins/request-log.ts: the same request line, metric series and
 *   sampling), under the route's pattern;
 * - forgotten as a whole when the dataset version changes (the first request of the new version goes through the
 *   route again), when more than HOT_CACHE_MAX answers or HOT_CACHE_MAX_BYTES of bodies are held, and for good once
 *   the app starts closing (then every request goes through Fastify, which answers 503 while draining).
 *
 * Memory is bounded whatever URLs clients make up: the routes ignore unknown query parameters, so `/?a=1`, `/?a=2`
 * … are distinct keys with the same answer. Answers with the same ETag share one body (the ETag is a hash of the
 * bytes, and the bytes are compared once when remembered), so such keys cost their headers, not another copy of a
 * 100 KB page; a URL and Accept header longer than HOT_CACHE_MAX_KEY characters is not remembered at all.
 */
import type http from 'node:http';
import type { FastifyReply, FastifyRequest, onSendHookHandler } from 'fastify';
import type { App } from '../types.ts';
import { etagMatches } from '../cache.ts';
import type { RequestLog } from './request-log.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Remember this GET route's 200 answers in the hot cache (src/http/plugins/hot-cache.ts). */
    hotCache?: boolean;
  }
}

export const HOT_CACHE_MAX = 2000;
/** Bytes of distinct bodies held at most (the bundled dataset's reads are well under 1 MB in all). */
export const HOT_CACHE_MAX_BYTES = 16 * 1024 * 1024;
/** Longest URL plus Accept header remembered. */
export const HOT_CACHE_MAX_KEY = 1024;

interface Entry {
  /** Header names and values as a flat list, the request id's value at index 1 (filled per answer). */
  headers: string[];
  /** The same without Content-Type and Content-Length, for a 304. */
  notModified: string[];
  body: Buffer;
  etag: string | undefined;
  route: string;
}

export class HotCache {
  private readonly entries = new Map<string, Entry>();
  /** The distinct bodies held, by ETag, and their total size. */
  private readonly bodies = new Map<string, Buffer>();
  private bytes = 0;
  private generation: unknown;
  private closed = false;

  constructor(
    /** The dataset version in force (an object whose identity changes with the version). */
    private readonly version: () => unknown,
    private readonly requestId: (req: http.IncomingMessage) => string,
    private readonly log: RequestLog,
  ) {}

  /** Answer from memory when possible; false: the request goes on to Fastify. */
  serve(req: http.IncomingMessage, res: http.ServerResponse): boolean {
    if (this.closed || this.entries.size === 0) return false;
    const method = req.method;
    if ((method !== 'GET' && method !== 'HEAD') || req.headers.authorization !== undefined) return false;
    const accept = req.headers.accept;
    const e = this.entries.get(accept === undefined ? req.url! : `${req.url}\n${accept}`);
    if (e === undefined) return false;
    if (this.version() !== this.generation) {
      this.clear();
      return false;
    }
    const start = performance.now();
    const id = this.requestId(req);
    const inm = req.headers['if-none-match'];
    let status = 200;
    if (inm !== undefined && e.etag !== undefined && etagMatches(inm, e.etag)) {
      status = 304;
      e.notModified[1] = id;
      res.writeHead(304, e.notModified);
      res.end();
    } else {
      e.headers[1] = id;
      res.writeHead(200, e.headers);
      if (method === 'HEAD') res.end();
      else res.end(e.body);
    }
    this.log.served(id, method, e.route, status, performance.now() - start);
    return true;
  }

  /** Remember a route's answer (its onSend hook): only a 200 to a GET without Authorization, as sent. */
  remember(request: FastifyRequest, reply: FastifyReply, payload: unknown): void {
    if (this.closed || reply.statusCode !== 200 || request.method !== 'GET') return;
    if (request.headers.authorization !== undefined) return;
    if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return;
    const version = this.version();
    if (version !== this.generation) {
      this.clear();
      this.generation = version;
    }
    const accept = request.headers.accept;
    const key = accept === undefined ? request.raw.url! : `${request.raw.url}\n${accept}`;
    if (key.length > HOT_CACHE_MAX_KEY || this.entries.has(key)) return;
    if (this.entries.size >= HOT_CACHE_MAX) this.clear();
    const headers: string[] = ['x-request-id', ''];
    const notModified: string[] = ['x-request-id', ''];
    let etag: string | undefined;
    for (const [name, value] of Object.entries(reply.getHeaders())) {
      if (value === undefined || name === 'x-request-id' || name === 'content-length') continue;
      const v = Array.isArray(value) ? value.join(', ') : String(value);
      if (name === 'etag') etag = v;
      headers.push(name, v);
      if (name !== 'content-type') notModified.push(name, v);
    }
    // Encoded once here: a string would be UTF-8 encoded again on every answer.
    let body = typeof payload === 'string' ? Buffer.from(payload) : payload;
    const held = etag === undefined ? undefined : this.bodies.get(etag);
    if (held?.equals(body)) body = held;
    else {
      if (this.bytes + body.length > HOT_CACHE_MAX_BYTES) this.clear();
      if (body.length > HOT_CACHE_MAX_BYTES) return;
      this.bytes += body.length;
      if (etag !== undefined && held === undefined) this.bodies.set(etag, body);
    }
    headers.push('content-length', String(body.length));
    this.entries.set(key, { headers, notModified, body, etag, route: request.routeOptions.url ?? '' });
  }

  /** Answers and distinct body bytes held (tests, and the bound above). */
  get held(): { answers: number; bytes: number } {
    return { answers: this.entries.size, bytes: this.bytes };
  }

  private clear(): void {
    this.entries.clear();
    this.bodies.clear();
    this.bytes = 0;
  }

  /** From now on every request goes through Fastify (the app is closing). */
  close(): void {
    this.closed = true;
    this.clear();
  }
}

/** Attach the remembering hook to the routes that ask for it; forget everything when the app starts closing. */
export function registerHotCache(app: App, cache: HotCache): void {
  app.addHook('onRoute', (route) => {
    if (!route.config?.hotCache) return;
    const hook: onSendHookHandler = (request, reply, payload, done) => {
      cache.remember(request, reply, payload);
      done(null, payload);
    };
    route.onSend = [...(route.onSend === undefined ? [] : [route.onSend].flat()), hook];
  });
  app.addHook('preClose', (done) => {
    cache.close();
    done();
  });
}
