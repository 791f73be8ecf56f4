/**
 * The emails of a finished evaluation: to the submitter (scores, report link, verification link; or why it
 * failed) and to the admin. Subjects carry no user text (only the submission id); every value in the HTML body
 * is escaped (render in src/domain/email.ts). No credential and no credential name is ever in an email to the
 * submitter.
 */
import { render, type MailMessage } from '../domain/email.ts';
import type { SubmissionRecord } from '../store/types.ts';

export interface EvaluationOutcome {
  suite: string;
  conversations: number;
  replies: number;
  failed: number;
  honesty: number;
  composite: number;
  risk: string;
  reportId: string;
  reportUrl: string;
  verifyUrl: string;
  datasetVersion: string;
  slug: string;
}

type Sub = Pick<SubmissionRecord, 'id' | 'modelName' | 'vendor' | 'contactEmail'>;

function doneRows(s: Sub, o: EvaluationOutcome): [string, string | number][] {
  return [
    ['Submission id', s.id],
    ['Model', `${s.modelName} (${s.vendor})`],
    ['Leaderboard slug', o.slug],
    ['Probe suite', o.suite],
    ['Conversations scored', `${o.conversations - o.failed} of ${o.conversations} (${o.replies} replies)`],
    ['Honesty (0-100, higher is better)', o.honesty.toFixed(2)],
    ['PAI composite (0-10, lower is better)', `${o.composite.toFixed(2)} (${o.risk} risk)`],
    ['Certified report', o.reportUrl],
    ['Verify the report', o.verifyUrl],
    ['Dataset version', o.datasetVersion],
  ];
}

export function evaluationDoneMail(s: Sub, o: EvaluationOutcome): MailMessage {
  const body = render(
    'The evaluation of your model is complete and its certified report is published on the leaderboard. The report is entered in the append-only audit log; the verification link checks it.',
    doneRows(s, o),
  );
  return { to: s.contactEmail, subject: `Your svc evaluation is complete (submission ${s.id})`, ...body };
}

export function evaluationDoneAdminMail(admin: string, s: Sub, o: EvaluationOutcome): MailMessage {
  const body = render('An evaluation finished and was published.', [...doneRows(s, o), ['Contact', s.contactEmail]]);
  return { to: admin, subject: `Evaluation ${s.id} published (${o.reportId})`, ...body };
}

export function evaluationFailedMail(s: Sub, reason: string): MailMessage {
  const body = render(
    'The evaluation of your model could not be completed, so nothing was published. The operator has been told and can run it again once the cause is fixed.',
    [
      ['Submission id', s.id],
      ['Model', `${s.modelName} (${s.vendor})`],
      ['Reason', reason],
    ],
  );
  return { to: s.contactEmail, subject: `Your svc evaluation could not be completed (submission ${s.id})`, ...body };
}

export function evaluationFailedAdminMail(admin: string, s: Sub, reason: string): MailMessage {
  const body = render(`An evaluation failed. Retry it with: svc submissions retry ${s.id}`, [
    ['Submission id', s.id],
    ['Model', `${s.modelName} (${s.vendor})`],
    ['Contact', s.contactEmail],
    ['Reason', reason],
  ]);
  return { to: admin, subject: `Evaluation ${s.id} failed`, ...body };
}
