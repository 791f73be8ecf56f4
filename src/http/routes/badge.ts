import { Type } from '@sinclair/typebox';
import { BADGE_STYLES, BADGE_TYPES, renderBadge, type BadgeStyle, type BadgeType } from '../../badge/index.ts';
import { SLUG_PATTERN } from '../../domain/dataset.ts';
import { leaderboardView, perGeneration } from '../../domain/leaderboard.ts';
import { CACHE_READ, cachedBody, sendCached, sendPlaceholderBadge, SVG_TYPE, type CachedBody } from '../cache.ts';
import type { App, Deps } from '../types.ts';

const SLUG = new RegExp(SLUG_PATTERN);
const isType = (v: unknown): v is BadgeType => typeof v === 'string' && (BADGE_TYPES as readonly string[]).includes(v);
const isStyle = (v: unknown): v is BadgeStyle =>
  typeof v === 'string' && (BADGE_STYLES as readonly string[]).includes(v);

/** Rendered badges, per dataset version; at most models × 3 types × 3 styles entries. */
const badges = perGeneration(() => new Map<string, CachedBody>());

export async function badgeRoutes(app: App, deps: Deps): Promise<void> {
  app.get(
    '/api/badge/:slug',
    {
      config: { hotCache: true }, // answers served from memory (src/http/plugins/hot-cache.ts)
      schema: {
        summary: 'SVG badge for a model',
        description:
          'An SVG badge for a README. type: sycophancy, pai or both (default both); style: flat, flat-square or ' +
          'for-the-badge (default flat). Colour: PAI by risk (low green, medium yellow, high red); honesty > 90 green, ' +
          '80-90 yellow, < 80 red; both takes the worse. Errors (400 bad type/style, 404 unknown model, 500) are ' +
          'placeholder SVGs, cached 60 s.',
        tags: ['read'],
        // Validation is done in the handler: every answer, even a 400, must be an SVG image.
        params: Type.Object({ slug: Type.String() }),
        querystring: Type.Object({
          type: Type.Optional(Type.String({ enum: [...BADGE_TYPES], default: 'both' })),
          style: Type.Optional(Type.String({ enum: [...BADGE_STYLES], default: 'flat' })),
        }),
        response: {
          200: { description: 'SVG badge', content: { 'image/svg+xml': { schema: { type: 'string' } } } },
          400: {
            description: 'Placeholder SVG: invalid type or style',
            content: { 'image/svg+xml': { schema: { type: 'string' } } },
          },
          404: {
            description: 'Placeholder SVG: unknown model',
            content: { 'image/svg+xml': { schema: { type: 'string' } } },
          },
          500: {
            description: 'Placeholder SVG: data error',
            content: { 'image/svg+xml': { schema: { type: 'string' } } },
          },
        },
      },
      attachValidation: true,
    },
    async (request, reply) => {
      const q = request.query as { type?: unknown; style?: unknown };
      const style: BadgeStyle = isStyle(q.style) ? q.style : 'flat';
      const type = q.type ?? 'both';
      if (request.validationError || !isType(type) || (q.style !== undefined && !isStyle(q.style))) {
        return sendPlaceholderBadge(reply, 'bad_request', !isType(type) ? 'invalid type' : 'invalid style', style);
      }
      try {
        const loaded = deps.dataset.current();
        const slug = request.params.slug;
        const entry = SLUG.test(slug) ? leaderboardView(loaded).bySlug.get(slug) : undefined;
        if (!entry) return sendPlaceholderBadge(reply, 'model_not_found', 'unknown model', style);
        const cache = badges(loaded);
        const key = `${slug}\u0000${type}\u0000${style}`;
        let c = cache.get(key);
        if (!c) {
          const svg = renderBadge(
            { name: entry.model.name, honesty: entry.sycophancy?.entry.honesty, composite: entry.model.pai?.composite },
            type,
            style,
          );
          c = cachedBody(svg, SVG_TYPE);
          cache.set(key, c);
        }
        return sendCached(request, reply, c, CACHE_READ);
      } catch (err) {
        request.log.error({ err }, 'badge failed');
        return sendPlaceholderBadge(reply, 'internal', 'error', style);
      }
    },
  );
}
