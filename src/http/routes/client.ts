/**
 * The embeddable pieces of the second contract document: GET /svc.js (the client script in client/svc.js,
 * read once at start) and GET /api/badge (the parameterless site badge). Both are public and cacheable:
 * max-age 60 s, CDN 300 s, stale-while-revalidate 600 s, with ETags. A bad badge query answers a placeholder
 * SVG with 400 (an embedded <img> still shows why).
 */
import fs from 'node:fs';
import { Type } from '@sinclair/typebox';
import { renderSiteBadge, SITE_BADGE_STYLES, type SiteBadgeStyle } from '../../badge/index.ts';
import { CACHE_READ, cachedBody, sendCached, sendPlaceholderBadge, SVG_TYPE, type CachedBody } from '../cache.ts';
import type { App, Deps } from '../types.ts';

const SCRIPT_FILE = new URL('../../../client/svc.js', import.meta.url);
/** s: a plain decimal from 0 to 1 ("0.62", "1", ".5"); nothing else (no exponents, signs or spaces). */
const SCORE = /^(?:0|1)?(?:\.\d{1,6})?$/;
const isStyle = (v: unknown): v is SiteBadgeStyle =>
  typeof v === 'string' && (SITE_BADGE_STYLES as readonly string[]).includes(v);

export async function clientRoutes(app: App, _deps: Deps): Promise<void> {
  const script = cachedBody(fs.readFileSync(SCRIPT_FILE, 'utf8'), 'text/javascript; charset=utf-8');
  /** Rendered badges: 3 fixed styles + score badges keyed by s rounded to 2 decimals (at most 101). */
  const badges = new Map<string, CachedBody>();

  app.get(
    '/svc.js',
    {
      schema: {
        summary: 'Client script',
        description:
          'Load with <script defer src="/svc.js">. Scores every element carrying data-svc (its text is the response, ' +
          'data-svc-prompt the prompt) through POST /api/honesty, inserts a badge below it and dispatches the ' +
          'CustomEvent svc:scored with the report. Svc.check({prompt, response}) returns a promise of the report. ' +
          'Works in browsers, Node, Deno, Bun and workers.',
        tags: ['client'],
        response: {
          200: { description: 'JavaScript', content: { 'text/javascript': { schema: { type: 'string' } } } },
        },
      },
    },
    async (request, reply) => {
      reply.header('access-control-allow-origin', '*');
      return sendCached(request, reply, script, CACHE_READ);
    },
  );

  app.get(
    '/api/badge',
    {
      schema: {
        summary: 'Site badge',
        description:
          'An SVG badge for a site using svc. style: default, compact, dark or score (default: default). With ' +
          'style=score, s (required) is a sycophancy score from 0 to 1, shown with 2 decimals and coloured by the ' +
          'honesty verdict: below 0.1 green, 0.1 to below 0.3 yellow, 0.3 or above red. A bad style or s answers a ' +
          'placeholder SVG with 400.',
        tags: ['read'],
        // Validated in the handler: every answer, even a 400, is an SVG image.
        querystring: Type.Object({
          style: Type.Optional(Type.String({ enum: [...SITE_BADGE_STYLES], default: 'default' })),
          s: Type.Optional(
            Type.String({ description: 'Score 0..1, required when style=score', pattern: SCORE.source }),
          ),
        }),
        response: {
          200: { description: 'SVG badge', content: { 'image/svg+xml': { schema: { type: 'string' } } } },
          400: {
            description: 'Placeholder SVG: invalid style or s',
            content: { 'image/svg+xml': { schema: { type: 'string' } } },
          },
        },
      },
      attachValidation: true,
    },
    async (request, reply) => {
      const q = request.query as { style?: unknown; s?: unknown };
      const style = q.style ?? 'default';
      if (!isStyle(style)) return sendPlaceholderBadge(reply, 'bad_request', 'invalid style');
      let key: string = style;
      let s: number | undefined;
      if (style === 'score') {
        if (typeof q.s !== 'string' || !SCORE.test(q.s) || q.s === '' || q.s === '.')
          return sendPlaceholderBadge(reply, 'bad_request', 'invalid s');
        s = Math.round(Number(q.s) * 100) / 100;
        if (!(s >= 0 && s <= 1)) return sendPlaceholderBadge(reply, 'bad_request', 'invalid s');
        key = `score:${s.toFixed(2)}`;
      }
      let c = badges.get(key);
      if (!c) {
        c = cachedBody(renderSiteBadge(style, s), SVG_TYPE);
        badges.set(key, c);
      }
      return sendCached(request, reply, c, CACHE_READ);
    },
  );
}
