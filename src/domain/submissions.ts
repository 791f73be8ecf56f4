/**
 * POST /api/submit: record the submission durably, pending the operator's approval (`svc submissions approve`),
 * or queued at once with SVC_EVAL_AUTO_APPROVE=true; the evaluation worker (src/jobs) runs approved ones. The id
 * is the submission time in milliseconds, made unique by the store. Each submission gets a status page whose
 * address holds a random token (192 bits); only the token's SHA-256 is stored, the token itself is only in the
 * confirmation email. Emails (admin notice + confirmation to contact_email) are attempted after the write; their
 * failure only sets email_sent to false. Without a configured store the submission is kept in memory.
 */
import { createHash, randomBytes } from 'node:crypto';
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

export const statusTokenHash = (token: string): string => createHash('sha256').update(token).digest('hex');

/** The status page of a submission (the token is only ever in this link). */
export const statusUrl = (publicUrl: string, token: string): string => `${publicUrl}/submissions/${token}`;

/** Status tokens: 32 base64url characters (24 random bytes). */
export const STATUS_TOKEN_PATTERN = '^[A-Za-z0-9_-]{32}$';

export async function submitModel(
  deps: { store: Store; mailer: Mailer; config: Pick<Config, 'email' | 'publicUrl' | 'evalJobs'> },
  input: SubmissionInput,
  nowMs: number,
): Promise<{ kind: 'received'; id: number; emailSent: boolean }> {
  const token = randomBytes(24).toString('base64url');
  const rec = await deps.store.addSubmission(
    {
      modelName: input.model_name,
      vendor: input.vendor,
      apiEndpoint: input.api_endpoint,
      contactEmail: input.contact_email,
      ...(input.notes !== undefined && { notes: input.notes }),
      ...(input.model_slug !== undefined && { modelSlug: input.model_slug }),
      createdAt: new Date(nowMs).toISOString(),
      statusTokenHash: statusTokenHash(token),
    },
    nowMs,
  );
  if (deps.config.evalJobs.autoApprove) await deps.store.enqueueJob(rec.id, {}, nowMs);
  const admin = deps.config.email.admin;
  const emailSent = await sendWithAdminCopy(
    deps.mailer,
    submissionConfirmation(rec, statusUrl(deps.config.publicUrl, token)),
    admin ? submissionAdminNotice(admin, rec) : undefined,
  );
  return { kind: 'received', id: rec.id, emailSent };
}
