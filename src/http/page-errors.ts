/**
 * Which refusals are HTML pages. A page that a person opens from a link (a report, a submission's status, a key's
 * activation link, a model page, an asset) refuses a malformed address the way it answers an unknown one: an HTML
 * error page with the same status when the request wants HTML, the Error body when it wants data. Each page
 * route names its rule in `config.htmlErrors`; the router's refusals (a path that does not decode or is too
 * long), made before any route is known, find the rule by path (`pageRuleOf`).
 */
import type { FastifyReply } from 'fastify';
import { quality } from './accept.ts';
import { errorPage, htmlHeaders } from './pages/html.ts';

export interface HtmlErrorRule {
  /** True when the refusal should be an HTML page, from the Accept header and the (raw) `format` parameter. */
  wanted(accept: string, format: unknown): boolean;
  /** The choice depends on Accept (the answer then carries `Vary: Accept`). */
  byAccept: boolean;
  /** Headers the page's own answers carry and its error pages keep (e.g. no-referrer, no-store). */
  headers?: Readonly<Record<string, string>>;
  /**
   * What the 400 page says when the part of the address that names the thing (`part`) is malformed: the address in
   * words (the Error body's message names a pattern, which is not for a person).
   */
  badRequest?: { text: string; part: 'params' | 'querystring' };
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** This route is a page: refusals are HTML pages when its rule says HTML is wanted (src/http/page-errors.ts). */
    htmlErrors?: HtmlErrorRule;
  }
}

/** A `format` parameter's value when given once; a repeated or missing one is undefined. */
const single = (format: unknown): string | undefined => (typeof format === 'string' ? format : undefined);

/** GET /report/{id}: JSON when ?format=json, or (without a valid format) when Accept prefers JSON over HTML. */
export function reportWantsJson(accept: string, format: unknown): boolean {
  const f = single(format);
  if (f === 'json' || f === 'html') return f === 'json';
  return quality(accept, 'application/json') > quality(accept, 'text/html');
}

const LINK_CUT =
  'This link is not complete: check that the whole address from the email was copied, up to its last character.';

export const HTML_ERRORS = {
  /** Pages with no data form (/models/{slug}, /assets/{name}): always HTML. */
  always: { wanted: () => true, byAccept: false },
  /** /report/{id}: the report's own negotiation. */
  report: {
    wanted: (accept, format) => !reportWantsJson(accept, format),
    byAccept: true,
    badRequest: {
      part: 'params',
      text:
        'This address does not name a report: a report is named by its SHA-256 hash (64 hexadecimal characters), ' +
        'by 12 or more of its first characters, or by rep_ and its first 12 (…/report/rep_0123456789ab).',
    },
  },
  /** /submissions/{token}: HTML unless ?format=json. */
  status: {
    wanted: (_accept, format) => single(format) !== 'json',
    byAccept: false,
    headers: { 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' },
    badRequest: { text: LINK_CUT, part: 'params' },
  },
  /** /api/keys/verify: an API path whose answers are pages; HTML only when the client prefers it (a browser). */
  browser: {
    wanted: (accept) => quality(accept, 'text/html') > quality(accept, 'application/json'),
    byAccept: true,
    headers: { 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' },
    badRequest: { text: LINK_CUT, part: 'querystring' },
  },
} as const satisfies Record<string, HtmlErrorRule>;

/** The rule of a page path, for refusals made before a route is known. */
export function pageRuleOf(path: string): HtmlErrorRule | undefined {
  if (path.startsWith('/report/')) return HTML_ERRORS.report;
  if (path.startsWith('/submissions/')) return HTML_ERRORS.status;
  if (path.startsWith('/models/') || path.startsWith('/assets/')) return HTML_ERRORS.always;
  if (path === '/api/keys/verify') return HTML_ERRORS.browser;
  return undefined;
}

/** The raw `format` query value of a URL (undefined when absent, an array when repeated); never throws. */
export function rawFormat(url: string): unknown {
  const q = url.indexOf('?');
  if (q < 0) return undefined;
  const all = new URLSearchParams(url.slice(q + 1)).getAll('format');
  return all.length === 0 ? undefined : all.length === 1 ? all[0] : all;
}

const TITLES: Record<number, string> = {
  400: 'Bad address',
  401: 'Not authorized',
  404: 'Not found',
  408: 'Request timeout',
  413: 'Request too large',
  414: 'Address too long',
  415: 'Unsupported request',
  429: 'Too many requests',
};

/**
 * Answer a refusal as an HTML page in the site's design, with the same text as the Error body would carry (that
 * text is public: a 500's never carries internals, src/errors.ts) and, on a 5xx, the request id to quote.
 */
export function sendHtmlError(
  reply: FastifyReply,
  rule: HtmlErrorRule,
  status: number,
  message: string,
  headers: Record<string, string> = {},
): FastifyReply {
  htmlHeaders(reply); // first, so that the rule's own (no-referrer) win
  for (const [k, v] of Object.entries({ ...headers, ...rule.headers })) reply.header(k, v);
  if (rule.byAccept) reply.header('vary', 'Accept');
  const server = status >= 500;
  const title = server ? 'Server error' : (TITLES[status] ?? 'Request refused');
  const text = server ? `${message} (request id ${reply.request.id})` : message;
  return reply
    .code(status)
    .type('text/html; charset=utf-8')
    .send(errorPage(status, title, text));
}
