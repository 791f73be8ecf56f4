/** GET /openapi.json (the generated OpenAPI 3.1 document) and GET /docs (a readable API reference built from it). */
import { escapeHtml, page } from '../pages/html.ts';
import type { App, Deps } from '../types.ts';

type Json = Record<string, unknown>;

function schemaTable(schema: Json | undefined): string {
  const alternatives = (schema?.anyOf ?? schema?.oneOf) as Json[] | undefined;
  if (alternatives) {
    return `<p>One of:</p>${alternatives
      .map((alt, i) => `<h5>${escapeHtml(String(alt.title ?? `shape ${i + 1}`))}</h5>${schemaTable(alt)}`)
      .join('')}`;
  }
  const props = schema?.properties as Record<string, Json> | undefined;
  if (!props) return schema ? `<pre>${escapeHtml(JSON.stringify(schema, null, 2))}</pre>` : '';
  const required = new Set((schema?.required as string[] | undefined) ?? []);
  const rows = Object.entries(props).map(([name, p]) => {
    const nested = p.properties ? ` {${Object.keys(p.properties as Json).join(', ')}}` : '';
    const items = (p.items as Json | undefined)?.properties
      ? ` of {${Object.keys((p.items as Json).properties as Json).join(', ')}}`
      : '';
    const type = `${String(p.type ?? (p.anyOf ? 'one of' : p.enum ? 'enum' : ''))}${nested}${items}`;
    const limits = ['enum', 'pattern', 'maxLength', 'minimum', 'maximum', 'format', 'default']
      .filter((k) => p[k] !== undefined)
      .map((k) => `${k}: ${JSON.stringify(p[k])}`)
      .join('; ');
    return `<tr><td><code>${escapeHtml(name)}</code></td><td>${escapeHtml(String(type))}</td><td>${required.has(name) ? 'yes' : ''}</td><td>${escapeHtml(String(p.description ?? ''))}${limits ? ` <small>(${escapeHtml(limits)})</small>` : ''}</td></tr>`;
  });
  return `<table><tr><th>field</th><th>type</th><th>required</th><th>notes</th></tr>${rows.join('')}</table>`;
}

export function renderReference(doc: Json): string {
  const info = doc.info as Json;
  const paths = doc.paths as Record<string, Record<string, Json>>;
  const sections: string[] = [];
  const nav: string[] = [];
  for (const [path, ops] of Object.entries(paths)) {
    for (const [method, op] of Object.entries(ops)) {
      const id = `${method}-${path}`.replace(/[^a-z0-9]+/gi, '-');
      nav.push(`<a href="#${escapeHtml(id)}">${escapeHtml(method.toUpperCase())} ${escapeHtml(path)}</a>`);
      const params = (op.parameters as Json[] | undefined) ?? [];
      const paramRows = params
        .map(
          (p) =>
            `<tr><td><code>${escapeHtml(p.name)}</code></td><td>${escapeHtml(p.in)}</td><td>${p.required ? 'yes' : ''}</td><td>${escapeHtml(JSON.stringify(p.schema ?? {}))} ${escapeHtml(String((p.schema as Json | undefined)?.description ?? p.description ?? ''))}</td></tr>`,
        )
        .join('');
      const body = ((op.requestBody as Json | undefined)?.content as Record<string, Json> | undefined)?.[
        'application/json'
      ]?.schema as Json | undefined;
      const responses = Object.entries((op.responses as Record<string, Json>) ?? {})
        .map(([status, r]) => {
          const content = r.content as Record<string, Json> | undefined;
          const [type, media] = content ? (Object.entries(content)[0] ?? []) : [];
          return `<h4>${escapeHtml(status)} ${escapeHtml(String(r.description ?? ''))} ${type ? `<small>${escapeHtml(type)}</small>` : ''}</h4>${media ? schemaTable(media.schema as Json) : ''}`;
        })
        .join('');
      sections.push(`<h2 id="${escapeHtml(id)}"><span class="m ${escapeHtml(method.toUpperCase())}">${escapeHtml(method.toUpperCase())}</span> <code>${escapeHtml(path)}</code></h2>
<p><b>${escapeHtml(String(op.summary ?? ''))}</b></p><p>${escapeHtml(String(op.description ?? ''))}</p>
${paramRows ? `<h3>Parameters</h3><table><tr><th>name</th><th>in</th><th>required</th><th>schema</th></tr>${paramRows}</table>` : ''}
${body ? `<h3>Request body (application/json)</h3>${schemaTable(body)}` : ''}
<h3>Responses</h3>${responses}`);
    }
  }
  return page(
    `${String(info.title)} — API reference`,
    `<h1>${escapeHtml(String(info.title))}</h1><p>Version ${escapeHtml(String(info.version))}. ${escapeHtml(String(info.description ?? ''))}</p>
<p>Machine-readable: <a href="/openapi.json">/openapi.json</a> (OpenAPI 3.1).</p><nav>${nav.join(' ')}</nav>${sections.join('\n')}`,
  );
}

export async function docsRoutes(app: App, _deps: Deps): Promise<void> {
  let html: string | undefined;
  app.get('/openapi.json', { schema: { hide: true } }, async (_request, reply) => {
    reply.header('cache-control', 'public, max-age=300').header('access-control-allow-origin', '*');
    return app.swagger();
  });
  app.get('/docs', { schema: { hide: true } }, async (_request, reply) => {
    html ??= renderReference(app.swagger() as unknown as Json);
    return reply.header('cache-control', 'public, max-age=300').type('text/html; charset=utf-8').send(html);
  });
}
