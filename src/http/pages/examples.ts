/**
 * "Replies with the most evidence": the examples an evaluation stored in its certified report (src/jobs/publish.ts),
 * shown on the model page and the report page with the engine's quotes highlighted. Every text is escaped; each
 * highlighted quote carries its dimension code as text (and the long names in the list under the reply), so the
 * highlight colour is never the only signal. A report without examples (ingested data) shows nothing.
 */
import { ALL_DIMS, dimension, type Dim } from '../../dimensions.ts';
import type { ReportExample } from '../../domain/reports.ts';
import { escapeHtml as e } from './html.ts';
import { highlight, mergeSpans } from './try.ts';

const DIMS = new Set<string>(ALL_DIMS);
const MAX = { examples: 5, text: 5000, spans: 20 };
const isInt = (v: unknown): v is number => Number.isInteger(v);

/** The examples of a stored report's JSON, checked field by field (anything malformed is left out). */
export function reportExamplesOf(json: string): ReportExample[] {
  let raw: unknown;
  try {
    raw = (JSON.parse(json) as { examples?: unknown }).examples;
  } catch {
    return [];
  }
  if (!Array.isArray(raw)) return [];
  const out: ReportExample[] = [];
  for (const x of raw.slice(0, MAX.examples) as Record<string, unknown>[]) {
    if (!x || typeof x !== 'object') continue;
    const { probe, turn, prompt, reply, evidence } = x;
    if (typeof probe !== 'string' || !isInt(turn) || typeof prompt !== 'string' || typeof reply !== 'string') continue;
    if (reply.length > MAX.text || prompt.length > MAX.text || !Array.isArray(evidence)) continue;
    const spans = (evidence as Record<string, unknown>[])
      .slice(0, MAX.spans)
      .filter(
        (s) =>
          s &&
          typeof s.dim === 'string' &&
          DIMS.has(s.dim) &&
          isInt(s.start) &&
          isInt(s.end) &&
          s.start >= 0 &&
          s.end > s.start &&
          s.end <= reply.length,
      )
      .map((s) => ({
        dim: s.dim as Dim,
        signal: typeof s.signal === 'string' ? s.signal : '',
        start: s.start as number,
        end: s.end as number,
      }));
    out.push({ probe, turn, prompt, reply, ...(x.truncated === true && { truncated: true }), evidence: spans });
  }
  return out;
}

/** The section, or '' when there are no examples (no placeholder). `level` is the heading level of its title. */
export function renderExamples(examples: readonly ReportExample[], suite: string | undefined, level = 2): string {
  if (examples.length === 0) return '';
  const h = `h${level}`;
  const h2 = `h${level + 1}`;
  const items = examples
    .map((x, i) => {
      const byDim: Record<string, { start: number; end: number; sign: number }[]> = {};
      for (const s of x.evidence) (byDim[s.dim] ??= []).push({ start: s.start, end: s.end, sign: 1 });
      const spans = mergeSpans(byDim);
      const dims = [...new Set(x.evidence.map((s) => s.dim))];
      const list = spans
        .map(
          (s) =>
            `<li>“${e(x.reply.slice(s.start, s.end))}”: ${e(s.dims.map((d) => dimension(d as Dim).name).join(', '))}</li>`,
        )
        .join('');
      return `<li><article class="card example" aria-labelledby="ex-${i}">
<${h2} id="ex-${i}">Conversation <code>${e(x.probe)}</code>, turn ${e(x.turn)}</${h2}>
<p class="muted">Evidence for: ${e(dims.map((d) => `${dimension(d).name} (${d})`).join(', ') || '–')}</p>
<p class="label">The user wrote</p><blockquote>${e(x.prompt)}</blockquote>
<p class="label">The model replied</p><div class="highlighted">${highlight(x.reply, spans)}${x.truncated ? ' <span class="muted">[cut]</span>' : ''}</div>
${list ? `<p class="label">Highlighted quotes</p><ul>${list}</ul>` : ''}
</article></li>`;
    })
    .join('\n');
  return `<section aria-labelledby="examples-h"><${h} id="examples-h">Replies with the most evidence</${h}>
<p class="muted">From the evaluation${suite ? ` on suite <strong>${e(suite)}</strong>` : ''}: the ${examples.length} ${examples.length === 1 ? 'reply' : 'replies'} in which the engine found the most evidence. Marked text is what it scored, with the dimension's code after it; the list under each reply gives the long names. Long replies are cut.</p>
<ol class="examples">
${items}
</ol></section>`;
}
