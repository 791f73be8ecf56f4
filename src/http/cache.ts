/**
 * Cache policy for the public read endpoints (contract: leaderboard and model 300 s at the CDN).
 * Bodies are serialized once per dataset version; a strong ETag lets clients and CDNs revalidate with 304.
 */
import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { placeholderBadge, type BadgeStyle } from '../badge/index.ts';
import { statusOf } from '../errors.ts';

export const CACHE_READ = 'public, max-age=60, s-maxage=300, stale-while-revalidate=600';
export const CACHE_ERROR = 'public, max-age=60';
export const SVG_TYPE = 'image/svg+xml; charset=utf-8';

export interface CachedBody {
  body: string;
  etag: string;
  type: string;
}

export function cachedBody(body: string, type = 'application/json; charset=utf-8'): CachedBody {
  const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
  return { body, etag, type };
}

/** If-None-Match against one strong ETag (weak forms and * match too). */
export function etagMatches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((t) => t.trim().replace(/^W\//, '') === etag);
}

/** 304 Not Modified, with the headers already set (any route, whatever statuses its schema lists). */
export function notModified(reply: FastifyReply): FastifyReply {
  return reply.code(304).send();
}

/** Send a pre-serialized body with ETag and Cache-Control, or 304 when the client already has it. */
export function sendCached(
  request: FastifyRequest,
  reply: FastifyReply,
  c: CachedBody,
  cacheControl = CACHE_READ,
): FastifyReply {
  reply.header('cache-control', cacheControl).header('etag', c.etag).header('vary', 'Accept');
  if (etagMatches(request.headers['if-none-match'], c.etag)) return reply.code(304).send();
  return reply.type(c.type).send(c.body);
}

/**
 * Answer a badge request that cannot be served with a placeholder SVG (an embedded <img> still shows why),
 * cached briefly. A module-level function, not a closure made in each handler call: under tsx (keepNames)
 * creating a named closure costs a defineProperty call every time, on the badge's hot path.
 */
export function sendPlaceholderBadge(
  reply: FastifyReply,
  code: 'bad_request' | 'model_not_found' | 'internal',
  message: string,
  style?: BadgeStyle,
): FastifyReply {
  return reply
    .code(statusOf(code))
    .header('cache-control', CACHE_ERROR)
    .type(SVG_TYPE)
    .send(placeholderBadge(message, style));
}
