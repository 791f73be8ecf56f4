/**
 * The page frame for every HTML page, the static assets it links, and the HTML security headers.
 *
 * Policy: every page is server-rendered and works without JavaScript; /assets/site.js only improves it. Nothing
 * is loaded from another origin, there is no inline script or style (so the Content-Security-Policy below allows
 * only 'self'), and every value goes in through escapeHtml. Assets are served from memory with a content hash in
 * their URL, so they are cached for a year and a new build changes the URL.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import type { FastifyReply } from 'fastify';
import { escapeHtml } from '../../text.ts';

export { escapeHtml };

/** The CSP of every HTML page: same-origin scripts, styles, images, fetches and form posts only. */
export const CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
  "font-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

export interface Asset {
  body: Buffer;
  type: string;
  etag: string;
}

const require = createRequire(import.meta.url);
const own = (name: string) => new URL(`./assets/${name}`, import.meta.url);
const SOURCES: Record<string, { file: URL | string; type: string }> = {
  'site.css': { file: own('site.css'), type: 'text/css; charset=utf-8' },
  'site.js': { file: own('site.js'), type: 'text/javascript; charset=utf-8' },
  'docs.js': { file: own('docs.js'), type: 'text/javascript; charset=utf-8' },
  'icon.svg': { file: own('icon.svg'), type: 'image/svg+xml' },
  'swagger-ui.css': { file: require.resolve('swagger-ui-dist/swagger-ui.css'), type: 'text/css; charset=utf-8' },
  'swagger-ui-bundle.js': {
    file: require.resolve('swagger-ui-dist/swagger-ui-bundle.js'),
    type: 'text/javascript; charset=utf-8',
  },
};
const loaded = new Map<string, Asset>();

/** An asset by name, read once; undefined for a name that is not one of ours. */
export function asset(name: string): Asset | undefined {
  let a = loaded.get(name);
  if (a) return a;
  const src = Object.hasOwn(SOURCES, name) ? SOURCES[name] : undefined;
  if (!src) return undefined;
  const body = fs.readFileSync(src.file);
  a = { body, type: src.type, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"` };
  loaded.set(name, a);
  return a;
}

/** The URL of an asset, with its content hash so that it can be cached for good. */
export function assetUrl(name: string): string {
  const a = asset(name);
  if (!a) throw new Error(`unknown asset ${name}`);
  return `/assets/${name}?v=${a.etag.slice(1, 11)}`;
}

export const NAV = [
  ['/', 'Leaderboard'],
  ['/try', 'Try it'],
  ['/submit', 'Submit a model'],
  ['/waitlist', 'Waitlist'],
  ['/docs', 'API'],
] as const;

export interface PageOptions {
  /** The nav entry to mark as current. */
  current?: (typeof NAV)[number][0];
  /** Extra stylesheets and scripts (asset names), after the site's own. */
  styles?: string[];
  scripts?: string[];
  description?: string;
}

/** A complete page; `body` must already be escaped HTML. */
export function page(title: string, body: string, opts: PageOptions = {}): string {
  const nav = NAV.map(
    ([href, label]) =>
      `<li><a href="${href}"${opts.current === href ? ' aria-current="page"' : ''}>${escapeHtml(label)}</a></li>`,
  ).join('');
  const styles = ['site.css', ...(opts.styles ?? [])]
    .map((s) => `<link rel="stylesheet" href="${assetUrl(s)}">`)
    .join('');
  const scripts = ['site.js', ...(opts.scripts ?? [])]
    .map((s) => `<script defer src="${assetUrl(s)}"></script>`)
    .join('');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>${escapeHtml(title)}</title>${opts.description ? `\n<meta name="description" content="${escapeHtml(opts.description)}">` : ''}
<link rel="icon" href="${assetUrl('icon.svg')}" type="image/svg+xml">${styles}${scripts}
</head><body>
<a class="skip" href="#main">Skip to content</a>
<header><nav aria-label="Main"><a class="brand" href="/">svc</a><ul>${nav}</ul></nav></header>
<main id="main">
${body}
</main>
<footer><p>svc scores AI replies for sycophancy and parasocial risk. <a href="/docs">API reference</a> · <a href="/openapi.json">OpenAPI document</a></p></footer>
</body></html>
`;
}

/** Headers every HTML answer carries. */
export const HTML_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'content-security-policy': CSP,
  'referrer-policy': 'same-origin',
  'x-frame-options': 'DENY',
});

export function htmlHeaders(reply: FastifyReply): FastifyReply {
  return reply.headers(HTML_HEADERS);
}

/** Send a rendered page with the HTML headers (status 200 unless given). */
export function sendHtml(reply: FastifyReply, html: string, status = 200): FastifyReply {
  return htmlHeaders(reply).code(status).type('text/html; charset=utf-8').send(html);
}

/** A page for an error status (404, 400, 429, 500 …), in the site's design. */
export function errorPage(status: number, title: string, message: string): string {
  return page(
    `${title} (${status})`,
    `<h1>${escapeHtml(title)}</h1><p>${escapeHtml(message)}</p><p><a href="/">Back to the leaderboard</a></p>`,
  );
}

/** Numbers as the pages show them: two decimals. */
export function fmt(n: number | undefined | null): string {
  return typeof n === 'number' && Number.isFinite(n) ? n.toFixed(2) : '–';
}
