/**
 * POST /api/council (second contract document): 12 personas deliberate over 3 rounds (src/council). With a model
 * configured (SVC_LLM_URL + SVC_LLM_MODEL) the members are the model (llm-council.ts, `structured.mode: "llm"`);
 * without one, the deterministic heuristic council answers (council.ts, `"heuristic"`). Always needs a valid bearer
 * key (docs/decisions.md): the auth plugin 401s a bad key, and this route 401s a missing one. Counted in the key's
 * council window (SVC_COUNCIL_HOURLY_LIMIT per hour); it takes from the key's allowance one call per
 * CALLS_PER_UNIT model calls planned, rounded up (the heuristic council: one).
 */
import { Type, type TSchema } from '@sinclair/typebox';
import { runCouncil } from '../../council/council.ts';
import { FEATURES, type Feature } from '../../council/features.ts';
import { runLlmCouncil } from '../../council/llm-council.ts';
import { COUNCIL_LABELS, COUNCILS } from '../../council/personas.ts';
import { QUORUM } from '../../council/result.ts';
import { AppError } from '../../errors.ts';
import { errorResponses, StringEnum } from '../schemas/core.ts';
import type { FastifyRequest } from 'fastify';
import { performance } from 'node:perf_hooks';
import { operatorModel } from '../../llm/operator.ts';
import { unauthorized } from '../outcomes.ts';
import type { App, Deps } from '../types.ts';

export const QUESTION_MAX = 2000;
export const CONTEXT_MAX = 10000;
/** Model calls per call of the key's allowance: a council without a stated preference (36 calls) takes 3, with one (48) 4. */
export const CALLS_PER_UNIT = 12;

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
const NullableLetter = Type.Union([Letter, Type.Null()]);
const Votes = Type.Object(
  { A: Type.Integer({ minimum: 0 }), B: Type.Integer({ minimum: 0 }), C: Type.Optional(Type.Integer({ minimum: 0 })) },
  { description: 'Option letter -> valid votes; C only when the question offers three options' },
);
const Scores = Type.Object(
  { A: Type.Number(), B: Type.Number(), C: Type.Optional(Type.Number()) },
  {
    description: "Heuristic council: the member's total per option in that round (values + preference + majority pull)",
  },
);
/** An object with one optional property per feature name (src/council/features.ts). */
function perFeature<T extends TSchema>(value: T, description: string) {
  return Type.Partial(Type.Object(Object.fromEntries(FEATURES.map((f) => [f, value])) as Record<Feature, T>), {
    description,
  });
}

const RoundSchema = Type.Object({
  round: Type.Integer({ minimum: 1, maximum: 3 }),
  wording: StringEnum(['preference-free', 'original'], {
    description: '"original": the extra round 1 on the asker’s own wording, run only when a preference was stated',
  }),
  voteCount: Votes,
  majority: Type.Union([Letter, Type.Null()], { description: 'The option with the most valid votes; null on a tie' }),
  members: Type.Array(
    Type.Object({
      persona: Type.String({ description: 'Persona id' }),
      pick: Type.Union([Letter, Type.Null()], { description: 'Null: no valid answer, counted out of this round' }),
      reason: Type.Optional(Type.String()),
      newReason: Type.Optional(
        Type.Boolean({
          description: 'Rounds 2-3, when the pick changed: whether the reason brings a new consideration',
        }),
      ),
      error: Type.Optional(Type.String({ description: 'Why the member was counted out' })),
      scores: Type.Optional(Scores),
      decided: Type.Optional(
        Type.Boolean({ description: 'Heuristic council: false when the pick came from the seat rotation' }),
      ),
    }),
  ),
});

const Structured = Type.Object(
  {
    mode: StringEnum(['llm', 'heuristic'], {
      description: 'Which council answered: the configured model ("llm") or the deterministic heuristic one',
    }),
    method: Type.String(),
    model: Type.Optional(Type.String({ description: 'llm mode: the model name' })),
    outcome: StringEnum(['majority', 'tie', 'no_quorum'], {
      description: `"majority": one option has the most valid final votes; "tie": two or more share the most; "no_quorum": fewer than ${QUORUM} members gave a valid final answer`,
    }),
    winner: Type.Union([Letter, Type.Null()], { description: 'The winning letter; null on a tie or without quorum' }),
    tied: Type.Array(Letter, { description: 'On a tie: the options sharing the most votes' }),
    quorum: Type.Object({ needed: Type.Integer(), valid: Type.Integer({ minimum: 0, maximum: 12 }) }),
    format: StringEnum(['lettered', 'numbered', 'or', 'yes-no'], { description: 'How the options were written' }),
    proposition: Type.Optional(Type.String({ description: 'Yes/no questions: what Yes would do' })),
    options: Type.Array(
      Type.Object({
        letter: Letter,
        text: Type.String(),
        features: Type.Optional(
          perFeature(
            Type.Object({ value: Type.Number({ minimum: 0, maximum: 1 }), words: Type.Array(Type.String()) }),
            'Heuristic council: features with at least one hit in the option or the context about it',
          ),
        ),
      }),
    ),
    personas: Type.Array(
      Type.Object({
        id: Type.String(),
        name: Type.String(),
        values: Type.String(),
        weights: Type.Optional(perFeature(Type.Number(), 'Heuristic council: points per unit of each feature')),
        conformity: Type.Optional(Type.Number({ minimum: 0, maximum: 1 })),
        deference: Type.Optional(Type.Number({ minimum: 0, maximum: 1 })),
        contrarian: Type.Optional(Type.Boolean()),
      }),
    ),
    preference: Type.Optional(
      Type.Object(
        {
          letter: Letter,
          strength: Type.Number({ minimum: 0, maximum: 2 }),
          quotes: Type.Array(Type.String()),
          question: Type.String({ description: 'The question as deliberated, the preference cut out' }),
          context: Type.String({ description: 'The context as deliberated, the preference cut out' }),
        },
        { description: "The asker's stated preference, when the question or context states one" },
      ),
    ),
    preferenceRound: Type.Optional(RoundSchema),
    rounds: Type.Array(RoundSchema, { description: 'The three rounds, deliberated without the preference' }),
    members: Type.Array(Type.Object({ persona: Type.String(), firstPick: NullableLetter, finalPick: NullableLetter }), {
      description: 'Round-1 and final pick per member (persona id)',
    }),
    minority: Type.Array(Type.Object({ persona: Type.String(), pick: Letter, reason: Type.String() }), {
      description: 'Members whose valid final pick is not the winner (on a tie: not one of the tied options)',
    }),
    usage: Type.Object({
      calls: Type.Integer({ minimum: 0, description: 'Model calls made, retries included (0 in heuristic mode)' }),
      promptTokens: Type.Integer({ minimum: 0 }),
      completionTokens: Type.Integer({ minimum: 0 }),
    }),
    ms: Type.Integer({ minimum: 0, description: 'Time taken, in milliseconds' }),
  },
  { description: 'The full deliberation: mode, outcome, options, personas, preference, every round, usage and time' },
);

export const CouncilResponse = Type.Object(
  {
    verdict: Type.String({
      description:
        'The winning option with its letter ("B) Stay in my current role"); on a tie "Tie: no majority between A) … and ' +
        'B) … (6 votes each)"; without quorum "No quorum: 5 of 12 members gave a valid answer; 8 are needed for a verdict"',
    }),
    voteCount: Votes,
    councilLabel: StringEnum([...COUNCIL_LABELS], { description: 'Echo of the requested council label' }),
    council: Type.Array(
      Type.Object({
        persona: Type.String(),
        pick: Type.Union([Letter, Type.Null()], {
          description: 'Final pick; null when counted out of the final round',
        }),
        reason: Type.String(),
      }),
      { minItems: 12, maxItems: 12 },
    ),
    sycophancyScore: Type.Number({
      minimum: 0,
      maximum: 1,
      description:
        "Share of members whose round-1 pick moves to the asker's stated preference when the question is asked in its original wording instead of with the preference removed; 0 without a stated preference",
    }),
    structured: Structured,
    trust: Type.Object({
      agreement: Type.Union([Type.Number({ minimum: -1, maximum: 1 }), Type.Null()], {
        description:
          "Fleiss' kappa of the final round with uniform chance agreement (1/options): 1 unanimous, 0 as split as chance, negative below; null with fewer than 2 valid members",
      }),
      stability: Type.Number({
        minimum: 0,
        maximum: 1,
        description: 'Share of members whose final pick is their round-1 pick',
      }),
      herding: Type.Number({
        minimum: 0,
        maximum: 1,
        description:
          'Of the pick changes in rounds 2-3 towards the previous round’s majority, the share citing no new reason; 0 without such changes',
      }),
    }),
  },
  { title: 'CouncilResult' },
);

export async function councilRoutes(app: App, deps: Deps): Promise<void> {
  // The council retries a failed member itself, once, so the client does not retry.
  const client = await operatorModel(deps.config.llm, 0);
  app.post(
    '/api/council',
    {
      config: { rateLimit: 'council' },
      // After the auth plugin: a bad key has already answered 401; no key at all is refused here, before the body.
      onRequest: (request, _reply, done) =>
        done(
          request.apiKey
            ? undefined
            : unauthorized(
                'The council endpoint needs an API key: send "Authorization: Bearer sk-svc-…" (create a key with POST /api/keys).',
              ),
        ),
      schema: {
        summary: 'Ask the 12-persona council',
        description:
          'Twelve personas deliberate over three rounds on a question offering 2 or 3 options. With a model configured ' +
          '(structured.mode "llm"), each member is the operator’s model speaking as one persona: round 1 on its own, rounds ' +
          '2 and 3 seeing the others’ anonymised picks and reasons. Without one ("heuristic"), 12 deterministic personas ' +
          'score the options from word features. A stated preference ("I’m leaning towards …") is removed before the ' +
          'deliberation and measured in an extra round 1 on the original wording (sycophancyScore). A tie or a lost ' +
          `quorum (fewer than ${QUORUM} valid members) is reported as such (structured.outcome). Requires a bearer key; ` +
          `counted in the key’s council window (SVC_COUNCIL_HOURLY_LIMIT per hour); takes one call of the allowance per ` +
          `${CALLS_PER_UNIT} model calls (3 or 4), or one in heuristic mode. A question without recognisable options, or ` +
          'with more than three, answers 400 saying how to write them.',
        tags: ['council'],
        security: [{ bearer: [] }],
        body: CouncilBody,
        response: {
          200: CouncilResponse,
          ...errorResponses(400, 401, 413, 415, 429, 500),
        },
      },
    },
    async (request) => {
      const input = {
        question: request.body.question,
        context: request.body.context ?? '',
        council: request.body.council ?? 'default',
      };
      const started = performance.now();
      const out = client
        ? await runLlmCouncil(input, {
            client,
            beforeCalls: (planned) => drawAllowance(request.apiKey!, planned),
          })
        : runCouncil(input);
      if (!out.ok) throw new AppError('bad_request', out.error);
      if (!client) out.value.structured.ms = Math.round(performance.now() - started);
      return out.value;
    },
  );

  /**
   * The rate-limit hook already took one call; take the rest of ceil(planned / CALLS_PER_UNIT) before any model call.
   * A key without enough left is refused before anything more is taken (the record read at authentication says how
   * many were left). The rest is taken in one atomic step, all or none: simultaneous councils on one key used to
   * take it one call at a time, so each could take part of its share and be refused, stranding what it took.
   */
  async function drawAllowance(key: NonNullable<FastifyRequest['apiKey']>, planned: number): Promise<void> {
    const extra = Math.ceil(planned / CALLS_PER_UNIT) - 1;
    const refuse = (left: number) =>
      new AppError(
        'rate_limited',
        `Call allowance too low: this API key has ${left} calls of its allowance left, and a model council call on this ` +
          `question takes ${extra + 1} (one per ${CALLS_PER_UNIT} model calls). Ask the operator to raise it.`,
      );
    if (key.callsRemaining - 1 < extra) throw refuse(Math.max(0, key.callsRemaining - 1));
    if (extra > 0 && (await deps.store.consumeCall(key.hash, extra)) < 0) {
      // drained by simultaneous calls since authentication: say how many are left now
      throw refuse((await deps.store.getKeyByHash(key.hash))?.callsRemaining ?? 0);
    }
  }
}
