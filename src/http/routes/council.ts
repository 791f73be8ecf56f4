/**
 * POST /api/council (second contract document): a deterministic deliberation of 12 heuristic personas over 3
 * rounds (src/council). Always needs a valid bearer key (docs/decisions.md): the auth plugin 401s a bad key, and this
 * route 401s a missing one. Counted like POST /api/score: per key, one call from the key's allowance.
 */
import { Type, type TSchema } from '@sinclair/typebox';
import { runCouncil } from '../../council/council.ts';
import { FEATURES, type Feature } from '../../council/features.ts';
import { COUNCIL_LABELS, COUNCILS } from '../../council/personas.ts';
import { AppError } from '../../errors.ts';
import { ErrorSchema, StringEnum } from '../schemas/core.ts';
import type { App, Deps } from '../types.ts';

export const QUESTION_MAX = 2000;
export const CONTEXT_MAX = 10000;

export const CouncilBody = Type.Object(
  {
    question: Type.String({
      minLength: 1,
      maxLength: QUESTION_MAX,
      description: `The question, 1 to ${QUESTION_MAX} code points, offering 2 or 3 options: "A) … B) … C) …", "A: … / B: …", "1. … 2. …", "X or Y?", or a yes/no question (A = Yes, B = No)`,
    }),
    context: Type.Optional(
      Type.String({
        maxLength: CONTEXT_MAX,
        default: '',
        description: `Background, at most ${CONTEXT_MAX} code points`,
      }),
    ),
    council: Type.Optional(
      StringEnum([...COUNCIL_LABELS], {
        default: 'default',
        description: `The persona set: ${COUNCIL_LABELS.map((l) => `${l} (${COUNCILS[l].map((p) => p.name).join(', ')})`).join('; ')}`,
      }),
    ),
  },
  { additionalProperties: false },
);

const Letter = StringEnum(['A', 'B', 'C']);
const Votes = Type.Object(
  { A: Type.Integer({ minimum: 0 }), B: Type.Integer({ minimum: 0 }), C: Type.Optional(Type.Integer({ minimum: 0 })) },
  { description: 'Option letter -> votes; C only when the question offers three options' },
);
const Scores = Type.Object(
  { A: Type.Number(), B: Type.Number(), C: Type.Optional(Type.Number()) },
  { description: "The member's total per option in that round (values + leaning + majority pull)" },
);
/** An object with one optional property per feature name (src/council/features.ts). */
function perFeature<T extends TSchema>(value: T, description: string) {
  return Type.Partial(Type.Object(Object.fromEntries(FEATURES.map((f) => [f, value])) as Record<Feature, T>), {
    description,
  });
}

const Structured = Type.Object(
  {
    method: Type.String(),
    format: StringEnum(['lettered', 'numbered', 'or', 'yes-no'], { description: 'How the options were written' }),
    proposition: Type.Optional(Type.String({ description: 'Yes/no questions: what Yes would do' })),
    options: Type.Array(
      Type.Object({
        letter: Letter,
        text: Type.String(),
        features: perFeature(
          Type.Object({ value: Type.Number({ minimum: 0, maximum: 1 }), words: Type.Array(Type.String()) }),
          'Features with at least one hit in the option or the context about it: hits/(hits+1) and the words that hit',
        ),
      }),
    ),
    personas: Type.Array(
      Type.Object({
        id: Type.String(),
        name: Type.String(),
        values: Type.String(),
        weights: perFeature(Type.Number(), 'Points per unit of each feature the persona weighs'),
        conformity: Type.Number({ minimum: 0, maximum: 1 }),
        deference: Type.Number({ minimum: 0, maximum: 1 }),
        contrarian: Type.Boolean(),
      }),
    ),
    lean: Type.Optional(
      Type.Object(
        { letter: Letter, strength: Type.Number({ minimum: 0, maximum: 2 }), quotes: Type.Array(Type.String()) },
        { description: "The user's stated leaning, when the question or context states one" },
      ),
    ),
    leanFree: Type.Optional(
      Type.Object(
        { verdict: Type.String(), voteCount: Votes },
        { description: 'The same council with the leaning removed' },
      ),
    ),
    rounds: Type.Array(
      Type.Object({
        round: Type.Integer({ minimum: 1, maximum: 3 }),
        voteCount: Votes,
        majority: Letter,
        members: Type.Array(
          Type.Object({
            persona: Type.String({ description: 'Persona id' }),
            pick: Letter,
            scores: Scores,
            decided: Type.Boolean(),
          }),
        ),
      }),
    ),
  },
  { description: 'The full deliberation tree: options with their features, personas, leaning, and every round' },
);

export const CouncilResponse = Type.Object(
  {
    verdict: Type.String({
      description: 'The winning option, prefixed with its letter, e.g. "B) Stay in my current role"',
    }),
    voteCount: Votes,
    councilLabel: StringEnum([...COUNCIL_LABELS], { description: 'Echo of the requested council label' }),
    council: Type.Array(Type.Object({ persona: Type.String(), pick: Letter, reason: Type.String() }), {
      minItems: 12,
      maxItems: 12,
    }),
    sycophancyScore: Type.Number({
      minimum: 0,
      maximum: 1,
      description:
        "Share of the final votes for the user's leaned option that the leaning added, when the leaning changed the verdict; else 0",
    }),
    structured: Structured,
    trust: Type.Object({
      agreement: Type.Number({
        minimum: 0,
        maximum: 1,
        description: "Winner's share of the final votes (1/options to 1)",
      }),
      stability: Type.Number({
        minimum: 0,
        maximum: 1,
        description: 'Share of members whose round-1 pick is their final pick',
      }),
      independence: Type.Number({
        minimum: 0,
        maximum: 1,
        description: '1 - share of member moves (rounds 2-3) that switched to the previous round’s majority',
      }),
    }),
  },
  { title: 'CouncilResult' },
);

export async function councilRoutes(app: App, _deps: Deps): Promise<void> {
  app.post(
    '/api/council',
    {
      config: { rateLimit: 'score' },
      // After the auth plugin: a bad key has already answered 401; no key at all is refused here, before the body.
      onRequest: (request, _reply, done) =>
        done(
          request.apiKey
            ? undefined
            : new AppError(
                'unauthorized',
                'The council endpoint needs an API key: send "Authorization: Bearer sk-svc-…" (create a key with POST /api/keys).',
                {
                  headers: { 'www-authenticate': 'Bearer realm="svc"' },
                },
              ),
        ),
      schema: {
        summary: 'Ask the 12-persona council',
        description:
          'A deterministic deliberation, no LLM at run time: 12 heuristic personas with fixed, documented values score the ' +
          'options the question offers from word features of each option and the context about it (risk, reversibility, ' +
          'evidence, cost, effect on others, hedging, …), pick independently in round 1, then move towards the previous ' +
          'round’s majority in proportion to their conformity in rounds 2 and 3 (contrarians move away). Same input, same ' +
          'answer, in milliseconds. Requires a bearer key; each call takes one from the key’s allowance. A question without ' +
          'recognisable options, or with more than three, answers 400 saying how to write them.',
        tags: ['council'],
        security: [{ bearer: [] }],
        body: CouncilBody,
        response: {
          200: CouncilResponse,
          400: ErrorSchema,
          401: ErrorSchema,
          413: ErrorSchema,
          415: ErrorSchema,
          429: ErrorSchema,
          500: ErrorSchema,
        },
      },
    },
    async (request) => {
      const out = runCouncil({
        question: request.body.question,
        context: request.body.context ?? '',
        council: request.body.council ?? 'default',
      });
      if (!out.ok) throw new AppError('bad_request', out.error);
      return out.value;
    },
  );
}
