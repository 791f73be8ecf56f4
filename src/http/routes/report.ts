import { Type } from '@sinclair/typebox';
import { lookupReport, ReportVerifier, SCORE_REPORT_SCHEMA } from '../../domain/reports.ts';
import { cachedBody, etagMatches, notModified } from '../cache.ts';
import { errorPage, escapeHtml, htmlHeaders, page, sendHtml } from '../pages/html.ts';
import { renderReportHtml } from '../pages/report.ts';
import { foundReport } from '../outcomes.ts';
import { HTML_ERRORS, reportWantsJson } from '../page-errors.ts';
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

/** The 409 as a page: every report the prefix matches, each a link to its full hash. */
function ambiguousPage(key: string, candidates: string[]): string {
  const items = candidates.map((h) => `<li><a href="/report/${escapeHtml(h)}"><code>${escapeHtml(h)}</code></a></li>`);
  return page(
    'Several reports match (409)',
    `<h1>Several reports match</h1><p>The prefix ${escapeHtml(key)} matches more than one report; pick one:</p>` +
      `<ul>${items.join('')}</ul><p><a href="/">Back to the leaderboard</a></p>`,
  );
}

export async function reportRoutes(app: App, deps: Deps): Promise<void> {
  const verifier = new ReportVerifier(deps.store, deps.audit);
  app.get(
    '/report/:id',
    {
      config: { htmlErrors: HTML_ERRORS.report }, // a malformed id: an HTML 400 page too, when HTML is wanted
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
          400: {
            description: 'A malformed id or format: the Error body, or an HTML page when HTML is wanted',
            content: {
              'application/json': { schema: ErrorSchema },
              'text/html': { schema: { type: 'string' } },
            },
          },
          404: {
            description: 'No report matches: the Error body, or an HTML page when HTML is wanted',
            content: {
              'application/json': { schema: ErrorSchema },
              'text/html': { schema: { type: 'string' } },
            },
          },
          409: {
            description: 'The prefix matches several reports: their hashes in candidates, or an HTML page listing them',
            content: {
              'application/json': { schema: AmbiguousSchema },
              'text/html': { schema: { type: 'string' } },
            },
          },
          500: ErrorSchema,
        },
      },
    },
    async (request, reply) => {
      const key = request.params.id.replace(/^rep_/, '').toLowerCase();
      const json = reportWantsJson(request.headers.accept ?? '', request.query.format);
      const lookup = await lookupReport(deps.store, key);
      // A browser (HTML wanted) that follows a stale report_url or a short prefix gets a page, not raw JSON.
      if (!json && lookup.kind === 'none')
        return sendHtml(
          reply.header('vary', 'Accept').header('cache-control', 'public, max-age=60'),
          errorPage(
            404,
            'Report not found',
            `No certified report matches ${key}. A score report expires after its lifetime.`,
          ),
          404,
        );
      if (!json && lookup.kind === 'ambiguous')
        return sendHtml(
          reply.header('vary', 'Accept').header('cache-control', 'no-store'),
          ambiguousPage(key, lookup.candidates),
          409,
        );
      const found = foundReport(lookup, key);
      const inm = request.headers['if-none-match'];
      reply.header('vary', 'Accept').header('x-report-hash', found.hash);
      if (json) {
        // The canonical JSON is content-addressed: its ETag is the hash itself.
        const etag = `"${found.hash}"`;
        reply
          .header('etag', etag)
          .header('cache-control', key.length === 64 ? 'public, max-age=31536000, immutable' : 'public, max-age=300');
        if (etagMatches(inm, etag)) return notModified(reply);
        return reply.type('application/json; charset=utf-8').send(found.json);
      }
      const verifyUrl = `${deps.config.publicUrl}/api/verify?hash=${found.hash}`;
      // The page shows the audit-log check made now, so it is cached briefly rather than for good; its ETag is
      // that of its own bytes (not the JSON's: two representations of one URL cannot share a strong ETag).
      const scoreReport = (JSON.parse(found.json) as { schema?: unknown }).schema === SCORE_REPORT_SCHEMA;
      const verified = scoreReport ? undefined : await verifier.verify(found.hash);
      const rendered = cachedBody(
        renderReportHtml(found.hash, found.json, verifyUrl, verified),
        'text/html; charset=utf-8',
      );
      reply.header('cache-control', 'public, max-age=60').header('etag', rendered.etag);
      if (etagMatches(inm, rendered.etag)) return notModified(htmlHeaders(reply));
      return sendHtml(reply, rendered.body);
    },
  );
}
