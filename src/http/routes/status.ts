/** GET /submissions/:token: a submitter's status page (HTML, or JSON with ?format=json). */
import { Type } from '@sinclair/typebox';
import { STATUS_TOKEN_PATTERN } from '../../domain/submissions.ts';
import { AppError } from '../../errors.ts';
import { submissionStatusView } from '../../jobs/status.ts';
import { HTML_ERRORS } from '../page-errors.ts';
import { errorPage, htmlHeaders } from '../pages/html.ts';
import { renderStatusHtml } from '../pages/status.ts';
import { ErrorSchema } from '../schemas/core.ts';
import type { App, Deps } from '../types.ts';

const Params = Type.Object({
  token: Type.String({ pattern: STATUS_TOKEN_PATTERN, description: 'The token from the confirmation email' }),
});
const Query = Type.Object({
  format: Type.Optional(Type.Union([Type.Literal('json'), Type.Literal('html')], { description: 'Default html' })),
});
const Progress = Type.Object({ done: Type.Integer(), total: Type.Integer(), failed: Type.Integer() });
const StatusSchema = Type.Object(
  {
    id: Type.Integer(),
    model: Type.String(),
    vendor: Type.String(),
    submittedAt: Type.String(),
    status: Type.String({ description: 'pending, queued, evaluating, done, failed or rejected' }),
    summary: Type.String(),
    progress: Type.Optional(Progress),
    attempts: Type.Optional(Type.Integer()),
    updatedAt: Type.Optional(Type.String()),
    error: Type.Optional(Type.String()),
    report: Type.Optional(
      Type.Object({ id: Type.String(), hash: Type.String(), url: Type.String(), verifyUrl: Type.String() }),
    ),
  },
  { title: 'SubmissionStatus' },
);

export async function statusRoutes(app: App, deps: Deps): Promise<void> {
  app.get(
    '/submissions/:token',
    {
      config: { htmlErrors: HTML_ERRORS.status }, // a malformed token: an HTML 400 page unless ?format=json
      schema: {
        summary: 'A submission’s status page',
        description:
          'The address is in the confirmation email (the token is random; only its SHA-256 is stored). Shows the ' +
          'evaluation’s state, its progress (conversations done of total, failures) and, when it is done, the ' +
          'certified report and its verification link. HTML by default; ?format=json for the data. 404 for an ' +
          'unknown token (an HTML page, or the Error body with ?format=json). Never cached.',
        tags: ['read'],
        params: Params,
        querystring: Query,
        response: {
          200: {
            description: 'The status page',
            content: { 'text/html': { schema: Type.String() }, 'application/json': { schema: StatusSchema } },
          },
          400: {
            description: 'A malformed token or format: an HTML page, or the Error body with ?format=json',
            content: { 'text/html': { schema: Type.String() }, 'application/json': { schema: ErrorSchema } },
          },
          404: {
            description: 'Unknown token: an HTML page, or the Error body with ?format=json',
            content: { 'text/html': { schema: Type.String() }, 'application/json': { schema: ErrorSchema } },
          },
          500: ErrorSchema,
        },
      },
    },
    async (request, reply) => {
      const view = await submissionStatusView(deps.store, request.params.token, deps.config.publicUrl);
      reply.header('cache-control', 'no-store');
      reply.header('referrer-policy', 'no-referrer');
      if (!view) {
        const message = 'No submission has this status link.';
        // The link is followed by a person from an email: a page, unless the data was asked for.
        if (request.query.format === 'json') throw new AppError('not_found', message);
        return htmlHeaders(reply)
          .header('referrer-policy', 'no-referrer')
          .code(404)
          .type('text/html; charset=utf-8')
          .send(errorPage(404, 'Status link not found', message));
      }
      if (request.query.format === 'json') return reply.type('application/json').send(JSON.stringify(view));
      // the pages' CSP; the token in the address is never sent on as a referrer
      // the published entry's page, when the version in force names this report
      const hash = view.report?.hash;
      const entry = hash ? deps.dataset.current().dataset.models.find((m) => m.report_hash === hash) : undefined;
      return htmlHeaders(reply)
        .header('referrer-policy', 'no-referrer')
        .type('text/html; charset=utf-8')
        .send(renderStatusHtml(view, entry ? `/models/${entry.slug}` : undefined));
    },
  );
}
