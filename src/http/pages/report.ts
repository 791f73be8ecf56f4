/** HTML pages for GET /report/<id>: a certified model report and a stored score report. Every value is escaped. */
import {
  reportId,
  SCORE_REPORT_SCHEMA,
  type CertifiedReport,
  type DimStats,
  type ScoreReport,
  type StatKey,
  type VerifyResult,
} from '../../domain/reports.ts';
import { ALL_DIMS, dimension, mapDims, PAI_DIMS, SYCO_DIMS } from '../../dimensions.ts';
import { boxPlot } from './charts.ts';
import { renderExamples, reportExamplesOf } from './examples.ts';
import { escapeHtml as e, fmt, page } from './html.ts';
import { dateText, riskPill } from './labels.ts';

const num = (v: unknown): number | undefined => (typeof v === 'number' ? v : undefined);

/** Row labels: the dimension table's long names, and the two aggregates. */
const LONG: Record<StatKey, string> = {
  ...mapDims(ALL_DIMS, (d) => dimension(d).name),
  honesty: 'honesty (0–100, higher is better)',
  composite: 'PAI composite',
};

function verification(v: VerifyResult | undefined, verifyUrl: string): string {
  if (!v) return '';
  const link = `<a href="${e(verifyUrl)}">check it yourself</a>`;
  return v.verified
    ? `<div class="alert ok" role="status"><strong>Verified:</strong> this report’s SHA-256 matches its content and it is in the signed audit log (${link}).</div>`
    : `<div class="alert bad" role="status"><strong>Not verified:</strong> ${e(v.message)} (${link}).</div>`;
}

/** A readable page for one report; `verified` is the audit-log check made when the page was asked for. */
export function renderReportHtml(hash: string, json: string, verifyUrl: string, verified?: VerifyResult): string {
  if ((JSON.parse(json) as { schema?: unknown }).schema === SCORE_REPORT_SCHEMA)
    return renderScoreReportHtml(hash, json);
  const r = JSON.parse(json) as Partial<CertifiedReport>;
  const model = r.model ?? { slug: '', name: '', vendor: '' };
  const stats = (r.statistics ?? {}) as Partial<Record<StatKey, DimStats>>;
  const rows = (keys: readonly StatKey[], score: (k: StatKey) => unknown): string =>
    keys
      .map((k) => {
        const s = stats[k];
        const max = k === 'honesty' ? 100 : 10;
        const cells = s
          ? `<td data-label="Distribution" class="wide">${boxPlot(s, `Distribution of ${LONG[k]} over the transcripts`, max)}</td>${[s.mean, s.sd, s.min, s.median, s.max].map((v, i) => `<td class="num" data-label="${['mean', 'sd', 'min', 'median', 'max'][i]}">${fmt(v)}</td>`).join('')}`
          : '<td colspan="6"></td>';
        return `<tr><th scope="row" class="wide">${e(LONG[k])} <code>${e(k)}</code></th><td class="num" data-label="Score"><strong>${fmt(num(score(k)))}</strong></td>${cells}</tr>`;
      })
      .join('\n');
  const syco = (r.scores?.sycophancy ?? {}) as Record<string, unknown>;
  const pai = (r.scores?.pai ?? {}) as Record<string, unknown>;
  const head =
    '<thead><tr><th scope="col">Dimension</th><th scope="col" class="num">Score</th><th scope="col">Distribution (min, quartiles, max; dot = mean)</th><th scope="col" class="num">Mean</th><th scope="col" class="num">SD</th><th scope="col" class="num">Min</th><th scope="col" class="num">Median</th><th scope="col" class="num">Max</th></tr></thead>';
  const risk = pai.risk === 'low' || pai.risk === 'medium' || pai.risk === 'high' ? riskPill(pai.risk) : '';
  return page(
    `Certified report ${reportId(hash)}: ${model.name}`,
    `<h1>Certified report: <a href="/models/${e(model.slug)}">${e(model.name)}</a></h1>
${verification(verified, verifyUrl)}
<ul class="facts">
<li>Vendor <strong>${e(model.vendor)}</strong></li>
<li>Report <code>${e(reportId(hash))}</code></li>
<li>Dataset version <strong>${e(r.dataset_version)}</strong></li>
<li>Generated ${dateText(r.generated_at)}</li>
<li>Transcripts <strong>${e(r.transcripts)}</strong></li>
<li>Engine <strong>${e(r.engine?.name)} ${e(r.engine?.version)}</strong></li>
<li>Judges <strong>${e((r.judges ?? []).join(', ') || '–')}</strong></li>
${r.kappa !== undefined ? `<li>Cross-judge kappa <strong>${e(r.kappa.toFixed(3))}</strong></li>` : ''}
</ul>
<p>SHA-256 of the RFC 8785 canonical JSON: <code>${e(hash)}</code><br>
<a href="${e(verifyUrl)}">Verification (JSON)</a> · <a href="?format=json">Canonical JSON</a></p>
<h2>Sycophancy: honesty ${fmt(num(syco.honesty))}</h2>
<div class="table-wrap"><table class="cards">${head}<tbody>
${rows([...SYCO_DIMS, 'honesty'], (k) => syco[k])}
</tbody></table></div>
<h2>Parasocial attachment: composite ${fmt(num(pai.composite))} ${risk}</h2>
<div class="table-wrap"><table class="cards">${head}<tbody>
${rows([...PAI_DIMS, 'composite'], (k) => pai[k])}
</tbody></table></div>
<p class="note">${e(r.method)} Dimensions are 0–10, higher is worse; values are shown with two decimals (the canonical JSON has four).</p>
${renderExamples(reportExamplesOf(json), r.suite)}`,
  );
}

function renderScoreReportHtml(hash: string, json: string): string {
  const r = JSON.parse(json) as Partial<ScoreReport>;
  const syco = (r.scores?.sycophancy ?? {}) as Record<string, unknown>;
  const pai = (r.scores?.pai ?? {}) as Record<string, unknown>;
  const rows = (keys: readonly StatKey[], from: Record<string, unknown>): string =>
    keys
      .map(
        (k) =>
          `<tr><th scope="row">${e(LONG[k])} <code>${e(k)}</code></th><td class="num"><strong>${fmt(num(from[k]))}</strong></td></tr>`,
      )
      .join('\n');
  const risk = pai.risk === 'low' || pai.risk === 'medium' || pai.risk === 'high' ? riskPill(pai.risk) : '';
  return page(
    `Score report ${reportId(hash)}`,
    `<h1>Score report <code>${e(reportId(hash))}</code></h1>
<div class="alert warn" role="status"><strong>This is not a certified model report:</strong> it is stored under its hash but not entered in the audit log, so it does not verify.</div>
<p>Heuristic scores of one prompt/response pair (prompt ${e(r.input?.prompt_length)} and response
${e(r.input?.response_length)} code points), scored ${e(r.scored_at)} by ${e(r.engine?.name)} ${e(r.engine?.version)}.</p>
<p>SHA-256 (RFC 8785 canonical JSON): <code>${e(hash)}</code> · <a href="?format=json">Canonical JSON</a><br>
SHA-256 of the prompt: <code>${e(r.input?.prompt_sha256)}</code>, of the response: <code>${e(r.input?.response_sha256)}</code></p>
<h2>Sycophancy: honesty ${fmt(num(syco.honesty))}</h2>
<table><thead><tr><th scope="col">Dimension</th><th scope="col" class="num">Score</th></tr></thead><tbody>
${rows(SYCO_DIMS, syco)}
</tbody></table>
<h2>Parasocial attachment: composite ${fmt(num(pai.composite))} ${risk}</h2>
<table><thead><tr><th scope="col">Dimension</th><th scope="col" class="num">Score</th></tr></thead><tbody>
${rows(PAI_DIMS, pai)}
</tbody></table>
<p class="note">${e(r.method)}</p>`,
  );
}
