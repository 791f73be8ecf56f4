/**
 * The HTML pages: / (leaderboard), /models/<slug>, /try, /submit, /waitlist, /docs, and their static assets.
 *
 * Policy: read pages are rendered once per dataset version and served from memory with an ETag (304 on
 * If-None-Match); the forms post as application/x-www-form-urlencoded (parsed only in this scope) and are checked
 * with the API's own schemas and domain functions; errors in this scope answer HTML pages, not JSON.
 */
import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { leaderboardView, perGeneration } from '../../domain/leaderboard.ts';
import { SLUG_PATTERN } from '../../domain/dataset.ts';
import { AppError, statusOf } from '../../errors.ts';
import { CACHE_READ, cachedBody, etagMatches, sendCached, type CachedBody } from '../cache.ts';
import { asset, errorPage, HTML_HEADERS, htmlHeaders, sendHtml } from '../pages/html.ts';
import { filterChoices, renderLeaderboard, sortChoices, stateQuery, type Filter } from '../pages/leaderboard.ts';
import { renderModel } from '../pages/model.ts';
import { reportExamplesOf } from '../pages/examples.ts';
import type { ReportExample } from '../../domain/reports.ts';
import { joinWaitlist } from '../../domain/waitlist.ts';
import { submitModel } from '../../domain/submissions.ts';
import { scoreText } from '../../scoring/engine.ts';
import { honestyReport } from '../../scoring/honesty.ts';
import { presentScores } from '../../scoring/present.ts';
import { badNotice, okNotice, problemText, renderSubmit, renderWaitlist } from '../pages/forms.ts';
import { renderTry, renderTryResult, type FormState } from '../pages/try.ts';
import { submissionReply, waitlistReply } from '../outcomes.ts';
import { submissionInput } from '../quickref.ts';
import { fieldProblems } from '../validation.ts';
import type { App, Deps } from '../types.ts';
import { ScoreBody } from './score.ts';
import { SubmitBody } from './submit.ts';
import { WaitlistBody } from './waitlist.ts';

const HTML = 'text/html; charset=utf-8';
const SLUG = new RegExp(SLUG_PATTERN);
const IMMUTABLE = 'public, max-age=31536000, immutable';

/** Rendered model pages of one dataset version. */
const rendered = perGeneration(() => ({ models: new Map<string, CachedBody>() }));

const first = (v: unknown): string | undefined =>
  typeof v === 'string' ? v : Array.isArray(v) && typeof v[0] === 'string' ? v[0] : undefined;

/** At most this many (filter, sort) variants of / are kept per dataset version; the oldest used goes first. */
export const HOME_VARIANTS = 256;

/** A page answer prepared once: the body as bytes (no UTF-8 encoding per request) and every header. */
export interface Prepared {
  body: Buffer;
  etag: string;
  headers: Record<string, string>;
}

function prepare(html: string): Prepared {
  const body = Buffer.from(html, 'utf8');
  const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
  return { body, etag, headers: { ...HTML_HEADERS, 'content-type': HTML, 'cache-control': CACHE_READ, etag } };
}

function sendPrepared(request: FastifyRequest, reply: FastifyReply, p: Prepared): FastifyReply {
  reply.headers(p.headers);
  const inm = request.headers['if-none-match'];
  if (inm !== undefined && etagMatches(inm, p.etag)) return reply.code(304).send();
  return reply.send(p.body);
}

/**
 * The leaderboard page per dataset version: the plain one rendered at once, the (vendor, suite, sort, dir)
 * variants when first asked for, in a bounded LRU. Values that are not offered are dropped before the key is
 * made, so any query maps to one of a bounded set of pages.
 */
const homePages = perGeneration((loaded) => {
  const view = leaderboardView(loaded);
  const { vendors, suites } = filterChoices(view);
  const sorts = new Set(sortChoices(view).map(([k]) => k));
  const plain = prepare(renderLeaderboard(view));
  const variants = new Map<string, Prepared>();
  return {
    plain,
    variant(q: Record<string, unknown>): Prepared {
      const filter: Filter = {};
      const vendor = first(q.vendor);
      const suite = first(q.suite);
      const sort = first(q.sort);
      const dir = first(q.dir);
      if (vendor && vendors.includes(vendor)) filter.vendor = vendor;
      if (suite && suites.includes(suite)) filter.suite = suite;
      if (sort && sorts.has(sort)) {
        filter.sort = sort;
        filter.dir = dir === 'desc' ? 'desc' : 'asc';
      }
      const key = stateQuery(filter);
      if (key === '/') return plain;
      let p = variants.get(key);
      if (p) {
        variants.delete(key); // most recently used last
      } else {
        p = prepare(renderLeaderboard(view, filter));
        if (variants.size >= HOME_VARIANTS) variants.delete(variants.keys().next().value!);
      }
      variants.set(key, p);
      return p;
    },
  };
});

/**
 * Read a posted form against an API body schema: only the named fields, empty optional ones left out, and every
 * problem reported by field in words. The schema is the API route's own, so the rules exist once.
 */
function readForm(
  schema: object,
  body: unknown,
  fields: readonly string[],
  required: readonly string[],
): { values: Record<string, string>; input: Record<string, string>; errors: Record<string, string> } {
  const posted = (body && typeof body === 'object' ? body : {}) as Record<string, unknown>;
  const values: Record<string, string> = {};
  const input: Record<string, string> = {};
  for (const f of fields) {
    const v = typeof posted[f] === 'string' ? (posted[f] as string) : '';
    values[f] = v;
    if (v !== '' || required.includes(f)) input[f] = v;
  }
  const errors: Record<string, string> = {};
  for (const p of fieldProblems(schema, input))
    if (fields.includes(p.field) && !errors[p.field])
      errors[p.field] = problemText(p.keyword, p.params, (input[p.field] ?? '') === '');
  return { values, input, errors };
}

/** Store errors whose catalogue text is meant for users are shown in the form; anything else is a 500 page. */
/** A store refusal as the form shows it: the message, with the catalogue's status for its code (as the API sends). */
function storeProblem(err: unknown): { text: string; status: number } | undefined {
  return err instanceof AppError && (err.code === 'store_not_configured' || err.code === 'store_unavailable')
    ? { text: err.message, status: statusOf(err.code) }
    : undefined;
}

export async function pageRoutes(app: App, deps: Deps): Promise<void> {
  const hidden = { schema: { hide: true } };

  app.get('/assets/:name', hidden, async (request, reply) => {
    const a = asset((request.params as { name: string }).name);
    if (!a) throw new AppError('not_found', 'No such asset');
    const versioned = typeof (request.query as { v?: unknown }).v === 'string';
    reply.header('cache-control', versioned ? IMMUTABLE : 'public, max-age=300').header('etag', a.etag);
    if (etagMatches(request.headers['if-none-match'], a.etag)) return reply.code(304).send();
    return reply.type(a.type).send(a.body);
  });

  // The leaderboard page's answers are also served from memory (src/http/plugins/hot-cache.ts).
  app.get('/', { ...hidden, config: { hotCache: true } }, (request, reply) => {
    const home = homePages(deps.dataset.current());
    // The plain address (most requests) skips reading the query: one prepared answer per dataset version.
    const p = request.url === '/' ? home.plain : home.variant(request.query as Record<string, unknown>);
    // A synchronous handler that returns nothing: no promise per request on the hottest page.
    sendPrepared(request, reply, p);
  });

  app.get('/models/:slug', hidden, async (request, reply) => {
    const slug = (request.params as { slug: string }).slug;
    const loaded = deps.dataset.current();
    const cache = rendered(loaded).models;
    let page = cache.get(slug);
    if (!page) {
      const view = leaderboardView(loaded);
      const found = SLUG.test(slug) ? view.bySlug.get(slug) : undefined;
      if (!found) {
        return sendHtml(
          reply.header('cache-control', 'public, max-age=60'),
          errorPage(404, 'Model not found', `No model with the slug “${slug}” is on the leaderboard.`),
          404,
        );
      }
      // The replies with the most evidence live in the model's certified report (evaluations only).
      let examples: ReportExample[] = [];
      let keep = true;
      const hash = found.model.report_hash;
      if (hash) {
        try {
          const json = await deps.store.getReport(hash);
          if (json !== null) examples = reportExamplesOf(json);
        } catch (err) {
          request.log.warn({ err: (err as Error).message }, 'model page: report unreadable; shown without examples');
          keep = false; // not cached, so the next request tries again
        }
      }
      page = cachedBody(renderModel(view, slug, deps.config.publicUrl, examples)!, HTML);
      if (keep) cache.set(slug, page);
    }
    return sendCached(request, htmlHeaders(reply), page, CACHE_READ);
  });

  const empty: FormState = { values: {}, errors: {} };
  const noStore = (reply: Parameters<typeof sendHtml>[0]) => reply.header('cache-control', 'no-store');

  app.get('/try', hidden, async (_request, reply) => sendHtml(noStore(reply), renderTry(empty)));
  app.post('/try', { ...hidden, config: { rateLimit: 'score' } }, async (request, reply) => {
    const { values, input, errors } = readForm(ScoreBody, request.body, ['prompt', 'response'], ['prompt', 'response']);
    if (Object.keys(errors).length)
      return sendHtml(
        noStore(reply),
        renderTry({ values, errors, notice: badNotice('Please correct the fields marked below.') }),
        400,
      );
    const pair = { prompt: input.prompt ?? '', response: input.response ?? '' };
    const result = scoreText(pair);
    const all = { ...result.sycophancy.dimensions, ...result.pai.dimensions };
    const evidence = Object.fromEntries(Object.entries(all).map(([d, r]) => [d, r.evidence]));
    const html = renderTryResult(pair.response, {
      scores: presentScores(result),
      evidence,
      honesty: honestyReport(pair),
    });
    return sendHtml(noStore(reply), renderTry({ values, errors: {} }, html));
  });

  const SUBMIT_FIELDS = ['model_name', 'vendor', 'api_endpoint', 'contact_email', 'notes'] as const;
  app.get('/submit', hidden, async (_request, reply) => sendHtml(noStore(reply), renderSubmit(empty)));
  app.post('/submit', { ...hidden, config: { rateLimit: 'submit' } }, async (request, reply) => {
    const { values, input, errors } = readForm(SubmitBody, request.body, SUBMIT_FIELDS, SUBMIT_FIELDS.slice(0, 4));
    if (Object.keys(errors).length)
      return sendHtml(
        noStore(reply),
        renderSubmit({ values, errors, notice: badNotice('Please correct the fields marked below.') }),
        400,
      );
    try {
      const res = submissionReply(
        await submitModel(
          deps,
          submissionInput(input as { model_name: string; vendor: string; api_endpoint: string; contact_email: string }),
          deps.now(),
        ),
      );
      return sendHtml(
        noStore(reply),
        renderSubmit({
          values: {},
          errors: {},
          notice: okNotice(`Thank you: submission ${res.id} is queued. ${res.message}`),
        }),
      );
    } catch (err) {
      const problem = storeProblem(err);
      if (!problem) throw err;
      return sendHtml(
        noStore(reply),
        renderSubmit({ values, errors: {}, notice: badNotice(problem.text) }),
        problem.status,
      );
    }
  });

  const WAITLIST_FIELDS = ['email', 'name', 'organization', 'use_case'] as const;
  app.get('/waitlist', hidden, async (_request, reply) => sendHtml(noStore(reply), renderWaitlist(empty)));
  app.post('/waitlist', { ...hidden, config: { rateLimit: 'waitlist' } }, async (request, reply) => {
    const { values, input, errors } = readForm(WaitlistBody, request.body, WAITLIST_FIELDS, ['email']);
    if (Object.keys(errors).length)
      return sendHtml(
        noStore(reply),
        renderWaitlist({ values, errors, notice: badNotice('Please correct the fields marked below.') }),
        400,
      );
    try {
      const res = waitlistReply(await joinWaitlist(deps, input as { email: string }, deps.now()));
      return sendHtml(
        noStore(reply),
        renderWaitlist({ values: {}, errors: {}, notice: okNotice(res.body.message) }),
        res.status,
      );
    } catch (err) {
      const problem = storeProblem(err);
      if (!problem) throw err;
      return sendHtml(
        noStore(reply),
        renderWaitlist({ values, errors: {}, notice: badNotice(problem.text) }),
        problem.status,
      );
    }
  });
}

/** Form bodies: each field once (a repeated field keeps its first value); values stay strings. */
export function parseForm(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of new URLSearchParams(text)) if (!Object.hasOwn(out, k)) out[k] = v;
  return out;
}

/** The pages in their own scope: a form-body parser and an error handler that answers HTML. */
export async function pagesPlugin(app: App, deps: Deps): Promise<void> {
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) =>
    done(null, parseForm(body as string)),
  );
  app.setErrorHandler((err: Error & { statusCode?: number; code?: string }, request, reply) => {
    let status = 500;
    let message = 'Something went wrong on our side; please try again.';
    if (err instanceof AppError) {
      status = err.status;
      for (const [k, v] of Object.entries(err.extra.headers ?? {})) reply.header(k, v);
      if (status < 500) message = err.message;
    } else if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      status = 413;
      message = 'The form is too large.';
    } else if (err.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
      status = 415;
      message = 'Send the form as application/x-www-form-urlencoded.';
    } else if (err.statusCode && err.statusCode >= 400 && err.statusCode < 500) {
      status = err.statusCode;
      message = 'The request could not be read.';
    }
    if (status >= 500) request.log.error({ err }, 'page error');
    const title = status === 429 ? 'Too many requests' : status === 404 ? 'Not found' : 'Request refused';
    return sendHtml(reply, errorPage(status, status >= 500 ? 'Server error' : title, message), status);
  });
  await pageRoutes(app, deps);
}
