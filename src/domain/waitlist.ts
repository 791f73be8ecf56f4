/**
 * POST /api/waitlist. De-duplication is the store's atomic joinWaitlist (lower-cased email), so two
 * simultaneous sign-ups of one address give one "created" and one "already on the list". Emails (admin
 * notice + confirmation stating the position) go out for new sign-ups only.
 */
import type { Config } from '../config.ts';
import type { Store } from '../store/types.ts';
import { sendWithAdminCopy, waitlistAdminNotice, waitlistConfirmation, type Mailer } from './email.ts';
import { storeMissing, type StoreNotConfigured } from './outcomes.ts';

export interface WaitlistInput {
  email: string;
  name?: string;
  organization?: string;
  use_case?: string;
  /** Where the sign-up came from (alternate shape). */
  source?: string;
}

/** A new sign-up (emails sent for it), or an address already on the list (nothing sent); positions are 1-based. */
export type WaitlistOutcome =
  | { kind: 'joined'; position: number; emailSent: boolean }
  | { kind: 'already_listed'; position: number }
  | StoreNotConfigured;

export async function joinWaitlist(
  deps: { store: Store; mailer: Mailer; config: Pick<Config, 'email'> },
  input: WaitlistInput,
  nowMs: number,
): Promise<WaitlistOutcome> {
  const missing = storeMissing(deps.store);
  if (missing) return missing;
  const entry = {
    email: input.email,
    ...(input.name !== undefined && { name: input.name }),
    ...(input.organization !== undefined && { organization: input.organization }),
    ...(input.use_case !== undefined && { useCase: input.use_case }),
    ...(input.source !== undefined && { source: input.source }),
    createdAt: new Date(nowMs).toISOString(),
  };
  const { created, position } = await deps.store.joinWaitlist(entry);
  if (!created) return { kind: 'already_listed', position };
  const mail = { ...entry, position };
  const admin = deps.config.email.admin;
  const emailSent = await sendWithAdminCopy(
    deps.mailer,
    waitlistConfirmation(mail),
    admin ? waitlistAdminNotice(admin, mail) : undefined,
  );
  return { kind: 'joined', position, emailSent };
}
