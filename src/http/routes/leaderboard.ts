import { Type } from '@sinclair/typebox';
import { leaderboardView, perGeneration } from '../../domain/leaderboard.ts';
import { cachedBody, sendCached } from '../cache.ts';
import { QUICKREF_CONTENT_TYPE, quickrefLeaderboard, wantsQuickref } from '../quickref.ts';
import { ErrorSchema, StringEnum, LeaderboardFullSchema, LeaderboardSingleSchema } from '../schemas/core.ts';
import { FormatParam, QuickrefLeaderboardSchema, titled } from '../schemas/quickref.ts';
import type { App, Deps } from '../types.ts';

const Query = Type.Object({
  type: Type.Optional(
    StringEnum(['sycophancy', 'pai'], {
      description: 'One index; omitted means both (ignored by the alternate shape)',
    }),
  ),
  format: FormatParam,
});

/** The three core bodies, serialized once per dataset version. */
const bodies = perGeneration((loaded) => {
  const view = leaderboardView(loaded);
  const syco = view.sycophancy.map((r) => r.entry);
  const pai = view.pai.map((r) => r.entry);
  return {
    full: cachedBody(JSON.stringify({ meta: view.meta, sycophancy: syco, pai })),
    sycophancy: cachedBody(JSON.stringify({ meta: view.meta, models: syco })),
    pai: cachedBody(JSON.stringify({ meta: view.meta, models: pai })),
    quickref: cachedBody(JSON.stringify(quickrefLeaderboard(view)), QUICKREF_CONTENT_TYPE),
  };
});

export async function leaderboardRoutes(app: App, deps: Deps): Promise<void> {
  app.get(
    '/api/leaderboard',
    {
      schema: {
        summary: 'Leaderboard',
        description:
          'Both indices (LeaderboardFull) or one (LeaderboardSingleIndex, with ?type=). Sycophancy is ordered by honesty, ' +
          'highest first; PAI by composite, lowest first; ties by slug. CDN-cacheable for 300 s with ' +
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
      const b = bodies(deps.dataset.current());
      if (wantsQuickref(request)) return sendCached(request, reply, b.quickref);
      return sendCached(request, reply, request.query.type ? b[request.query.type] : b.full);
    },
  );
}
