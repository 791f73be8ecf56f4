/**
 * The OpenAPI 3.1 document, generated from the route schemas by @fastify/swagger, served at /openapi.json.
 * Answers that plugins give on every route are added here once (declareCommonAnswers), not in each route file:
 * the 401 of a bad bearer key (src/http/plugins/auth.ts), the 413 and 415 of a JSON body (the body parser), and
 * the alternate shape's own media type beside application/json (src/http/quickref.ts).
 */
import swagger from '@fastify/swagger';
import { PAI_DIMS, SYCO_DIMS } from '../dimensions.ts';
import type { Config } from '../config.ts';
import { applyExamples } from './examples.ts';
import { ErrorSchema } from './schemas/core.ts';
import { QUICKREF_MEDIA_TYPE } from './schemas/quickref.ts';
import type { App } from './types.ts';

type Media = { schema?: { anyOf?: { title?: string }[] }; example?: unknown };
type Response = { description?: string; content?: Record<string, Media> };
type Operation = { requestBody?: { content?: Record<string, unknown> }; responses?: Record<string, Response> };

const errorBody = (description: string): Response => ({
  description,
  content: { 'application/json': { schema: JSON.parse(JSON.stringify(ErrorSchema)) } },
});

/** Add the answers every route can give to each operation that does not declare them itself. */
export function declareCommonAnswers(doc: { paths?: Record<string, Record<string, Operation>> }): void {
  for (const [path, ops] of Object.entries(doc.paths ?? {})) {
    for (const op of Object.values(ops)) {
      const responses = (op.responses ??= {});
      responses['401'] ??= path.startsWith('/api/badge')
        ? {
            description: 'Placeholder SVG: a bearer key was presented but is unknown, malformed, not active or revoked',
            content: { 'image/svg+xml': { schema: { type: 'string' } as never } },
          }
        : errorBody(
            'A bearer key was presented but is unknown, malformed, not active or revoked (WWW-Authenticate: Bearer); no Authorization header is the free tier',
          );
      // A page that refuses a browser with HTML (its 400 already says so: src/http/page-errors.ts) does so for
      // the 401 too.
      const r401 = responses['401'];
      if (responses['400']?.content?.['text/html'] && r401.content && !r401.content['text/html'])
        r401.content['text/html'] = { schema: { type: 'string' } as never };
      if (op.requestBody?.content?.['application/json']) {
        responses['413'] ??= errorBody('The body is larger than SVC_BODY_LIMIT (payload_too_large)');
        responses['415'] ??= errorBody('The body is not application/json (unsupported_media_type)');
      }
      for (const r of Object.values(responses)) {
        const json = r.content?.['application/json'];
        const alternate = json?.schema?.anyOf?.find((s) => s.title?.startsWith('Quickref'));
        if (alternate && r.content && !r.content[QUICKREF_MEDIA_TYPE])
          r.content[QUICKREF_MEDIA_TYPE] = { schema: alternate as Media['schema'] };
      }
    }
  }
}

export const API_VERSION = '1.0.0';

export async function registerOpenApi(app: App, config: Config): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'svc: sycophancy and parasocial-risk scoring API',
        version: API_VERSION,
        description:
          'Publishes and computes safety scores for AI models and single AI responses on two indices: the sycophancy ' +
          `index (ELEPHANT dimensions ${SYCO_DIMS.join(', ')} and honesty) and the parasocial attachment index (PAI: ` +
          `${PAI_DIMS.join(', ')}, composite and risk). Scores are 0-10, higher is worse. Errors use the Error body ` +
          '{error, code?, detail?, required?}.',
      },
      servers: [{ url: config.publicUrl }],
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer', description: 'Optional API key sk-svc-<32 hex>' },
        },
      },
    },
    transformObject: (documentObject) => {
      if (!('openapiObject' in documentObject)) return documentObject.swaggerObject;
      declareCommonAnswers(documentObject.openapiObject as Parameters<typeof declareCommonAnswers>[0]);
      return documentObject.openapiObject;
    },
  });
  applyExamples(app); // every operation's example request and response (src/http/examples.ts)
}
