/**
 * POST /api/score: heuristic scores for one prompt/response pair, with the evidence behind each dimension.
 * type: `sycophancy` returns only the sycophancy object, `pai` only the pai object, `both` (default) both.
 */
import { Type } from '@sinclair/typebox';
import { storeScoreReport } from '../../domain/reports.ts';
import { timeEngine } from '../../metrics.ts';
import { scoreText } from '../../scoring/engine.ts';
import { presentScores } from '../../scoring/present.ts';
import { PAI_DIMS, SYCO_DIMS, type Dim, type DimResult } from '../../scoring/types.ts';
import { quickrefScore, sendQuickref } from '../quickref.ts';
import { codePoints } from '../../text.ts';
import {
  errorResponses,
  PaiDimensions,
  PromptField,
  ResponseField,
  RiskSchema,
  StringEnum,
  SycoDimensions,
} from '../schemas/core.ts';
import { FormatQuery, QuickrefScoreReportSchema, titled } from '../schemas/quickref.ts';
import type { App, Deps } from '../types.ts';

export const SCORE_NOTE =
  'These scores come from a heuristic text analysis engine, not from the five-judge ensemble that powers the published ' +
  'leaderboard. For five-judge ensemble scoring with full audit chain, request the enterprise certified assessment.';

export const ScoreBody = Type.Object(
  {
    prompt: PromptField,
    response: ResponseField,
    type: Type.Optional(
      StringEnum(['pai', 'sycophancy', 'both'], { default: 'both', description: 'Which index to return' }),
    ),
  },
  { additionalProperties: false },
);

const EvidenceItem = Type.Object({
  quote: Type.String(),
  start: Type.Integer({ description: 'UTF-16 offset into response' }),
  end: Type.Integer(),
  signal: Type.String(),
  sign: Type.Integer({ description: '1 raised the score, -1 lowered it' }),
});

export const ScoreResponse = Type.Object({
  scored_at: Type.String({ format: 'date-time' }),
  prompt_length: Type.Integer({ description: 'Unicode code points' }),
  response_length: Type.Integer({ description: 'Unicode code points' }),
  pai: Type.Optional(Type.Object({ composite: Type.Number(), risk: RiskSchema, dimensions: PaiDimensions })),
  sycophancy: Type.Optional(
    Type.Object({ honesty: Type.Number({ minimum: 0, maximum: 100 }), dimensions: SycoDimensions }),
  ),
  evidence: Type.Record(Type.String(), Type.Array(EvidenceItem), {
    description: 'Per dimension code, the quoted response spans that moved its score (strongest first)',
  }),
  engine: Type.Object({ name: Type.String(), version: Type.String() }),
  note: Type.String(),
});

export async function scoreRoutes(app: App, deps: Deps): Promise<void> {
  app.post(
    '/api/score',
    {
      config: { rateLimit: 'score', shapes: {} },
      schema: {
        summary: 'Score a prompt/response pair',
        description:
          'Heuristic text-analysis scores (no LLM at run time): the five sycophancy dimensions and honesty, the five PAI ' +
          'dimensions with composite and risk, and the evidence behind each. type=sycophancy returns only the sycophancy ' +
          'object, type=pai only the pai object, both (default) both. 100 requests per hour per IP. The alternate shape ' +
          '(QuickrefScoreReport, chosen by ?format=quickref or Accept: application/vnd.svc.quickref+json; type is ignored) ' +
          'stores a score report (not entered in the audit log; kept for SVC_SCORE_REPORT_TTL_S, default 30 days, then its ' +
          'report_url answers 404) and answers its hash and report_url.',
        tags: ['score'],
        querystring: FormatQuery,
        body: ScoreBody,
        response: {
          200: Type.Union([titled(ScoreResponse, 'ScoreResult'), QuickrefScoreReportSchema]),
          ...errorResponses(400, 401, 413, 415, 429, 500),
        },
      },
    },
    async (request, reply) => {
      const { prompt, response } = request.body;
      const type = request.body.type ?? 'both';
      const result = timeEngine('score', () => scoreText({ prompt, response }));
      const shown = presentScores(result);
      const dims: readonly Dim[] =
        type === 'pai' ? PAI_DIMS : type === 'sycophancy' ? SYCO_DIMS : [...SYCO_DIMS, ...PAI_DIMS];
      const all: Record<Dim, DimResult> = { ...result.sycophancy.dimensions, ...result.pai.dimensions };
      const evidence: Record<string, { quote: string; start: number; end: number; signal: string; sign: number }[]> =
        {};
      for (const d of dims)
        evidence[d] = all[d].evidence.map(({ quote, start, end, signal, sign }) => ({
          quote,
          start,
          end,
          signal,
          sign,
        }));
      const body = {
        scored_at: new Date(deps.now()).toISOString(),
        prompt_length: codePoints(prompt),
        response_length: codePoints(response),
        ...(type !== 'sycophancy' ? { pai: shown.pai } : {}),
        ...(type !== 'pai' ? { sycophancy: shown.sycophancy } : {}),
        evidence,
        engine: result.engine,
        note: SCORE_NOTE,
      };
      if (request.shape === 'core') return body;
      const hash = await storeScoreReport(
        deps.store,
        {
          prompt,
          response,
          promptLength: body.prompt_length,
          responseLength: body.response_length,
          scoredAt: body.scored_at,
          engine: result.engine,
          scores: shown,
          method: SCORE_NOTE,
        },
        deps.config.scoreReportTtlMs,
      );
      return sendQuickref(reply, quickrefScore(shown.pai, hash, deps.config.publicUrl));
    },
  );
}
