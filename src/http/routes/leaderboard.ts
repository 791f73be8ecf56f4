import { Type } from '@sinclair/typebox';
import { leaderboardView, perGeneration, type LeaderboardView } from '../../domain/leaderboard.ts';
import { cachedBody, sendCached } from '../cache.ts';
import { QUICKREF_CONTENT_TYPE, quickrefLeaderboard } from '../quickref.ts';
import {
  ErrorSchema,
  StringEnum,
  LeaderboardFullSchema,
  LeaderboardSingleSchema,
  SUITE_PATTERN,
} from '../schemas/core.ts';
import { FormatParam, QuickrefLeaderboardSchema, titled } from '../schemas/quickref.ts';
import type { App, Deps } from '../types.ts';

const Query = Type.Object({
  type: Type.Optional(
    StringEnum(['sycophancy', 'pai'], {
      description: 'One index; omitted means both (ignored by the alternate shape)',
    }),
  ),
  suite: Type.Optional(
    Type.String({
      pattern: SUITE_PATTERN,
      description:
        'Only the models measured on this suite (an entry’s `suite` field), ranked among themselves; an unknown suite lists none',
    }),
  ),
  format: FormatParam,
});

/** The three core bodies of a view. */
function coreBodies(view: LeaderboardView) {
  const syco = view.sycophancy.map((r) => r.entry);
  const pai = view.pai.map((r) => r.entry);
  return {
    full: cachedBody(JSON.stringify({ meta: view.meta, sycophancy: syco, pai })),
    sycophancy: cachedBody(JSON.stringify({ meta: view.meta, models: syco })),
    pai: cachedBody(JSON.stringify({ meta: view.meta, models: pai })),
  };
}

/** Per suite, serialized once per dataset version when first asked for. */
const suiteBodies = perGeneration((loaded) => {
  const view = leaderboardView(loaded);
  const out = new Map<string, ReturnType<typeof coreBodies>>();
  const empty = coreBodies({ ...view, sycophancy: [], pai: [] });
  return (suite: string) => {
    let b = out.get(suite);
    if (!b) {
      const v = view.bySuite.get(suite);
      if (!v) return empty;
      b = coreBodies(v);
      out.set(suite, b);
    }
    return b;
  };
});

/** The three core bodies, serialized once per dataset version. */
const bodies = perGeneration((loaded) => {
  const view = leaderboardView(loaded);
  return {
    ...coreBodies(view),
    quickref: cachedBody(JSON.stringify(quickrefLeaderboard(view)), QUICKREF_CONTENT_TYPE),
  };
});

export async function leaderboardRoutes(app: App, deps: Deps): Promise<void> {
  app.get(
    '/api/leaderboard',
    {
      config: { shapes: {}, hotCache: true }, // hotCache: answers served from memory (src/http/plugins/hot-cache.ts)
      schema: {
        summary: 'Leaderboard',
        description:
          'Both indices (LeaderboardFull) or one (LeaderboardSingleIndex, with ?type=). Sycophancy is ordered by honesty, ' +
          'highest first; PAI by composite, lowest first; ties by slug. Each entry names the suite it was measured on and ' +
          'its transcript count; ?suite= lists one suite, whose models rank among themselves. CDN-cacheable for 300 s with ' +
          'stale-while-revalidate 600 s; ETag and If-None-Match give 304. The alternate shape (QuickrefLeaderboard: the PAI ' +
          'index as {models, updated_at}) is chosen by ?format=quickref or Accept: application/vnd.svc.quickref+json.',
        tags: ['read'],
        querystring: Query,
        response: {
          200: Type.Union([
            titled(LeaderboardFullSchema, 'LeaderboardFull'),
            titled(LeaderboardSingleSchema, 'LeaderboardSingleIndex'),
            QuickrefLeaderboardSchema,
          ]),
          400: ErrorSchema,
          500: ErrorSchema,
        },
      },
    },
    async (request, reply) => {
      const loaded = deps.dataset.current();
      const b = bodies(loaded);
      if (request.shape === 'quickref') return sendCached(request, reply, b.quickref);
      const core = request.query.suite === undefined ? b : suiteBodies(loaded)(request.query.suite);
      return sendCached(request, reply, request.query.type ? core[request.query.type] : core.full);
    },
  );
}
