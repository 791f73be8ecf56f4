/**
 * TypeBox schemas for the alternate ("quick-reference") shapes of the core operations, as the second document
 * publishes them. The mapping from core results to these shapes is src/http/quickref.ts; routes list these
 * beside their core schemas so the OpenAPI document describes both shapes of each operation.
 */
import { Type, type TSchema } from '@sinclair/typebox';
import { ALTERNATE_DIMS } from '../../dimensions.ts';
import { SLUG_PATTERN, StringEnum, TextField } from './core.ts';

export const QUICKREF_MEDIA_TYPE = 'application/vnd.svc.quickref+json';

/** A core schema with a title, so the OpenAPI anyOf of core and alternate shapes names both. */
export const titled = <T extends TSchema>(schema: T, title: string): T => ({ ...schema, title });

/** `?format=` on every operation that has an alternate shape. */
export const FormatParam = Type.Optional(
  StringEnum(['core', 'quickref'], {
    description: `quickref selects the alternate shape (as does Accept: ${QUICKREF_MEDIA_TYPE}); core forces the core shape`,
  }),
);
export const FormatQuery = Type.Object({ format: FormatParam });

const Score = (description: string) => Type.Number({ minimum: 0, maximum: 10, description });
export const QuickrefRisk = StringEnum(['low', 'moderate', 'high'], {
  description: 'The core risk level with medium written moderate: low < 1.0 <= moderate <= 2.0 < high (PAI composite)',
});
const CompositeScore = Score('PAI composite (mean of the five PAI dimensions), 0-10, higher is worse');
export const ReportHash = Type.String({
  pattern: '^sha256:[a-f0-9]{64}$',
  description: 'sha256: followed by the 64 hex characters of the report hash',
});

/** The alternate D1-D5 keys of the dimension table: long in score, short in leaderboard and model. */
const alternateProps = (keys: 'short' | 'long') =>
  Object.fromEntries(
    ALTERNATE_DIMS.map(({ code, short, long, note }) => [
      keys === 'short' ? short : long,
      Score(keys === 'long' && note ? `core ${code} (${note})` : `core ${code}`),
    ]),
  );

export const QuickrefDimensionsLong = Type.Object(alternateProps('long'), { title: 'QuickrefDimensions' });
export const QuickrefDimensionsShort = Type.Object(alternateProps('short'), { title: 'QuickrefDimensionsShort' });

export const QuickrefScoreReportSchema = Type.Object(
  {
    composite_score: CompositeScore,
    risk_level: QuickrefRisk,
    dimensions: QuickrefDimensionsLong,
    report_hash: ReportHash,
    report_url: Type.String({ description: '{base_url}/report/<first 12 hex characters of the hash>' }),
  },
  { title: 'QuickrefScoreReport' },
);

export const QuickrefLeaderboardSchema = Type.Object(
  {
    models: Type.Array(
      Type.Object({
        rank: Type.Integer({
          minimum: 1,
          description: 'Position by PAI composite, lowest first; equal values share a rank',
        }),
        slug: Type.String(),
        provider: Type.String({ description: 'The core vendor' }),
        composite_score: CompositeScore,
        risk_level: QuickrefRisk,
        dimensions: QuickrefDimensionsShort,
      }),
    ),
    updated_at: Type.String({ format: 'date-time', description: 'meta.updated of the dataset' }),
  },
  { title: 'QuickrefLeaderboard' },
);

export const QuickrefModelSchema = Type.Object(
  {
    slug: Type.String(),
    provider: Type.String({ description: 'The core vendor' }),
    composite_score: Type.Optional(CompositeScore),
    risk_level: Type.Optional(QuickrefRisk),
    dimensions: Type.Optional(QuickrefDimensionsShort),
    scored_at: Type.String({ format: 'date-time', description: 'The core assessed' }),
    report_hash: Type.Optional(ReportHash),
  },
  {
    title: 'QuickrefModel',
    description:
      'composite_score, risk_level and dimensions are absent for a model without PAI scores; report_hash for one without a certified report',
  },
);

export const QuickrefVerifySchema = Type.Object(
  {
    valid: Type.Boolean(),
    hash: ReportHash,
    model: Type.Optional(Type.String({ description: 'Model slug' })),
    scored_at: Type.Optional(Type.String({ format: 'date-time' })),
    composite_score: Type.Optional(CompositeScore),
    message: Type.Optional(Type.String({ description: 'Why the hash did not verify (only when valid is false)' })),
  },
  { title: 'QuickrefVerifyResult' },
);

/** Self-serve plans of the alternate key request (README, "Plans"): enterprise keys are arranged with the operator. */
export const PlanField = StringEnum(['free', 'pro'], {
  description:
    'The plan of the key. Self-serve: free (1000 calls per UTC day) or pro (10000 calls per UTC day); a key whose allowance is used up is counted against the free tier’s per-IP caps. The free tier also works without a key; enterprise keys are arranged with the operator.',
});

export const QuickrefKeySchema = Type.Object(
  {
    api_key: Type.String({
      pattern: '^sk-svc-[a-f0-9]{32}$',
      description: 'Inactive until the link in the verification email is followed',
    }),
    plan: Type.String(),
    rate_limit: Type.String({ pattern: '^[0-9]+/day$', description: 'Calls per UTC day, e.g. 10000/day' }),
    email_sent: Type.Boolean({ description: 'Whether the verification email was accepted by the email provider' }),
  },
  { title: 'QuickrefKey' },
);

export const QuickrefWaitlistSchema = Type.Object(
  { success: Type.Boolean(), message: Type.String(), position: Type.Integer({ minimum: 1 }) },
  { title: 'QuickrefWaitlist' },
);

export const QuickrefSubmissionSchema = Type.Object(
  {
    success: Type.Boolean(),
    submission_id: Type.String({ description: 'sub_ + the core id' }),
    estimated_completion: Type.String({ format: 'date-time', description: '48 hours after the submission' }),
  },
  { title: 'QuickrefSubmission' },
);

/** Extra request fields of the alternate submit body {model_name, model_slug, provider, api_endpoint, contact_email}. */
export const QuickrefSubmitFields = {
  provider: Type.Optional(TextField('Alternate shape: maker of the model (the core vendor)', 1)),
  model_slug: Type.Optional(
    Type.String({
      pattern: SLUG_PATTERN,
      maxLength: 100,
      description: 'Alternate shape: the slug proposed for the model',
    }),
  ),
};

/**
 * Which submit shape a body is, as JSON Schema: a body with provider or model_slug is the alternate shape and
 * needs both; any other body is the core shape and needs vendor. (if/then/else, so a 400 names the field the
 * caller's own shape is missing.)
 */
export const SubmitShapes = {
  if: { anyOf: [{ required: ['provider'] }, { required: ['model_slug'] }] },
  then: { title: 'QuickrefSubmitRequest', required: ['provider', 'model_slug'] },
  else: { title: 'SubmitRequest', required: ['vendor'] },
};

/** Extra request field of the alternate waitlist body {email, source}. */
export const WaitlistSourceField = {
  source: Type.Optional(TextField('Where the sign-up came from (recorded with the entry)')),
};
