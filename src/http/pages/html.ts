/** The page frame for every HTML page; values go in through escapeHtml. */
import { escapeHtml } from '../../text.ts';

export { escapeHtml };

/** A complete page with the service's small stylesheet; `body` must already be escaped HTML. */
export function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>
body{font:15px/1.5 system-ui,-apple-system,Segoe UI,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#1d1d1f}
code,pre{font:13px/1.4 ui-monospace,SFMono-Regular,Menlo,monospace;background:#f4f4f6;border-radius:4px}
pre{padding:.75rem;overflow:auto}code{padding:0 .2rem}
table{border-collapse:collapse;margin:.5rem 0}td,th{border:1px solid #ddd;padding:.25rem .5rem;text-align:left;vertical-align:top}
.note{color:#555}
h2{border-top:1px solid #e5e5e5;padding-top:1rem;margin-top:2rem}.m{font-weight:700;color:#0a5}.m.POST{color:#a50}
nav a{margin-right:1rem}
</style></head><body>
${body}
</body></html>
`;
}
