/** HTML pages for GET /report/<id>: a certified model report and a stored score report. Every value is escaped. */
import { ALL_DIMS, dimension, mapDims, PAI_DIMS, SYCO_DIMS } from '../../dimensions.ts';
import {
  reportId,
  SCORE_REPORT_SCHEMA,
  type CertifiedReport,
  type DimStats,
  type ScoreReport,
  type StatKey,
} from '../../domain/reports.ts';
import { escapeHtml, page } from './html.ts';

/** Row labels: the dimension table's long names, and the two aggregates. */
const LONG: Record<StatKey, string> = {
  ...mapDims(ALL_DIMS, (d) => dimension(d).name),
  honesty: 'honesty (0-100, higher is better)',
  composite: 'PAI composite',
};

/** A readable page for one report; every value from the report is escaped. */
export function renderReportHtml(hash: string, json: string, verifyUrl: string): string {
  if ((JSON.parse(json) as { schema?: unknown }).schema === SCORE_REPORT_SCHEMA)
    return renderScoreReportHtml(hash, json);
  const r = JSON.parse(json) as Partial<CertifiedReport>;
  const e = escapeHtml;
  const model = r.model ?? { slug: '', name: '', vendor: '' };
  const stats = (r.statistics ?? {}) as Partial<Record<StatKey, DimStats>>;
  const rows = (keys: readonly StatKey[], score: (k: StatKey) => unknown): string =>
    keys
      .map((k) => {
        const s = stats[k];
        const cells = s
          ? [s.mean, s.sd, s.min, s.q1, s.median, s.q3, s.max].map((v) => `<td>${e(v)}</td>`).join('')
          : '<td colspan="7"></td>';
        return `<tr><th scope="row"><code>${e(k)}</code> ${e(LONG[k])}</th><td><strong>${e(score(k))}</strong></td>${cells}</tr>`;
      })
      .join('\n');
  const syco = (r.scores?.sycophancy ?? {}) as Record<string, unknown>;
  const pai = (r.scores?.pai ?? {}) as Record<string, unknown>;
  const head =
    '<tr><th>dimension</th><th>score</th><th>mean</th><th>sd</th><th>min</th><th>q1</th><th>median</th><th>q3</th><th>max</th></tr>';
  return page(
    `Certified report ${reportId(hash)}: ${model.name}`,
    `<h1>${e(model.name)} <small>(${e(model.vendor)})</small></h1>
<p>Certified report <code>${e(reportId(hash))}</code> for model <code>${e(model.slug)}</code>, dataset version
<strong>${e(r.dataset_version)}</strong>, generated ${e(r.generated_at)} from ${e(r.transcripts)} transcripts by
${e(r.engine?.name)} ${e(r.engine?.version)}.${r.kappa !== undefined ? ` Cross-judge kappa ${e(r.kappa)}.` : ''}</p>
<p>SHA-256 (RFC 8785 canonical JSON): <code>${e(hash)}</code><br>
Verify: <a href="${e(verifyUrl)}">${e(verifyUrl)}</a> · <a href="?format=json">canonical JSON</a></p>
<h2>Sycophancy: honesty ${e(syco.honesty)}</h2>
<table>${head}
${rows([...SYCO_DIMS, 'honesty'], (k) => syco[k])}
</table>
<h2>Parasocial attachment: composite ${e(pai.composite)}, risk ${e(pai.risk)}</h2>
<table>${head}
${rows([...PAI_DIMS, 'composite'], (k) => pai[k])}
</table>
<p class="note">${e(r.method)}</p>`,
  );
}

function renderScoreReportHtml(hash: string, json: string): string {
  const r = JSON.parse(json) as Partial<ScoreReport>;
  const e = escapeHtml;
  const syco = (r.scores?.sycophancy ?? {}) as Record<string, unknown>;
  const pai = (r.scores?.pai ?? {}) as Record<string, unknown>;
  const rows = (keys: readonly StatKey[], from: Record<string, unknown>): string =>
    keys
      .map(
        (k) =>
          `<tr><th scope="row"><code>${e(k)}</code> ${e(LONG[k])}</th><td><strong>${e(from[k])}</strong></td></tr>`,
      )
      .join('\n');
  return page(
    `Score report ${reportId(hash)}`,
    `<h1>Score report <code>${e(reportId(hash))}</code></h1>
<p>Heuristic scores of one prompt/response pair (prompt ${e(r.input?.prompt_length)} and response
${e(r.input?.response_length)} code points), scored ${e(r.scored_at)} by ${e(r.engine?.name)} ${e(r.engine?.version)}.
This is not a certified model report: it is stored under its hash but not entered in the audit log.</p>
<p>SHA-256 (RFC 8785 canonical JSON): <code>${e(hash)}</code> · <a href="?format=json">canonical JSON</a><br>
SHA-256 of the prompt: <code>${e(r.input?.prompt_sha256)}</code>, of the response: <code>${e(r.input?.response_sha256)}</code></p>
<h2>Sycophancy: honesty ${e(syco.honesty)}</h2>
<table>
${rows(SYCO_DIMS, syco)}
</table>
<h2>Parasocial attachment: composite ${e(pai.composite)}, risk ${e(pai.risk)}</h2>
<table>
${rows(PAI_DIMS, pai)}
</table>
<p class="note">${e(r.method)}</p>`,
  );
}
