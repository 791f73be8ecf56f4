import { Type } from '@sinclair/typebox';
import { lookupReport } from '../../domain/reports.ts';
import { renderReportHtml } from '../pages/report.ts';
import { AppError } from '../../errors.ts';
import { ErrorSchema } from '../schemas/core.ts';
import type { App, Deps } from '../types.ts';

const Params = Type.Object({
  id: Type.String({
    pattern: '^(rep_)?[a-fA-F0-9]{12,64}$',
    description: 'The report hash (64 hex), a prefix of at least 12 hex characters, or a report id rep_<12 hex>',
  }),
});

const Query = Type.Object({
  format: Type.Optional(
    Type.Union([Type.Literal('json'), Type.Literal('html')], { description: 'Overrides the Accept header' }),
  ),
});

const AmbiguousSchema = Type.Object(
  {
    error: Type.String(),
    code: Type.Optional(Type.String()),
    candidates: Type.Array(Type.String(), { description: 'Full hashes that share the prefix' }),
  },
  { title: 'AmbiguousReportPrefix' },
);

/** q-value of a media type in an Accept header (exact type, then type/*, then * /*). */
function quality(accept: string, type: string): number {
  let best = -1;
  let q = 0;
  for (const part of accept.split(',')) {
    const [range = '', ...params] = part.trim().toLowerCase().split(';');
    const spec = range === type ? 3 : range === `${type.split('/')[0]}/*` ? 2 : range === '*/*' ? 1 : 0;
    if (spec <= best || spec === 0) continue;
    best = spec;
    const qp = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    q = qp ? Number(qp.slice(2)) || 0 : 1;
  }
  return q;
}

export async function reportRoutes(app: App, deps: Deps): Promise<void> {
  app.get(
    '/report/:id',
    {
      schema: {
        summary: 'A certified report',
        description:
          'A readable HTML page by default, or the report’s canonical JSON (RFC 8785; its SHA-256 is the report ' +
          'hash) when ?format=json or when Accept prefers application/json over text/html. The id is the full hash, ' +
          'a prefix of 12 or more hex characters, or rep_<12 hex>. 404 unknown; 400 malformed; 409 when a prefix ' +
          'matches several reports (the body lists them in candidates).',
        tags: ['read'],
        params: Params,
        querystring: Query,
        response: {
          200: {
            description: 'The report',
            content: {
              'text/html': { schema: { type: 'string' } },
              'application/json': { schema: { type: 'object', additionalProperties: true } },
            },
          },
          400: ErrorSchema,
          404: ErrorSchema,
          409: AmbiguousSchema,
          500: ErrorSchema,
        },
      },
    },
    async (request, reply) => {
      const key = request.params.id.replace(/^rep_/, '').toLowerCase();
      const found = await lookupReport(deps.store, key);
      if (found.kind === 'none') throw new AppError('not_found', `No certified report matches ${key}`);
      if (found.kind === 'ambiguous') {
        throw new AppError('ambiguous', `The prefix ${key} matches several reports; use more characters`, {
          fields: { candidates: found.candidates },
        });
      }
      const accept = request.headers.accept ?? '';
      const json = request.query.format
        ? request.query.format === 'json'
        : quality(accept, 'application/json') > quality(accept, 'text/html');
      reply
        .header('vary', 'Accept')
        .header('etag', `"${found.hash}"`)
        .header('x-report-hash', found.hash)
        .header('cache-control', key.length === 64 ? 'public, max-age=31536000, immutable' : 'public, max-age=300');
      if (json) return reply.type('application/json; charset=utf-8').send(found.json);
      const verifyUrl = `${deps.config.publicUrl}/api/verify?hash=${found.hash}`;
      return reply
        .type('text/html; charset=utf-8')
        .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'")
        .send(renderReportHtml(found.hash, found.json, verifyUrl));
    },
  );
}
