/**
 * The one mapping layer between the core results and the alternate ("quick-reference") shapes of the second
 * document. A route that answers in both shapes says so in its config (`config: {shapes: {hint?}}`); one hook
 * (registerShapes) decides the shape of each request before its handler runs and puts it on `request.shape`.
 * Handlers compute the core result once and, for `quickref`, turn it into the alternate body with a mapper
 * below; no route holds a second copy of any logic or reads `format` or `Accept` itself.
 *
 * Selection (docs/decisions.md, "Alternate shapes"), first match wins:
 * 1. `?format=quickref` (alternate) or `?format=core` (core);
 * 2. input only the alternate shape uses (a `sha256:` hash, a submit body with `model_slug`/`provider`, a keys
 *    body with `plan`): the route's `shapes.hint(request)`, read after validation;
 * 3. `Accept: application/vnd.svc.quickref+json` (with q > 0, not below an explicit application/json);
 * otherwise the core shape. Alternate bodies are sent with that media type; cacheable ones keep `Vary: Accept`.
 *
 * Field mapping: risk medium -> moderate; composite_score = PAI composite (0-10); provider = vendor;
 * dimensions D1-D5 as ALTERNATE_DIMS of the dimension table (src/dimensions.ts) orders them; report_hash = `sha256:<hex>`;
 * report_url = `{publicUrl}/report/<first 12 hex>`.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest, preHandlerHookHandler } from 'fastify';
import { exactQuality } from './accept.ts';
import { ALTERNATE_DIMS } from '../dimensions.ts';
import type { DatasetModel } from '../domain/dataset.ts';
import type { LeaderboardView, PaiEntry, Ranked } from '../domain/leaderboard.ts';
import { round2, type PaiDim, type Risk } from '../scoring/types.ts';
import type { ApiKeyRecord } from '../store/types.ts';
import { QUICKREF_MEDIA_TYPE } from './schemas/quickref.ts';

export { QUICKREF_MEDIA_TYPE };
export const QUICKREF_CONTENT_TYPE = `${QUICKREF_MEDIA_TYPE}; charset=utf-8`;

export type Shape = 'core' | 'quickref';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route answers in the core and the alternate shape; `hint`: the validated input is of the alternate shape. */
    shapes?: { hint?: (request: FastifyRequest) => boolean };
  }
  interface FastifyRequest {
    /** The shape this request is answered in: 'core' unless its route has `config.shapes` and it asks for 'quickref'. */
    shape: Shape;
  }
}

/** The one negotiation: every route with `config.shapes` gets `request.shape` before its handler. */
export function registerShapes(app: FastifyInstance): void {
  app.decorateRequest('shape', 'core');
  // Attached to the routes that have `config.shapes` only, first among their preHandler hooks: the other routes
  // (the hot reads among them) pay nothing, not even the look-up of request.routeOptions, which builds an object
  // on every access.
  app.addHook('onRoute', (route) => {
    const shapes = route.config?.shapes;
    if (!shapes) return;
    const hook: preHandlerHookHandler = (request, _reply, done) => {
      if (wantsQuickref(request, shapes.hint?.(request) ?? false)) request.shape = 'quickref';
      done();
    };
    route.preHandler = [hook, ...(route.preHandler === undefined ? [] : [route.preHandler].flat())];
  });
}

/** True when this request is to be answered in the alternate shape (see the header for the order). */
function wantsQuickref(request: FastifyRequest, inputHint: boolean): boolean {
  const format = (request.query as { format?: unknown } | undefined)?.format;
  if (format === 'quickref') return true;
  if (format === 'core') return false;
  if (inputHint) return true;
  const accept = request.headers.accept;
  if (!accept) return false;
  const quickref = exactQuality(accept, QUICKREF_MEDIA_TYPE);
  return quickref > 0 && quickref >= exactQuality(accept, 'application/json');
}

/** Send an alternate body (already mapped) with the quickref media type. */
export function sendQuickref(reply: FastifyReply, body: object, status?: number): FastifyReply {
  if (status !== undefined) reply.code(status);
  return reply.type(QUICKREF_CONTENT_TYPE).send(JSON.stringify(body));
}

// ---- field mappers ----------------------------------------------------------------------------------------

export type QuickrefRisk = 'low' | 'moderate' | 'high';
export const quickrefRisk = (risk: Risk): QuickrefRisk => (risk === 'medium' ? 'moderate' : risk);

export function quickrefDimensions(dims: Record<PaiDim, number>, keys: 'short' | 'long'): Record<string, number> {
  const out: Record<string, number> = {};
  for (const { code, short, long } of ALTERNATE_DIMS) out[keys === 'short' ? short : long] = dims[code];
  return out;
}

export const quickrefHash = (hex: string): string => `sha256:${hex}`;
export const reportUrl = (publicUrl: string, hex: string): string => `${publicUrl}/report/${hex.slice(0, 12)}`;

const paiSummary = (e: PaiEntry) => ({
  composite_score: e.composite,
  risk_level: quickrefRisk(e.risk),
  dimensions: quickrefDimensions(e, 'short'),
});

// ---- operation mappers --------------------------------------------------------------------------------------

/** GET /api/leaderboard: the PAI index (the alternate shape has no sycophancy fields), in the core order and rank. */
export function quickrefLeaderboard(view: LeaderboardView): object {
  const latest = [...view.bySlug.values()].reduce(
    (max, { model }) => (model.assessed > max ? model.assessed : max),
    '',
  );
  return {
    models: view.pai.map(({ entry, rank }) => ({
      rank,
      slug: entry.slug,
      provider: entry.vendor,
      ...paiSummary(entry),
    })),
    updated_at: view.meta.updated ?? (latest || new Date(0).toISOString()),
  };
}

/** GET /api/model: one entry of the view; PAI fields only when the model has PAI scores, report_hash when it has a report. */
export function quickrefModel({ model, pai }: { model: DatasetModel; pai?: Ranked<PaiEntry> }): object {
  return {
    slug: model.slug,
    provider: model.vendor,
    ...(pai && paiSummary(pai.entry)),
    scored_at: model.assessed,
    ...(model.report_hash && { report_hash: quickrefHash(model.report_hash) }),
  };
}

/** GET /api/verify: the core verify result for the 64-hex `hash`; composite_score from the certified report, rounded to 2 decimals like every published score. */
export function quickrefVerify(
  hash: string,
  r: { verified: true; model: string; generated_at: string; composite?: number } | { verified: false; message: string },
): object {
  if (!r.verified) return { valid: false, hash: quickrefHash(hash), message: r.message };
  return {
    valid: true,
    hash: quickrefHash(hash),
    model: r.model,
    scored_at: r.generated_at,
    ...(r.composite !== undefined && { composite_score: round2(r.composite) }),
  };
}

/** POST /api/score: the presented PAI scores and the hash of the stored score report. */
export function quickrefScore(
  pai: { composite: number; risk: Risk; dimensions: Record<PaiDim, number> },
  reportHash: string,
  publicUrl: string,
): object {
  return {
    composite_score: pai.composite,
    risk_level: quickrefRisk(pai.risk),
    dimensions: quickrefDimensions(pai.dimensions, 'long'),
    report_hash: quickrefHash(reportHash),
    report_url: reportUrl(publicUrl, reportHash),
  };
}

/** POST /api/keys with a plan: the allowance is per UTC day. */
export function quickrefKey(
  apiKey: string,
  record: Pick<ApiKeyRecord, 'plan' | 'rateLimit'>,
  emailSent: boolean,
): object {
  return { api_key: apiKey, plan: record.plan, rate_limit: `${record.rateLimit}/day`, email_sent: emailSent };
}

/** POST /api/waitlist: the core body without email_sent. */
export function quickrefWaitlist(body: { success: boolean; message: string; position: number }): object {
  return { success: body.success, message: body.message, position: body.position };
}

export const SUBMISSION_TURNAROUND_MS = 48 * 3_600_000;

/** POST /api/submit: the core id (a millisecond timestamp) as `sub_<id>`, completion estimated 48 hours on. */
export function quickrefSubmission(body: { success: boolean; id: number }, submittedAtMs: number): object {
  return {
    success: body.success,
    submission_id: `sub_${body.id}`,
    estimated_completion: new Date(submittedAtMs + SUBMISSION_TURNAROUND_MS).toISOString(),
  };
}

/** The core submission input from either request shape: provider is the vendor, model_slug is kept. */
export function submissionInput<T extends { vendor?: string; provider?: string; model_slug?: string }>(
  body: T,
): Omit<T, 'vendor' | 'provider' | 'model_slug'> & { vendor: string; model_slug?: string } {
  const { vendor, provider, model_slug, ...rest } = body;
  return { ...rest, vendor: (provider ?? vendor)!, ...(model_slug !== undefined && { model_slug }) };
}
