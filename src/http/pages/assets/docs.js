// /docs: Swagger UI (from the swagger-ui-dist package, served by this app) over /openapi.json.

window.addEventListener('DOMContentLoaded', () => {
  const root = document.getElementById('swagger-ui');
  if (!root || typeof window.SwaggerUIBundle !== 'function') return;
  root.textContent = '';
  window.ui = window.SwaggerUIBundle({
    url: '/openapi.json',
    domNode: root,
    deepLinking: false, // its anchor inside each operation's button is a nested control (axe: nested-interactive)
    tryItOutEnabled: true,
    displayRequestDuration: true,
    defaultModelsExpandDepth: 0,
    // "try it" calls this same origin, whatever server the document names (the CSP allows no other)
    requestInterceptor: (req) => {
      const u = new URL(req.url, window.location.href);
      req.url = window.location.origin + u.pathname + u.search;
      return req;
    },
    validatorUrl: null, // no request to the public validator: nothing leaves this origin
    presets: [window.SwaggerUIBundle.presets.apis],
    layout: 'BaseLayout',
    // "try it" always calls this origin (requestInterceptor), so the unlabelled servers picker is left out
    plugins: [() => ({ wrapComponents: { ServersContainer: () => () => null } })],
  });
});
