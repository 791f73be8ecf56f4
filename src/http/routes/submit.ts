/** POST /api/submit: record and queue a model for evaluation. 5/hour per IP. */
import { Type } from '@sinclair/typebox';
import { submitModel } from '../../domain/submissions.ts';
import { submissionReply } from '../outcomes.ts';
import { quickrefSubmission, sendQuickref, submissionInput } from '../quickref.ts';
import { EmailField, errorResponses, TextField } from '../schemas/core.ts';
import {
  FormatQuery,
  QuickrefSubmissionSchema,
  QuickrefSubmitFields,
  SubmitShapes,
  titled,
} from '../schemas/quickref.ts';
import type { App, Deps } from '../types.ts';

/** The evaluation calls the endpoint over http(s) only (README, SSRF policy): anything else is refused at once. */
export const ENDPOINT_PATTERN = '^https?://[^\\s/?#@]+(?:[/?#]\\S*)?$';

export const SubmitBody = Type.Object(
  {
    model_name: TextField('Model name', 1),
    vendor: Type.Optional(TextField('Maker of the model (core shape)', 1)),
    ...QuickrefSubmitFields,
    api_endpoint: Type.String({
      ...TextField('Where the model can be called: an absolute http(s) URL, e.g. an OpenAI-compatible base URL', 1),
      pattern: ENDPOINT_PATTERN,
    }),
    contact_email: EmailField,
    notes: Type.Optional(TextField('Anything the evaluators should know')),
  },
  {
    required: ['model_name', 'api_endpoint', 'contact_email'],
    additionalProperties: false, // an unknown field is a 400 (docs/api.md, General)
    description:
      'Core: {model_name, vendor, api_endpoint, contact_email, notes?}. Alternate: {model_name, model_slug, provider, api_endpoint, contact_email}.',
    ...SubmitShapes,
  },
);
const Reply = Type.Object({
  success: Type.Boolean(),
  message: Type.String(),
  id: Type.Integer({ description: 'Submission time as a millisecond timestamp; unique' }),
  email_sent: Type.Optional(
    Type.Boolean({ description: 'False when no email provider is configured or it reported an error' }),
  ),
});

export async function submitRoutes(app: App, deps: Deps): Promise<void> {
  app.post(
    '/api/submit',
    {
      config: {
        rateLimit: 'submit',
        shapes: {
          hint: (request) => {
            const body = request.body as { provider?: unknown; model_slug?: unknown };
            return body.provider !== undefined || body.model_slug !== undefined;
          },
        },
      },
      schema: {
        summary: 'Submit a model for evaluation',
        description:
          'Records the submission durably and queues it for the judge ensemble (target turnaround 48 hours for frontier ' +
          'models). With an email provider configured, an admin notice and a confirmation to contact_email are sent; ' +
          'email_sent is false otherwise or when the provider errors, and the submission is received regardless. 5 per hour per IP. ' +
          'A body with provider or model_slug is the alternate shape (needs both; answered as QuickrefSubmission), as is ' +
          '?format=quickref or Accept: application/vnd.svc.quickref+json.',
        tags: ['write'],
        querystring: FormatQuery,
        body: SubmitBody,
        response: {
          200: Type.Union([titled(Reply, 'SubmissionReceived'), QuickrefSubmissionSchema]),
          ...errorResponses(400, 401, 429, 500),
        },
      },
    },
    async (request, reply) => {
      const { body } = request;
      const now = deps.now();
      const res = submissionReply(await submitModel(deps, submissionInput(body), now));
      if (request.shape === 'quickref') return sendQuickref(reply, quickrefSubmission(res, now));
      return res;
    },
  );
}
