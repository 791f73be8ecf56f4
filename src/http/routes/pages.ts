/**
 * The HTML pages: / (leaderboard), /models/<slug>, /try, /submit, /waitlist, /docs, and their static assets.
 *
 * Policy: read pages are rendered once per dataset version and served from memory with an ETag (304 on
 * If-None-Match); the forms post as application/x-www-form-urlencoded (parsed only in this scope) and are checked
 * with the API's own schemas and domain functions; errors in this scope answer HTML pages, not JSON.
 */
import { leaderboardView, perGeneration } from '../../domain/leaderboard.ts';
import { SLUG_PATTERN } from '../../domain/dataset.ts';
import { AppError } from '../../errors.ts';
import { CACHE_READ, cachedBody, sendCached, type CachedBody } from '../cache.ts';
import { asset, errorPage, htmlHeaders, sendHtml } from '../pages/html.ts';
import { filterChoices, renderLeaderboard, type Filter } from '../pages/leaderboard.ts';
import { renderModel } from '../pages/model.ts';
import type { App, Deps } from '../types.ts';

const HTML = 'text/html; charset=utf-8';
const SLUG = new RegExp(SLUG_PATTERN);
const IMMUTABLE = 'public, max-age=31536000, immutable';

/** Rendered pages of one dataset version: the leaderboard per filter choice, and each model page. */
const rendered = perGeneration(() => ({ home: new Map<string, CachedBody>(), models: new Map<string, CachedBody>() }));

const first = (v: unknown): string | undefined =>
  typeof v === 'string' ? v : Array.isArray(v) && typeof v[0] === 'string' ? v[0] : undefined;

export async function pageRoutes(app: App, deps: Deps): Promise<void> {
  const hidden = { schema: { hide: true } };

  app.get('/assets/:name', hidden, async (request, reply) => {
    const a = asset((request.params as { name: string }).name);
    if (!a) throw new AppError('not_found', 'No such asset');
    const versioned = typeof (request.query as { v?: unknown }).v === 'string';
    reply.header('cache-control', versioned ? IMMUTABLE : 'public, max-age=300').header('etag', a.etag);
    if (request.headers['if-none-match'] === a.etag) return reply.code(304).send();
    return reply.type(a.type).send(a.body);
  });

  app.get('/', hidden, async (request, reply) => {
    const loaded = deps.dataset.current();
    const view = leaderboardView(loaded);
    const q = request.query as Record<string, unknown>;
    const { vendors, suites } = filterChoices(view);
    // Only values that exist are kept, so the number of rendered variants stays bounded.
    const filter: Filter = {};
    const vendor = first(q.vendor);
    const suite = first(q.suite);
    if (vendor && vendors.includes(vendor)) filter.vendor = vendor;
    if (suite && suites.includes(suite)) filter.suite = suite;
    const key = `${filter.vendor ?? ''}\u0000${filter.suite ?? ''}`;
    const cache = rendered(loaded).home;
    let page = cache.get(key);
    if (!page) {
      page = cachedBody(renderLeaderboard(view, filter), HTML);
      cache.set(key, page);
    }
    return sendCached(request, htmlHeaders(reply), page, CACHE_READ);
  });

  app.get('/models/:slug', hidden, async (request, reply) => {
    const slug = (request.params as { slug: string }).slug;
    const loaded = deps.dataset.current();
    const cache = rendered(loaded).models;
    let page = cache.get(slug);
    if (!page) {
      const html = SLUG.test(slug) ? renderModel(leaderboardView(loaded), slug, deps.config.publicUrl) : undefined;
      if (html === undefined) {
        return sendHtml(
          reply.header('cache-control', 'public, max-age=60'),
          errorPage(404, 'Model not found', `No model with the slug “${slug}” is on the leaderboard.`),
          404,
        );
      }
      page = cachedBody(html, HTML);
      cache.set(slug, page);
    }
    return sendCached(request, htmlHeaders(reply), page, CACHE_READ);
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
