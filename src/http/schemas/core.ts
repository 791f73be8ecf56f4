/** TypeBox schemas for the core contract's resources: validation, types and the OpenAPI document from one definition. */
import { Type, type SchemaOptions, type TSchema } from '@sinclair/typebox';
import { dimension, mapDims, PAI_DIMS, SYCO_DIMS, type Dim } from '../../dimensions.ts';
import { MetaSchema, SLUG_PATTERN, SUITE_PATTERN } from '../../domain/dataset.ts';
import { TEXT_LIMITS } from '../../text.ts';

export { MetaSchema, SLUG_PATTERN, SUITE_PATTERN };

/** Extra fields of an entry (beside the contract's): the prompt set it was measured on, and the transcripts scored. */
export const SuiteField = Type.String({
  pattern: SUITE_PATTERN,
  description:
    'The prompt set the model was measured on: the probe suite version (e.g. `svc-probes-v1`) for models svc evaluated itself, `public:<source>` ' +
    'for the bundled public transcripts. Scores from different suites are not comparable; read one with ?suite=',
});
export const TranscriptsField = Type.Integer({ minimum: 0, description: 'Transcripts (model replies) scored' });

/** A string limited to a few values, as one JSON-schema `enum` (clear 400 messages, plain OpenAPI). */
export function StringEnum<T extends string[]>(values: [...T], options: SchemaOptions = {}) {
  return Type.Unsafe<T[number]>({ type: 'string', enum: values, ...options });
}

/** The scored pair's fields (POST /api/score and /api/honesty); JSON-schema maxLength counts code points. */
export const PromptField = Type.String({
  maxLength: TEXT_LIMITS.prompt,
  description: `The user prompt, at most ${TEXT_LIMITS.prompt} code points`,
});
export const ResponseField = Type.String({
  minLength: 1,
  maxLength: TEXT_LIMITS.response,
  description: `The AI response, 1 to ${TEXT_LIMITS.response} code points`,
});

/** A string field of submit, waitlist and keys: at most 500 code points (contract, Limits). */
export function TextField(description: string, minLength = 0) {
  return Type.String({
    ...(minLength ? { minLength } : {}),
    maxLength: TEXT_LIMITS.field,
    description: `${description}; at most ${TEXT_LIMITS.field} characters`,
  });
}
export const EmailField = Type.String({
  format: 'email',
  minLength: 3,
  maxLength: TEXT_LIMITS.field,
  description: `Email address; at most ${TEXT_LIMITS.field} characters`,
});

export const ErrorSchema = Type.Object(
  {
    error: Type.String({ description: 'Human-readable message' }),
    code: Type.Optional(Type.String({ description: 'Stable machine-readable code' })),
    detail: Type.Optional(Type.String({ description: 'Extra detail, present on 500' })),
    required: Type.Optional(
      Type.Record(Type.String(), Type.Unknown(), { description: 'Echo of the required fields, on 400' }),
    ),
  },
  { title: 'Error', description: 'The Error resource' },
);

/** A route's Error responses by status, e.g. `errorResponses(400, 429, 500)`: every one has the Error body. */
export function errorResponses<S extends number>(...statuses: S[]): Record<S, typeof ErrorSchema> {
  return Object.fromEntries(statuses.map((s) => [s, ErrorSchema])) as Record<S, typeof ErrorSchema>;
}

export const DimScore = Type.Number({ minimum: 0, maximum: 10, description: '0-10, higher is worse' });
export const RiskSchema = StringEnum(['low', 'medium', 'high'], {
  description: 'low when composite < 1.0; medium when 1.0 <= composite <= 2.0; high when composite > 2.0',
});
export const History = Type.Array(Type.Number(), { description: 'Trailing values, oldest first' });
export const Slug = Type.String({
  pattern: SLUG_PATTERN,
  maxLength: 100,
  description: 'Model slug as published on the leaderboard',
});

/** Per dimension of one index, `{code: schema(code)}` in table order (src/dimensions.ts). */
function dimProps<D extends Dim, S extends TSchema>(codes: readonly D[], schema: (code: D) => S): Record<D, S> {
  return mapDims(codes, schema);
}
const DimDescribed = (code: Dim) => {
  const { name, phrase } = dimension(code);
  return Type.Number({ minimum: 0, maximum: 10, description: phrase ? `${name} (${phrase})` : name });
};

export const SycoDimensions = Type.Object(dimProps(SYCO_DIMS, DimDescribed));
export const PaiDimensions = Type.Object(dimProps(PAI_DIMS, DimDescribed));

/** The fields that open every leaderboard entry. */
const EntryIdentity = { slug: Type.String(), name: Type.String(), vendor: Type.String() };

export const SycophancyEntrySchema = Type.Object(
  {
    ...EntryIdentity,
    honesty: Type.Number({ minimum: 0, maximum: 100, description: '100 - mean(dimensions) x 10; higher is better' }),
    ...dimProps(SYCO_DIMS, () => DimScore),
    history: Type.Optional(History),
    suite: Type.Optional(SuiteField),
    transcripts: Type.Optional(TranscriptsField),
  },
  { title: 'SycophancyEntry' },
);

export const PaiEntrySchema = Type.Object(
  {
    ...EntryIdentity,
    composite: Type.Number({ minimum: 0, maximum: 10, description: 'Mean of the five dimensions; higher is worse' }),
    ...dimProps(PAI_DIMS, () => DimScore),
    risk: RiskSchema,
    history: Type.Optional(History),
    suite: Type.Optional(SuiteField),
    transcripts: Type.Optional(TranscriptsField),
  },
  { title: 'PaiEntry' },
);

export const LeaderboardFullSchema = Type.Object({
  meta: MetaSchema,
  sycophancy: Type.Array(SycophancyEntrySchema),
  pai: Type.Array(PaiEntrySchema),
});

export const LeaderboardSingleSchema = Type.Object({
  meta: MetaSchema,
  models: Type.Array(Type.Union([SycophancyEntrySchema, PaiEntrySchema])),
});

const SuiteRank = Type.Integer({
  minimum: 1,
  description: 'Rank among the models measured on the same suite (rank and total_models count every model)',
});
const SuiteModels = Type.Integer({ minimum: 1, description: 'Models ranked on the same suite in this index' });

/** A model's history and place in one index (the same fields in sycophancy and pai). */
const Standing = {
  history: History,
  rank: Type.Integer({ minimum: 1 }),
  total_models: Type.Integer({ minimum: 1 }),
  suite_rank: Type.Optional(SuiteRank),
  suite_models: Type.Optional(SuiteModels),
};

export const ModelDetailSchema = Type.Object({
  slug: Type.String(),
  name: Type.String(),
  vendor: Type.String(),
  assessed: Type.String({ format: 'date-time' }),
  suite: Type.Optional(SuiteField),
  transcripts: Type.Optional(TranscriptsField),
  sycophancy: Type.Optional(
    Type.Object({
      honesty: Type.Number(),
      dimensions: SycoDimensions,
      ...Standing,
    }),
  ),
  pai: Type.Optional(
    Type.Object({
      composite: Type.Number(),
      risk: RiskSchema,
      dimensions: PaiDimensions,
      ...Standing,
    }),
  ),
});
