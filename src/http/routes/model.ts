import { Type } from '@sinclair/typebox';
import { PAI_DIMS, pickDims, SYCO_DIMS } from '../../dimensions.ts';
import { leaderboardView, perGeneration } from '../../domain/leaderboard.ts';
import { AppError } from '../../errors.ts';
import { cachedBody, sendCached, type CachedBody } from '../cache.ts';
import { QUICKREF_CONTENT_TYPE, quickrefModel } from '../quickref.ts';
import { ErrorSchema, ModelDetailSchema, Slug } from '../schemas/core.ts';
import { FormatParam, QuickrefModelSchema, titled } from '../schemas/quickref.ts';
import type { App, Deps } from '../types.ts';

const Query = Type.Object({ slug: Slug, format: FormatParam }, { required: ['slug'] });

/** Every model's detail body, serialized once per dataset version. */
const details = perGeneration((loaded) => {
  const view = leaderboardView(loaded);
  const out = new Map<string, { core: CachedBody; quickref: CachedBody }>();
  for (const [slug, { model, sycophancy, pai }] of view.bySlug) {
    const body: Record<string, unknown> = { slug, name: model.name, vendor: model.vendor, assessed: model.assessed };
    if (model.suite !== undefined) body.suite = model.suite;
    if (model.transcripts !== undefined) body.transcripts = model.transcripts;
    const inSuite = model.suite === undefined ? undefined : view.bySuite.get(model.suite)?.bySlug.get(slug);
    const suiteView = model.suite === undefined ? undefined : view.bySuite.get(model.suite);
    if (sycophancy) {
      const e = sycophancy.entry;
      body.sycophancy = {
        honesty: e.honesty,
        dimensions: pickDims(SYCO_DIMS, e),
        history: e.history,
        rank: sycophancy.rank,
        total_models: view.sycophancy.length,
        ...(inSuite?.sycophancy && { suite_rank: inSuite.sycophancy.rank, suite_models: suiteView!.sycophancy.length }),
      };
    }
    if (pai) {
      const e = pai.entry;
      body.pai = {
        composite: e.composite,
        risk: e.risk,
        dimensions: pickDims(PAI_DIMS, e),
        history: e.history,
        rank: pai.rank,
        total_models: view.pai.length,
        ...(inSuite?.pai && { suite_rank: inSuite.pai.rank, suite_models: suiteView!.pai.length }),
      };
    }
    out.set(slug, {
      core: cachedBody(JSON.stringify(body)),
      quickref: cachedBody(JSON.stringify(quickrefModel({ model, pai })), QUICKREF_CONTENT_TYPE),
    });
  }
  return out;
});

export async function modelRoutes(app: App, deps: Deps): Promise<void> {
  app.get(
    '/api/model',
    {
      config: { shapes: {}, hotCache: true }, // hotCache: answers served from memory (src/http/plugins/hot-cache.ts)
      schema: {
        summary: 'One model',
        description:
          'A model’s scores on each index it was assessed on, with its history (oldest first), its rank in that index ' +
          '(equal values share a rank) and the number of models ranked; with its suite and transcript count, and its rank among ' +
          'the models of the same suite (suite_rank of suite_models). Cached 300 s at the CDN. The alternate shape ' +
          '(QuickrefModel) is chosen by ?format=quickref or Accept: application/vnd.svc.quickref+json.',
        tags: ['read'],
        querystring: Query,
        response: {
          200: Type.Union([titled(ModelDetailSchema, 'ModelDetail'), QuickrefModelSchema]),
          400: ErrorSchema,
          404: ErrorSchema,
          500: ErrorSchema,
        },
      },
    },
    async (request, reply) => {
      const body = details(deps.dataset.current()).get(request.query.slug);
      if (!body) throw new AppError('model_not_found', `Unknown model: ${request.query.slug}`);
      return sendCached(request, reply, request.shape === 'quickref' ? body.quickref : body.core);
    },
  );
}
