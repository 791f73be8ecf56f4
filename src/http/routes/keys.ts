/** POST /api/keys (create, 3/hour per IP) and GET /api/keys (status). Needs a configured store. */
import { Type } from '@sinclair/typebox';
import { createApiKey, keyStatus } from '../../domain/keys.ts';
import { ErrorSchema } from '../schemas/core.ts';
import type { App, Deps } from '../types.ts';

const Text = (description: string) => Type.String({ maxLength: 500, description: `${description}; at most 500 characters` });
export const EmailField = Type.String({ format: 'email', minLength: 3, maxLength: 500, description: 'Email address; at most 500 characters' });
const KeyPattern = '^sk-svc-[a-f0-9]{32}$';

const CreateBody = Type.Object(
  { email: EmailField, name: Type.Optional(Text('Your name')), organization: Type.Optional(Text('Organization')) },
  { required: ['email'] },
);
const Created = Type.Object({
  api_key: Type.String({ pattern: KeyPattern, description: 'The key; shown only in this response' }),
  created_at: Type.String({ format: 'date-time' }),
  rate_limit: Type.Integer({ description: 'Call allowance of the key (default 1000)' }),
});
const StatusQuery = Type.Object({ key: Type.String({ pattern: KeyPattern, description: 'sk-svc- followed by 32 lowercase hex characters' }) }, { required: ['key'] });
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
      config: { rateLimit: 'keys' },
      schema: {
        summary: 'Create an API key',
        description:
          'Issues a key bound to the email, active at once, with an allowance of 1000 calls. The key is shown only in this ' +
          'response; the service keeps its SHA-256. 3 per hour per IP. 500 when the store is not configured.',
        tags: ['keys'],
        body: CreateBody,
        response: { 201: Created, 400: ErrorSchema, 401: ErrorSchema, 429: ErrorSchema, 500: ErrorSchema },
      },
    },
    async (request, reply) => {
      const { apiKey, record } = await createApiKey(deps.store, request.body, deps.now());
      reply.code(201).header('cache-control', 'no-store');
      return { api_key: apiKey, created_at: record.createdAt, rate_limit: record.rateLimit };
    },
  );

  app.get(
    '/api/keys',
    {
      schema: {
        summary: 'Key status',
        description: 'valid with calls_remaining, rate_limit and created_at; or valid false with a message (unknown, revoked). 400 for a malformed key.',
        tags: ['keys'],
        querystring: StatusQuery,
        response: { 200: Status, 400: ErrorSchema, 401: ErrorSchema, 500: ErrorSchema },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return keyStatus(deps.store, request.query.key);
    },
  );
}
