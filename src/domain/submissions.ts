/**
 * POST /api/submit: record the submission durably and queue it for evaluation (a later worker takes it
 * with store.claimNextSubmission()); the id is the submission time in milliseconds, made unique by the
 * store. Emails (admin notice + confirmation to contact_email) are attempted after the write; their
 * failure only sets email_sent to false. Without a configured store the submission is kept in memory
 * (the contract asks only keys and the waitlist to refuse).
 */
import type { Config } from '../config.ts';
import type { Store } from '../store/types.ts';
import { sendWithAdminCopy, submissionAdminNotice, submissionConfirmation, type Mailer } from './email.ts';

export interface SubmissionInput {
  model_name: string;
  vendor: string;
  api_endpoint: string;
  contact_email: string;
  notes?: string;
  /** The slug proposed for the model (alternate shape). */
  model_slug?: string;
}

export async function submitModel(
  deps: { store: Store; mailer: Mailer; config: Pick<Config, 'email'> },
  input: SubmissionInput,
  nowMs: number,
): Promise<{ success: true; message: string; id: number; email_sent: boolean }> {
  const rec = await deps.store.addSubmission(
    {
      modelName: input.model_name,
      vendor: input.vendor,
      apiEndpoint: input.api_endpoint,
      contactEmail: input.contact_email,
      ...(input.notes !== undefined && { notes: input.notes }),
      ...(input.model_slug !== undefined && { modelSlug: input.model_slug }),
      createdAt: new Date(nowMs).toISOString(),
    },
    nowMs,
  );
  const admin = deps.config.email.admin;
  const emailSent = await sendWithAdminCopy(
    deps.mailer,
    submissionConfirmation(rec),
    admin ? submissionAdminNotice(admin, rec) : undefined,
  );
  return {
    success: true,
    message:
      'Submission received and queued for evaluation; we will contact you at contact_email when scoring completes.',
    id: rec.id,
    email_sent: emailSent,
  };
}
