/**
 * POST /api/waitlist. De-duplication is the store's atomic joinWaitlist (lower-cased email), so two
 * simultaneous sign-ups of one address give one "created" and one "already on the list". Emails (admin
 * notice + confirmation stating the position) go out for new sign-ups only.
 */
import type { Config } from '../config.ts';
import type { Store } from '../store/types.ts';
import { sendWithAdminCopy, waitlistAdminNotice, waitlistConfirmation, type Mailer } from './email.ts';
import { requireConfiguredStore } from './keys.ts';

export interface WaitlistInput {
  email: string;
  name?: string;
  organization?: string;
  use_case?: string;
  /** Where the sign-up came from (alternate shape). */
  source?: string;
}

export const ALREADY_ON_LIST = 'You are already on the waitlist.';

export type WaitlistResult =
  | { status: 201; body: { success: true; message: string; position: number; email_sent: boolean } }
  | { status: 200; body: { success: true; message: string; position: number } };

export async function joinWaitlist(
  deps: { store: Store; mailer: Mailer; config: Pick<Config, 'email'> },
  input: WaitlistInput,
  nowMs: number,
): Promise<WaitlistResult> {
  requireConfiguredStore(deps.store);
  const entry = {
    email: input.email,
    ...(input.name !== undefined && { name: input.name }),
    ...(input.organization !== undefined && { organization: input.organization }),
    ...(input.use_case !== undefined && { useCase: input.use_case }),
    ...(input.source !== undefined && { source: input.source }),
    createdAt: new Date(nowMs).toISOString(),
  };
  const { created, position } = await deps.store.joinWaitlist(entry);
  if (!created) return { status: 200, body: { success: true, message: ALREADY_ON_LIST, position } };
  const mail = { ...entry, position };
  const admin = deps.config.email.admin;
  const emailSent = await sendWithAdminCopy(
    deps.mailer,
    waitlistConfirmation(mail),
    admin ? waitlistAdminNotice(admin, mail) : undefined,
  );
  return {
    status: 201,
    body: {
      success: true,
      message: `You are on the waitlist at position ${position}.`,
      position,
      email_sent: emailSent,
    },
  };
}
