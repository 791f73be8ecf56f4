/**
 * The one place where the use cases' outcomes (src/domain/outcomes.ts and the unions beside each use case) become
 * HTTP: a status and, for a refusal, a catalogue error (src/errors.ts) with its public text. Routes, pages and the
 * auth plugin call these; nothing in src/domain knows a status or a header.
 */
import {
  type BearerOutcome,
  checkBearer,
  KEY_PROBLEMS,
  MAX_KEYS_PER_EMAIL,
  type KeyProblem,
  type TooManyKeys,
} from '../domain/keys.ts';
import type { StoreNotConfigured } from '../domain/outcomes.ts';
import type { Lookup } from '../domain/reports.ts';
import type { WaitlistOutcome } from '../domain/waitlist.ts';
import { AppError } from '../errors.ts';
import type { ApiKeyRecord, Store } from '../store/types.ts';

/** Outcomes that are refusals, whichever use case gave them. */
export type Refusal = StoreNotConfigured | TooManyKeys | { kind: 'refused'; problem: KeyProblem };

export function refusal(o: Refusal): AppError {
  switch (o.kind) {
    case 'store_not_configured':
      return new AppError(
        'store_not_configured',
        'The key-value store is not configured on this instance (set SVC_STORE_URL).',
        { detail: 'store not configured' },
      );
    case 'too_many_keys':
      return new AppError(
        'too_many_keys',
        `This email address already holds ${o.held} API keys (at most ${MAX_KEYS_PER_EMAIL}); use one of them, or ask the operator to revoke one.`,
      );
    case 'refused':
      return unauthorized(KEY_PROBLEMS[o.problem]);
  }
}

/** 401 with the bearer challenge: a refused key, or no key where one is needed. */
export function unauthorized(message: string): AppError {
  return new AppError('unauthorized', message, { headers: { 'www-authenticate': 'Bearer realm="svc"' } });
}

const REFUSALS: ReadonlySet<string> = new Set<Refusal['kind']>(['store_not_configured', 'too_many_keys', 'refused']);

/** The outcome itself when it is not a refusal; a refusal is thrown as its catalogue error. */
export function orRefuse<T>(o: T): Exclude<T, Refusal> {
  const kind = (o as { kind?: unknown }).kind;
  if (typeof kind === 'string' && REFUSALS.has(kind)) throw refusal(o as unknown as Refusal);
  return o as Exclude<T, Refusal>;
}

/** The key behind an Authorization header (null: no header, the free tier); a refused one throws 401. */
export async function resolveBearer(
  store: Store,
  header: string | undefined,
  nowMs: number,
): Promise<ApiKeyRecord | null> {
  const o: BearerOutcome = orRefuse(await checkBearer(store, header, nowMs));
  return o.kind === 'key' ? o.record : null;
}

/** POST /api/waitlist and the waitlist page: 201 for a new sign-up, 200 for an address already on the list. */
export function waitlistReply(
  o: WaitlistOutcome,
):
  | { status: 201; body: { success: true; message: string; position: number; email_sent: boolean } }
  | { status: 200; body: { success: true; message: string; position: number } } {
  const r = orRefuse(o);
  if (r.kind === 'already_listed')
    return { status: 200, body: { success: true, message: ALREADY_ON_LIST, position: r.position } };
  return {
    status: 201,
    body: {
      success: true,
      message: `You are on the waitlist at position ${r.position}.`,
      position: r.position,
      email_sent: r.emailSent,
    },
  };
}
export const ALREADY_ON_LIST = 'You are already on the waitlist.';

/** POST /api/submit and the submit page: the submission is recorded (and queued when auto-approval is on). */
export function submissionReply(o: { kind: 'received'; id: number; emailSent: boolean }): {
  success: true;
  message: string;
  id: number;
  email_sent: boolean;
} {
  return {
    success: true,
    message:
      'Submission received and queued for evaluation; we will contact you at contact_email when scoring completes.',
    id: o.id,
    email_sent: o.emailSent,
  };
}

/** GET /report/{id}: the found report, or 404 / 409 with the candidates. */
export function foundReport(o: Lookup, key: string): Extract<Lookup, { kind: 'found' }> {
  if (o.kind === 'none') throw new AppError('not_found', `No certified report matches ${key}`);
  if (o.kind === 'ambiguous')
    throw new AppError('ambiguous', `The prefix ${key} matches several reports; use more characters`, {
      fields: { candidates: o.candidates },
    });
  return o;
}
