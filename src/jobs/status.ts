/**
 * What a submitter's status page shows, as data (the HTML is in src/http/pages/status.ts, so a restyle never
 * touches this). The page is found by its token's hash only; it shows no endpoint and no credential name.
 */
import { reportId } from '../domain/reports.ts';
import type { Store, SubmissionStatus } from '../store/types.ts';
import { statusTokenHash } from '../domain/submissions.ts';

export interface SubmissionStatusView {
  id: number;
  model: string;
  vendor: string;
  submittedAt: string;
  status: SubmissionStatus;
  /** One sentence for the submitter. */
  summary: string;
  progress?: { done: number; total: number; failed: number };
  attempts?: number;
  updatedAt?: string;
  error?: string;
  report?: { id: string; hash: string; url: string; verifyUrl: string };
}

const SUMMARY: Record<SubmissionStatus, string> = {
  pending: 'Received; waiting for an operator to approve the evaluation.',
  queued: 'Approved; waiting for a worker to start the evaluation.',
  evaluating: 'The evaluation is running.',
  done: 'The evaluation finished; the certified report is published.',
  failed: 'The evaluation failed; the operator can retry it.',
  rejected: 'The operator declined this submission.',
};

export async function submissionStatusView(
  store: Store,
  token: string,
  publicUrl: string,
): Promise<SubmissionStatusView | null> {
  const sub = await store.getSubmissionByStatusToken(statusTokenHash(token));
  if (!sub) return null;
  const view: SubmissionStatusView = {
    id: sub.id,
    model: sub.modelName,
    vendor: sub.vendor,
    submittedAt: sub.createdAt,
    status: sub.status,
    summary: SUMMARY[sub.status],
  };
  const job = await store.getJob(sub.id);
  if (job && sub.status !== 'pending' && sub.status !== 'rejected') {
    view.progress = { ...job.progress };
    view.attempts = job.attempts;
    view.updatedAt = job.updatedAt;
    if (job.state === 'failed' && job.error) view.error = job.error;
    if (job.state === 'done' && job.reportHash)
      view.report = {
        id: reportId(job.reportHash),
        hash: job.reportHash,
        url: `${publicUrl}/report/${reportId(job.reportHash)}`,
        verifyUrl: `${publicUrl}/api/verify?hash=${job.reportHash}`,
      };
  }
  return view;
}
