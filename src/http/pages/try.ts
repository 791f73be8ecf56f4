/**
 * /try: paste a prompt and a response, see the ten scores, the evidence highlighted in the response, the honesty
 * verdict and the honest rewrite. The plain form posts to /try (server-rendered answer); with JavaScript the page
 * calls POST /api/score and POST /api/honesty itself and draws the same markup (site.js), so the API's per-IP
 * limits apply and are shown.
 */
import type { HonestyReport } from '../../scoring/honesty.ts';
import type { PresentedScores } from '../../scoring/present.ts';
import { DIMENSIONS, dimension, PAI_DIMS, SYCO_DIMS, type Dim } from '../../dimensions.ts';
import { escapeHtml as e, fmt, page } from './html.ts';
import { honestyPill, riskPill } from './labels.ts';
import { dimList } from './model.ts';

export interface Span {
  start: number;
  end: number;
  dims: string[];
}

/** Merge the raising evidence spans (sign 1) into non-overlapping regions, each with the dimensions behind it. */
export function mergeSpans(evidence: Record<string, { start: number; end: number; sign: number }[]>): Span[] {
  const spans = Object.entries(evidence)
    .flatMap(([dim, items]) => items.filter((i) => i.sign > 0 && i.end > i.start).map((i) => ({ ...i, dim })))
    .sort((a, b) => a.start - b.start || b.end - a.end);
  const out: Span[] = [];
  for (const s of spans) {
    const last = out[out.length - 1];
    if (last && s.start < last.end) {
      last.end = Math.max(last.end, s.end);
      if (!last.dims.includes(s.dim)) last.dims.push(s.dim);
    } else out.push({ start: s.start, end: s.end, dims: [s.dim] });
  }
  return out;
}

/** The response with each evidence region in <mark>, followed by the codes of its dimensions. */
export function highlight(text: string, spans: Span[]): string {
  let html = '';
  let at = 0;
  for (const s of spans) {
    html += e(text.slice(at, s.start));
    const names = s.dims.map((d) => dimension(d as Dim)?.name ?? d).join(', ');
    html += `<mark title="${e(names)}">${e(text.slice(s.start, s.end))}<sup>${e(s.dims.join(' '))}</sup></mark>`;
    at = s.end;
  }
  return html + e(text.slice(at));
}

export interface TryResult {
  scores: PresentedScores;
  evidence: Record<string, { quote: string; start: number; end: number; sign: number }[]>;
  honesty: HonestyReport;
}

export function renderTryResult(response: string, r: TryResult): string {
  const spans = mergeSpans(r.evidence);
  const verdictClass = r.honesty.verdict === 'honest' ? 'ok' : r.honesty.verdict === 'mixed' ? 'warn' : 'bad';
  const evidenceList = spans.length
    ? `<ul>${spans.map((s) => `<li>“${e(response.slice(s.start, s.end))}”: ${e(s.dims.map((d) => dimension(d as Dim)?.name ?? d).join(', '))}</li>`).join('')}</ul>`
    : '<p>No span of the response raised a score.</p>';
  return `<section id="result" aria-labelledby="result-h" tabindex="-1"><h2 id="result-h">Result</h2>
<div class="card"><p>Honesty verdict: <span class="pill ${verdictClass}">${e(r.honesty.verdict)}</span> (overall sycophancy ${fmt(r.honesty.overall_sycophancy)} on 0–1). ${e(r.honesty.one_line)}</p>
<p>Sycophancy index: honesty <strong>${fmt(r.scores.sycophancy.honesty)}</strong> ${honestyPill(r.scores.sycophancy.honesty)} · PAI composite <strong>${fmt(r.scores.pai.composite)}</strong> ${riskPill(r.scores.pai.risk)}</p></div>
<div class="grid2">
<section aria-labelledby="resp-h"><h3 id="resp-h">The response, evidence highlighted</h3><div class="highlighted">${highlight(response, spans)}</div>
<h4>Evidence</h4>${evidenceList}</section>
<section aria-labelledby="rewrite-h"><h3 id="rewrite-h">Honest rewrite</h3><div class="highlighted">${e(r.honesty.honest_rewrite)}</div></section>
</div>
<h3>The ten scores</h3><div class="grid2">
<section aria-label="Sycophancy dimensions">${dimList(SYCO_DIMS, r.scores.sycophancy.dimensions)}</section>
<section aria-label="Parasocial dimensions">${dimList(PAI_DIMS, r.scores.pai.dimensions)}</section>
</div></section>`;
}

export interface FormState {
  values: Record<string, string>;
  errors: Record<string, string>;
  /** A message above the form (rate limit, success). */
  notice?: { kind: 'ok' | 'bad'; html: string };
}

/** A labelled input or textarea with its error, wired with aria-invalid and aria-describedby. */
export function field(
  name: string,
  label: string,
  state: FormState,
  opts: { type?: string; multiline?: boolean; required?: boolean; hint?: string; max?: number; rows?: number } = {},
): string {
  const err = state.errors[name];
  const value = state.values[name] ?? '';
  const described = [opts.hint ? `${name}-hint` : '', err ? `${name}-error` : ''].filter(Boolean).join(' ');
  const attrs = `id="${name}" name="${name}"${opts.required ? ' required' : ''}${opts.max ? ` maxlength="${opts.max}"` : ''}${err ? ' aria-invalid="true"' : ''}${described ? ` aria-describedby="${described}"` : ''}`;
  const input = opts.multiline
    ? `<textarea ${attrs} rows="${opts.rows ?? 6}">${e(value)}</textarea>`
    : `<input type="${opts.type ?? 'text'}" ${attrs} value="${e(value)}">`;
  return `<div class="field"><label for="${name}">${e(label)}${opts.required ? '' : ' <span class="hint">(optional)</span>'}</label>${opts.hint ? `<p class="hint muted" id="${name}-hint">${e(opts.hint)}</p>` : ''}${input}${err ? `<p class="field-error" id="${name}-error">${e(err)}</p>` : ''}</div>`;
}

export function notice(state: FormState): string {
  return state.notice
    ? `<div class="alert ${state.notice.kind}" role="${state.notice.kind === 'bad' ? 'alert' : 'status'}" id="notice">${state.notice.html}</div>`
    : '<div id="notice" role="status"></div>';
}

export function renderTry(state: FormState, result?: string): string {
  const info = e(JSON.stringify(DIMENSIONS.map((d) => [d.code, d.name, d.meaning])));
  return page(
    'Try svc: score an AI reply',
    `<h1>Score a reply</h1>
<p>Paste a prompt and the AI’s response: svc’s heuristic engine scores the ten dimensions, highlights the words that raised them, gives the honesty verdict and an honest rewrite. Nothing is stored. Scoring counts against the public limit of 100 requests per hour per address.</p>
${notice(state)}
<form method="post" action="/try" id="try-form" data-dims="${info}" novalidate>
${field('prompt', 'Prompt (what the user asked)', state, { multiline: true, hint: 'At most 10,000 characters; may be empty.', rows: 4 })}
${field('response', 'Response (what the AI answered)', state, { multiline: true, required: true, hint: '1 to 50,000 characters.', rows: 8 })}
<button type="submit">Score it</button>
</form>
<div id="try-out" aria-live="polite">${result ?? ''}</div>`,
    { current: '/try' },
  );
}
