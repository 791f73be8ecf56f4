import { Type } from '@sinclair/typebox';
import { ReportVerifier } from '../../domain/reports.ts';
import { quickrefVerify, sendQuickref } from '../quickref.ts';
import { ErrorSchema } from '../schemas/core.ts';
import { FormatParam, QUICKREF_MEDIA_TYPE, QuickrefVerifySchema } from '../schemas/quickref.ts';
import type { App, Deps } from '../types.ts';

const Query = Type.Object(
  {
    hash: Type.String({
      pattern: '^(sha256:)?[a-fA-F0-9]{64}$',
      description:
        'SHA-256 of a certified report: 64 hexadecimal characters (any case), or sha256:<hex> for the alternate shape',
    }),
    format: FormatParam,
  },
  { required: ['hash'] },
);

const CoreBody = Type.Object(
  {
    verified: Type.Boolean(),
    report_id: Type.Optional(Type.String({ description: 'rep_ + the first 12 hex characters of the hash' })),
    model: Type.Optional(Type.String({ description: 'Model slug' })),
    generated_at: Type.Optional(Type.String({ format: 'date-time' })),
    message: Type.Optional(Type.String({ description: 'Why the hash did not verify (only when verified is false)' })),
  },
  { title: 'VerifyResult' },
);

export async function verifyRoutes(app: App, deps: Deps): Promise<void> {
  const verifier = new ReportVerifier(deps.store, deps.audit);
  app.get(
    '/api/verify',
    {
      config: {
        rateLimit: 'verify',
        shapes: { hint: (request) => (request.query as { hash: string }).hash.startsWith('sha256:') },
      },
      schema: {
        summary: 'Verify a report hash',
        description:
          'Checks a certified report hash against the stored report (its content must still hash to it) and the ' +
          'signed audit log (its entry must be under a validly signed checkpoint whose root the log still matches). ' +
          'A well-formed hash that does not verify answers 200 with verified false and a message; 400 only for a ' +
          'missing or malformed hash. 50 requests per hour per IP. The alternate shape ({valid, hash, model, ' +
          'scored_at, composite_score}) is chosen by a sha256: prefix, ?format=quickref or Accept: ' +
          `${QUICKREF_MEDIA_TYPE}.`,
        tags: ['read'],
        querystring: Query,
        response: {
          200: Type.Union([CoreBody, QuickrefVerifySchema]),
          400: ErrorSchema,
          429: ErrorSchema,
          500: ErrorSchema,
        },
      },
    },
    async (request, reply) => {
      const raw = request.query.hash;
      const hash = raw.replace(/^sha256:/, '').toLowerCase();
      const r = await verifier.verify(hash);
      reply.header('cache-control', 'no-store').header('vary', 'Accept');
      if (request.shape === 'quickref') return sendQuickref(reply, quickrefVerify(hash, r));
      if (!r.verified) return r;
      return { verified: true, report_id: r.report_id, model: r.model, generated_at: r.generated_at };
    },
  );
}
