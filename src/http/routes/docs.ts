/**
 * GET /openapi.json (the generated OpenAPI 3.1 document) and GET /docs: the interactive reference, Swagger UI
 * from the swagger-ui-dist package served by this app (no CDN), with "try it" against this origin.
 */
import { escapeHtml, page, sendHtml } from '../pages/html.ts';
import type { App, Deps } from '../types.ts';

export async function docsRoutes(app: App, _deps: Deps): Promise<void> {
  let html: string | undefined;
  app.get('/openapi.json', { schema: { hide: true } }, async (_request, reply) => {
    reply.header('cache-control', 'public, max-age=300').header('access-control-allow-origin', '*');
    return app.swagger();
  });
  app.get('/docs', { schema: { hide: true } }, async (_request, reply) => {
    html ??= page(
      'svc API reference',
      `<h1>API reference</h1>
<p>Every endpoint with its parameters, bodies, answers and an example of each; open one and press <strong>Try it out</strong> to call this service from the page (the per-IP limits apply). Behaviour and decisions: <code>docs/api.md</code>. Machine-readable: <a href="/openapi.json">/openapi.json</a> (OpenAPI 3.1).</p>
<div id="swagger-ui" class="swagger-wrap"><noscript><p>The interactive reference needs JavaScript. The same content is in the <a href="/openapi.json">OpenAPI document</a>.</p></noscript><p class="muted">Loading ${escapeHtml('the reference…')}</p></div>`,
      { current: '/docs', styles: ['swagger-ui.css'], scripts: ['swagger-ui-bundle.js', 'docs.js'] },
    );
    reply.header('cache-control', 'public, max-age=300');
    return sendHtml(reply, html);
  });
}
