/**
 * The HTML of a submission's status page (data: src/jobs/status.ts), in the site's design: the state as a labelled
 * pill, the steps of an evaluation with the current one marked, progress, the details, and when it is done the
 * certified report, its verification and the model's page. Every value is escaped.
 */
import type { SubmissionStatusView } from '../../jobs/status.ts';
import { escapeHtml as e, page } from './html.ts';
import { dateText } from './labels.ts';

const STEPS: [string, string][] = [
  ['pending', 'Received'],
  ['queued', 'Approved'],
  ['evaluating', 'Evaluating'],
  ['done', 'Published'],
];
const PILL: Record<string, string> = {
  pending: 'warn',
  queued: 'warn',
  evaluating: 'warn',
  done: 'ok',
  failed: 'bad',
  rejected: 'bad',
};

export function renderStatusHtml(v: SubmissionStatusView, modelPath?: string): string {
  const rows: [string, string][] = [
    ['Submission', e(v.id)],
    ['Model', `${e(v.model)} (${e(v.vendor)})`],
    ['Submitted', dateText(v.submittedAt)],
  ];
  if (v.progress) {
    const p = v.progress;
    rows.push(['Progress', e(`${p.done} of ${p.total || '?'} conversations${p.failed ? `, ${p.failed} failed` : ''}`)]);
  }
  if (v.attempts !== undefined && v.attempts > 1) rows.push(['Attempts', e(v.attempts)]);
  if (v.updatedAt) rows.push(['Last change', dateText(v.updatedAt)]);
  if (v.error) rows.push(['Reason', e(v.error)]);
  const pct = v.progress?.total ? Math.floor((v.progress.done / v.progress.total) * 100) : 0;
  const at = STEPS.findIndex(([s]) => s === v.status);
  const steps =
    v.status === 'failed' || v.status === 'rejected'
      ? ''
      : `<ol class="steps" aria-label="Steps of the evaluation">${STEPS.map(
          ([, label], i) =>
            `<li class="${i < at ? 'past' : i === at ? 'now' : 'next'}"${i === at ? ' aria-current="step"' : ''}>${e(label)}${i < at ? '<span class="sr-only"> (done)</span>' : ''}</li>`,
        ).join('')}</ol>`;
  const report = v.report
    ? `<section class="card" aria-labelledby="report-h"><h2 id="report-h">Certified report</h2>
<p>Report <a href="${e(v.report.url)}"><code>${e(v.report.id)}</code></a> holds the scores with their distributions and the replies with the most evidence; it is hashed and entered in the audit log.</p>
<p><a href="${e(v.report.url)}">Read the report</a> · <a href="${e(v.report.verifyUrl)}">Verify it</a> (JSON)${modelPath ? ` · <a href="${e(modelPath)}">The model’s page on the leaderboard</a>` : ''}</p></section>`
    : '';
  return page(
    `Submission ${v.id}: ${v.status}`,
    `<h1>Evaluation of ${e(v.model)}</h1>
<p class="lead"><span class="pill ${PILL[v.status] ?? 'warn'}">${e(v.status)}</span> ${e(v.summary)}</p>
${steps}
${v.progress?.total ? `<p class="progress-row"><label for="progress">Progress</label> <progress id="progress" max="100" value="${e(pct)}">${e(pct)}%</progress> ${e(pct)}%</p>` : ''}
<table class="kv"><tbody>${rows.map(([k, val]) => `<tr><th scope="row">${e(k)}</th><td>${val}</td></tr>`).join('')}</tbody></table>
${report}
<p class="note">This page’s address is private to you: anyone with it can read this status. It does not refresh by itself; reload it to see progress.</p>`,
  );
}
