/** POST /api/keys (create, 3/hour per IP) and GET /api/keys (status). Needs a configured store. */
import { Type } from '@sinclair/typebox';
import { createPlanKey, issueApiKey, keyStatus, PLAN_NAMES } from '../../domain/keys.ts';
import { AppError } from '../../errors.ts';
import { orRefuse } from '../outcomes.ts';
import { quickrefKey, sendQuickref } from '../quickref.ts';
import { EmailField, errorResponses, TextField } from '../schemas/core.ts';
import { FormatQuery, PlanField, QuickrefKeySchema, titled } from '../schemas/quickref.ts';
import type { App, Deps } from '../types.ts';
import { keyVerifyRoutes } from './key-verify.ts';

const KeyPattern = '^sk-svc-[a-f0-9]{32}$';

const CreateBody = Type.Object(
  {
    email: EmailField,
    name: Type.Optional(TextField('Your name')),
    organization: Type.Optional(TextField('Organization')),
    plan: Type.Optional(PlanField),
  },
  {
    required: ['email'],
    additionalProperties: false, // an unknown field is a 400 (docs/api.md, General), before any store check
    description: 'Core: {email, name?, organization?}. Alternate (QuickrefKey answer): {email, plan}.',
  },
);
const Created = Type.Object({
  api_key: Type.String({ pattern: KeyPattern, description: 'The key; shown only in this response' }),
  created_at: Type.String({ format: 'date-time' }),
  rate_limit: Type.Integer({ description: 'Call allowance of the key (default 1000)' }),
});
const StatusQuery = Type.Object(
  { key: Type.String({ pattern: KeyPattern, description: 'sk-svc- followed by 32 lowercase hex characters' }) },
  { required: ['key'] },
);
const Status = Type.Object({
  valid: Type.Boolean(),
  calls_remaining: Type.Optional(Type.Integer()),
  rate_limit: Type.Optional(Type.Integer()),
  created_at: Type.Optional(Type.String({ format: 'date-time' })),
  message: Type.Optional(Type.String({ description: 'Present only when valid is false' })),
});

export async function keysRoutes(app: App, deps: Deps): Promise<void> {
  app.post(
    '/api/keys',
    {
      config: {
        rateLimit: 'keys',
        shapes: { hint: (request) => (request.body as { plan?: unknown }).plan !== undefined },
      },
      schema: {
        summary: 'Create an API key',
        description:
          'Issues a free-plan key bound to the email, active at once, with an allowance of 1000 calls per UTC day. The key is shown only in this ' +
          'response; the service keeps its SHA-256. 3 per hour per IP; at most 3 active keys per email (409 too_many_keys). 500 when the store is not configured. With a plan ' +
          '(the alternate shape, also chosen by ?format=quickref or Accept: application/vnd.svc.quickref+json) the key ' +
          'has the plan’s daily allowance and stays inactive (401 as a bearer) until the link emailed to the address is followed.',
        tags: ['keys'],
        querystring: FormatQuery,
        body: CreateBody,
        response: {
          201: Type.Union([titled(Created, 'KeyCreated'), QuickrefKeySchema]),
          ...errorResponses(400, 401, 409, 429, 500),
        },
      },
    },
    async (request, reply) => {
      const { plan, ...input } = request.body;
      const quickref = request.shape === 'quickref';
      if (quickref && plan === undefined)
        throw new AppError('bad_request', 'Missing required field: plan', {
          required: {
            email: { type: 'string', maxLength: 500, format: 'email' },
            plan: { type: 'string', enum: PLAN_NAMES },
          },
        });
      const created = orRefuse(
        plan
          ? await createPlanKey(deps, input, plan, deps.now())
          : { ...(await issueApiKey(deps.store, input, deps.now())), emailSent: false },
      );
      reply.code(201).header('cache-control', 'no-store');
      if (quickref) return sendQuickref(reply, quickrefKey(created.apiKey, created.record, created.emailSent));
      return { api_key: created.apiKey, created_at: created.record.createdAt, rate_limit: created.record.rateLimit };
    },
  );

  app.get(
    '/api/keys',
    {
      schema: {
        summary: 'Key status',
        description:
          'valid with calls_remaining, rate_limit and created_at; or valid false with a message (unknown, revoked). 400 for a malformed key.',
        tags: ['keys'],
        querystring: StatusQuery,
        response: { 200: Status, ...errorResponses(400, 401, 500) },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return orRefuse(await keyStatus(deps.store, request.query.key));
    },
  );

  await keyVerifyRoutes(app, deps);
}
