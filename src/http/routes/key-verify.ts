/**
 * GET /api/keys/verify?token=: the link in the email sent for a key requested with a plan. It activates the key
 * (single use) and answers a short HTML page; until then the key answers 401 as a bearer. The token (256 random
 * bits, only its SHA-256 stored) is cut from logged URLs; the page sends no referrer and is never cached.
 */
import { Type } from '@sinclair/typebox';
import { activateKey, VERIFY_TOKEN_PATTERN } from '../../domain/keys.ts';
import { statusOf } from '../../errors.ts';
import { orRefuse } from '../outcomes.ts';
import { HTML_ERRORS } from '../page-errors.ts';
import { CSP, escapeHtml, page } from '../pages/html.ts';
import { ErrorSchema } from '../schemas/core.ts';
import type { App, Deps } from '../types.ts';

const Query = Type.Object(
  {
    token: Type.String({ pattern: VERIFY_TOKEN_PATTERN.source, description: 'The token from the verification email' }),
  },
  { required: ['token'] },
);
const Html = { description: 'A short HTML page', content: { 'text/html': { schema: { type: 'string' } } } };

export async function keyVerifyRoutes(app: App, deps: Deps): Promise<void> {
  app.get(
    '/api/keys/verify',
    {
      config: { htmlErrors: HTML_ERRORS.browser }, // a malformed token: an HTML 400 page for a browser
      schema: {
        summary: 'Activate an API key (verification link)',
        description:
          'Activates the key whose verification email carried this token and answers an HTML page: 200 when activated, ' +
          '404 when the link is unknown or was already used. 400 for a malformed or missing token: an HTML page when ' +
          'Accept prefers text/html (a browser), else the Error body.',
        tags: ['keys'],
        querystring: Query,
        response: {
          200: Html,
          400: {
            description: 'A malformed or missing token: an HTML page for a browser, else the Error body',
            content: { 'text/html': { schema: { type: 'string' } }, 'application/json': { schema: ErrorSchema } },
          },
          404: Html,
          500: ErrorSchema,
        },
      },
    },
    async (request, reply) => {
      const activated = orRefuse(await activateKey(deps.store, request.query.token));
      reply
        .header('cache-control', 'no-store')
        .header('referrer-policy', 'no-referrer')
        .header('content-security-policy', CSP)
        .type('text/html; charset=utf-8');
      if (activated.kind === 'unknown') {
        return reply
          .code(statusOf('not_found'))
          .send(
            page(
              'Link not valid',
              '<h1>This link is not valid</h1><p>It is unknown or was already used. A key is activated only once.</p>',
            ),
          );
      }
      const rec = activated.record;
      return reply.send(
        page(
          'API key activated',
          `<h1>Your API key is active</h1><p>Plan <code>${escapeHtml(rec.plan)}</code>: ${escapeHtml(rec.rateLimit)} calls per UTC day. ` +
            'Send it as <code>Authorization: Bearer &lt;key&gt;</code>.</p>',
        ),
      );
    },
  );
}
