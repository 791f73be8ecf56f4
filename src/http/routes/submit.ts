/** POST /api/submit: record and queue a model for evaluation. 5/hour per IP. */
import { Type } from '@sinclair/typebox';
import { submitModel } from '../../domain/submissions.ts';
import { ErrorSchema } from '../schemas/core.ts';
import type { App, Deps } from '../types.ts';
import { EmailField } from './keys.ts';

const Required = (description: string) => Type.String({ minLength: 1, maxLength: 500, description: `${description}; at most 500 characters` });
const Body = Type.Object(
  {
    model_name: Required('Model name'),
    vendor: Required('Maker of the model'),
    api_endpoint: Required('Where the model can be called'),
    contact_email: EmailField,
    notes: Type.Optional(Type.String({ maxLength: 500, description: 'Anything the evaluators should know; at most 500 characters' })),
  },
  { required: ['model_name', 'vendor', 'api_endpoint', 'contact_email'] },
);
const Reply = Type.Object({
  success: Type.Boolean(),
  message: Type.String(),
  id: Type.Integer({ description: 'Submission time as a millisecond timestamp; unique' }),
  email_sent: Type.Optional(Type.Boolean({ description: 'False when no email provider is configured or it reported an error' })),
});

export async function submitRoutes(app: App, deps: Deps): Promise<void> {
  app.post(
    '/api/submit',
    {
      config: { rateLimit: 'submit' },
      schema: {
        summary: 'Submit a model for evaluation',
        description:
          'Records the submission durably and queues it for the judge ensemble (target turnaround 48 hours for frontier ' +
          'models). With an email provider configured, an admin notice and a confirmation to contact_email are sent; ' +
          'email_sent is false otherwise or when the provider errors, and the submission is received regardless. 5 per hour per IP.',
        tags: ['write'],
        body: Body,
        response: { 200: Reply, 400: ErrorSchema, 401: ErrorSchema, 429: ErrorSchema, 500: ErrorSchema },
      },
    },
    async (request) => submitModel(deps, request.body, deps.now()),
  );
}
