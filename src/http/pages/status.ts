/** The HTML of a submission's status page (data: src/jobs/status.ts). Every value is escaped. */
import type { SubmissionStatusView } from '../../jobs/status.ts';
import { escapeHtml as e, page } from './html.ts';

export function renderStatusHtml(v: SubmissionStatusView): string {
  const rows: [string, string][] = [
    ['Submission', String(v.id)],
    ['Model', `${v.model} (${v.vendor})`],
    ['Submitted', v.submittedAt],
    ['Status', v.status],
  ];
  if (v.progress) {
    const p = v.progress;
    rows.push(['Progress', `${p.done} of ${p.total || '?'} conversations${p.failed ? `, ${p.failed} failed` : ''}`]);
  }
  if (v.attempts !== undefined && v.attempts > 1) rows.push(['Attempts', String(v.attempts)]);
  if (v.updatedAt) rows.push(['Last change', v.updatedAt]);
  if (v.error) rows.push(['Reason', v.error]);
  const pct = v.progress?.total ? Math.floor((v.progress.done / v.progress.total) * 100) : 0;
  return page(
    `Submission ${v.id}: ${v.status}`,
    `<h1>Evaluation of ${e(v.model)}</h1>
<p>${e(v.summary)}</p>
${v.progress?.total ? `<p><progress max="100" value="${e(pct)}">${e(pct)}%</progress> ${e(pct)}%</p>` : ''}
<table>${rows.map(([k, val]) => `<tr><th scope="row">${e(k)}</th><td>${e(val)}</td></tr>`).join('')}</table>
${
  v.report
    ? `<p>Certified report <a href="${e(v.report.url)}"><code>${e(v.report.id)}</code></a> · <a href="${e(v.report.verifyUrl)}">verify it</a></p>`
    : ''
}
<p class="note">This page's address is private to you: anyone with it can read this status. It refreshes when you reload it.</p>`,
  );
}
