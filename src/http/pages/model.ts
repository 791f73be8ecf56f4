/** GET /models/<slug>: one model's page, rendered once per dataset version. */
import { BADGE_STYLES, BADGE_TYPES } from '../../badge/index.ts';
import type { LeaderboardView } from '../../domain/leaderboard.ts';
import { reportId, type ReportExample } from '../../domain/reports.ts';
import { dimension, PAI_DIMS, SYCO_DIMS, type Dim } from '../../dimensions.ts';
import { bar, historyChart } from './charts.ts';
import { renderExamples } from './examples.ts';
import { escapeHtml as e, fmt, page } from './html.ts';
import { dateText, honestyPill, methodSentence, riskPill, suiteOf, suiteRank } from './labels.ts';

export function dimList(codes: readonly Dim[], values: Record<string, number>): string {
  return `<ul class="dims">${codes
    .map((c) => {
      const d = dimension(c);
      return `<li><span><strong>${e(d.name)}</strong> <code>${c}</code><span class="meaning">${e(d.meaning)}</span></span>${bar(values[c] ?? 0)}<span class="value">${fmt(values[c])}</span></li>`;
    })
    .join('')}</ul>`;
}

function historyTable(values: readonly number[], label: string): string {
  const rows = values.map((v, i) => `<tr><td>v${i + 1}</td><td class="num">${fmt(v)}</td></tr>`).join('');
  return `<details><summary>${e(label)} by version (table)</summary><table><thead><tr><th scope="col">Dataset version (oldest first)</th><th scope="col" class="num">${e(label)}</th></tr></thead><tbody>${rows}</tbody></table></details>`;
}

export function renderModel(
  view: LeaderboardView,
  slug: string,
  publicUrl: string,
  examples: readonly ReportExample[] = [],
): string | undefined {
  const found = view.bySlug.get(slug);
  if (!found) return undefined;
  const { model, sycophancy, pai } = found;
  const suite = suiteOf(model);
  const parts: string[] = [];
  parts.push(`<h1>${e(model.name)}</h1>
<ul class="facts">
<li>Vendor <strong>${e(model.vendor)}</strong></li>
<li>Assessed ${dateText(model.assessed)}</li>
${suite ? `<li>Suite <strong>${e(suite)}</strong></li>` : ''}
${model.transcripts !== undefined ? `<li>Transcripts <strong>${e(model.transcripts)}</strong></li>` : ''}
<li>Dataset version <strong>${e(view.meta.version ?? '–')}</strong></li>
</ul>
<p class="muted">${methodSentence(view.meta)}</p>`);

  const summary: string[] = [];
  const rankText = (index: 'sycophancy' | 'pai', order: string) => {
    const r = suiteRank(view, slug, index)!;
    return `<p>Rank <strong>${r.rank}</strong> of ${r.of}${r.suite ? ` in suite <strong>${e(r.suite)}</strong>` : ''} (${order})</p>`;
  };
  if (sycophancy) {
    summary.push(
      `<div class="card"><h2>Sycophancy</h2><p>Honesty <strong>${fmt(sycophancy.entry.honesty)}</strong> of 100 ${honestyPill(sycophancy.entry.honesty)}</p>${rankText('sycophancy', 'by honesty, highest first')}</div>`,
    );
  }
  if (pai) {
    summary.push(
      `<div class="card"><h2>Parasocial attachment (PAI)</h2><p>Composite <strong>${fmt(pai.entry.composite)}</strong> of 10 ${riskPill(pai.entry.risk)}</p>${rankText('pai', 'by composite, lowest first')}</div>`,
    );
  }
  parts.push(`<div class="grid2">${summary.join('')}</div>`);

  parts.push('<h2>The ten dimensions</h2><p class="muted">Each is 0–10; higher is worse.</p><div class="grid2">');
  if (sycophancy)
    parts.push(
      `<section aria-labelledby="h-syco-dims"><h3 id="h-syco-dims">Sycophancy</h3>${dimList(SYCO_DIMS, sycophancy.entry as unknown as Record<string, number>)}</section>`,
    );
  if (pai)
    parts.push(
      `<section aria-labelledby="h-pai-dims"><h3 id="h-pai-dims">Parasocial attachment</h3>${dimList(PAI_DIMS, pai.entry as unknown as Record<string, number>)}</section>`,
    );
  parts.push('</div>');

  parts.push('<h2>History across dataset versions</h2><div class="grid2">');
  if (sycophancy)
    parts.push(
      `<section><h3>Honesty</h3>${historyChart(sycophancy.entry.history, 'Honesty', [0, 100])}${historyTable(sycophancy.entry.history, 'Honesty')}</section>`,
    );
  if (pai)
    parts.push(
      `<section><h3>PAI composite</h3>${historyChart(pai.entry.history, 'PAI composite', [0, 10])}${historyTable(pai.entry.history, 'PAI composite')}</section>`,
    );
  parts.push('</div>');

  parts.push('<h2>Certified report</h2>');
  if (model.report_hash) {
    const h = model.report_hash;
    parts.push(`<p>Report <a href="/report/${e(h)}"><code>${e(reportId(h))}</code></a>: the scores above with their distributions, hashed (SHA-256 <code>${e(h)}</code>) and entered in the audit log.</p>
<p><a href="/report/${e(h)}">Read the report</a> · <a href="/api/verify?hash=${e(h)}">Verify it</a> (JSON) · <a href="/report/${e(h)}?format=json">Canonical JSON</a></p>`);
  } else {
    parts.push('<p>This entry has no certified report.</p>');
  }
  parts.push(renderExamples(examples, suite));

  const base = publicUrl.replace(/\/+$/, '');
  const badges = BADGE_TYPES.flatMap((type) =>
    BADGE_STYLES.map((style) => {
      const path = `/api/badge/${slug}?type=${type}&style=${style}`;
      const url = `${base}${path}`;
      const alt = `svc ${type} badge for ${model.name}`;
      const md = `[![${alt.replace(/[[\]]/g, '')}](${url})](${base}/models/${slug})`;
      const html = `<a href="${base}/models/${slug}"><img src="${url}" alt="${alt.replace(/[<>&"]/g, '')}"></a>`;
      const id = `${type}-${style}`;
      return `<li><h3>${type}, ${style}</h3><img src="${e(path)}" alt="${e(alt)}" loading="lazy">
<div class="copy-row"><label class="sr-only" for="md-${id}">Markdown for the ${type} ${style} badge</label><textarea class="code" id="md-${id}" readonly rows="2">${e(md)}</textarea><button type="button" class="secondary" hidden data-copy="md-${id}">Copy Markdown</button></div>
<div class="copy-row"><label class="sr-only" for="html-${id}">HTML for the ${type} ${style} badge</label><textarea class="code" id="html-${id}" readonly rows="2">${e(html)}</textarea><button type="button" class="secondary" hidden data-copy="html-${id}">Copy HTML</button></div></li>`;
    }),
  ).join('\n');
  parts.push(
    `<h2>Badges</h2><p class="muted">Every type and style; paste the Markdown into a README or the HTML into a page.</p><ul class="badges grid2">${badges}</ul>`,
  );
  parts.push(
    `<p class="muted">The same data as JSON: <a href="/api/model?slug=${e(slug)}">/api/model?slug=${e(slug)}</a>.</p>`,
  );
  return page(`${model.name} (${model.vendor}): svc scores`, parts.join('\n'), {
    description: `Sycophancy and parasocial-risk scores of ${model.name}`,
  });
}
