/**
 * API keys: `sk-svc-` + 32 lowercase hex (128 random bits from crypto.randomBytes). Only the SHA-256 of a
 * key is stored (a fast hash is enough for 128-bit random secrets); the key itself is shown once, in the
 * POST /api/keys response. A new key is active at once, with an allowance of 1000 calls (rate_limit); a key
 * requested with a plan (alternate shape) is inactive until its emailed link is followed, with a daily allowance.
 */
import { createHash, randomBytes } from 'node:crypto';
import { isStoreConfigured } from '../config.ts';
import type { Config } from '../config.ts';
import { AppError } from '../errors.ts';
import type { ApiKeyRecord, Store } from '../store/types.ts';
import { keyVerification, type Mailer } from './email.ts';

export const KEY_PATTERN = /^sk-svc-[a-f0-9]{32}$/;
export const DEFAULT_ALLOWANCE = 1000;

export function hashKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

/** Keys and the waitlist need a configured store (contract: 500 on a self-hosted instance without one). */
export function requireConfiguredStore(store: Store): void {
  if (!isStoreConfigured(store)) {
    throw new AppError(
      'store_not_configured',
      'The key-value store is not configured on this instance (set SVC_STORE_URL).',
      {
        detail: 'store not configured',
      },
    );
  }
}

export interface NewKeyInput {
  email: string;
  name?: string;
  organization?: string;
}

/**
 * The self-serve plans (README "Plans"). Every key's allowance is per UTC day: it is refilled to the plan's
 * count at the key's first authenticated request of each day (see resolveBearer). A core key (POST /api/keys
 * without a plan) is a free-plan key, active at once; a key requested with a plan (the alternate shape) is
 * inactive until its emailed link is followed. Enterprise keys are arranged with the operator. A key whose
 * allowance is used up is counted against the free tier's per-IP caps (never worse off than no key).
 */
export const PLANS = { free: { callsPerDay: DEFAULT_ALLOWANCE }, pro: { callsPerDay: 10_000 } } as const;
export type Plan = keyof typeof PLANS;
export const PLAN_NAMES = Object.keys(PLANS) as Plan[];

/** Active (not revoked) keys one email address may hold at a time; one more answers 409 too_many_keys. */
export const MAX_KEYS_PER_EMAIL = 3;
export const DAY_MS = 86_400_000;

/**
 * Without `plan`: the core key, active at once, 1000 calls. With `plan`: the plan's daily allowance, inactive
 * until the verification token (returned once, only its hash stored) is presented to activateKey.
 */
export async function createApiKey(
  store: Store,
  input: NewKeyInput,
  nowMs: number,
  plan?: Plan,
): Promise<{ apiKey: string; record: ApiKeyRecord; verifyToken?: string }> {
  requireConfiguredStore(store);
  const email = input.email.toLowerCase();
  const held = (await store.listKeys()).filter((k) => !k.revoked && k.email.toLowerCase() === email).length;
  if (held >= MAX_KEYS_PER_EMAIL)
    throw new AppError(
      'too_many_keys',
      `This email address already holds ${held} API keys (at most ${MAX_KEYS_PER_EMAIL}); use one of them, or ask the operator to revoke one.`,
    );
  const apiKey = `sk-svc-${randomBytes(16).toString('hex')}`;
  const allowance = PLANS[plan ?? 'free'].callsPerDay;
  const verifyToken = plan ? randomBytes(32).toString('base64url') : undefined;
  const record: ApiKeyRecord = {
    id: `key_${randomBytes(6).toString('hex')}`,
    hash: hashKey(apiKey),
    email: input.email,
    plan: plan ?? 'free',
    createdAt: new Date(nowMs).toISOString(),
    rateLimit: allowance,
    callsRemaining: allowance,
    active: !plan,
    revoked: false,
  };
  if (input.name !== undefined) record.name = input.name;
  if (input.organization !== undefined) record.organization = input.organization;
  if (verifyToken) record.verifyTokenHash = hashKey(verifyToken);
  await store.createKey(record);
  return { apiKey, record, ...(verifyToken && { verifyToken }) };
}

export const VERIFY_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/** A plan key: created inactive, and the verification link emailed to its address. */
export async function createPlanKey(
  deps: { store: Store; mailer: Mailer; config: Pick<Config, 'publicUrl'> },
  input: NewKeyInput,
  plan: Plan,
  nowMs: number,
): Promise<{ apiKey: string; record: ApiKeyRecord; emailSent: boolean }> {
  const { apiKey, record, verifyToken } = await createApiKey(deps.store, input, nowMs, plan);
  const link = `${deps.config.publicUrl}/api/keys/verify?token=${verifyToken}`;
  const emailSent = await deps.mailer.send(keyVerification(record.email, link, plan, record.rateLimit));
  return { apiKey, record, emailSent };
}

/** Follow a verification link: activates the key (single use); null for an unknown or already used token. */
export async function activateKey(store: Store, token: string): Promise<ApiKeyRecord | null> {
  requireConfiguredStore(store);
  return store.activateByToken(hashKey(token));
}

/** A plan key's allowance is refilled at its first request of each UTC day (the day window's first hit). */
async function refillDaily(store: Store, rec: ApiKeyRecord, nowMs: number): Promise<void> {
  if (!Object.hasOwn(PLANS, rec.plan)) return;
  const { count } = await store.hit(`key-day:${rec.id}`, DAY_MS, nowMs);
  if (count === 1 && rec.callsRemaining < rec.rateLimit) {
    await store.updateKey(rec.id, { callsRemaining: rec.rateLimit });
    rec.callsRemaining = rec.rateLimit;
  }
}

export type KeyStatus =
  | { valid: true; calls_remaining: number; rate_limit: number; created_at: string }
  | { valid: false; message: string };

/** GET /api/keys: an unknown, revoked or inactive key is an answer ({valid: false}), not an error. */
export async function keyStatus(store: Store, key: string): Promise<KeyStatus> {
  requireConfiguredStore(store);
  const rec = await store.getKeyByHash(hashKey(key));
  if (!rec) return { valid: false, message: 'Unknown API key.' };
  if (rec.revoked) return { valid: false, message: 'This API key has been revoked.' };
  if (!rec.active)
    return { valid: false, message: 'This API key is not active yet: follow the link in the verification email.' };
  return { valid: true, calls_remaining: rec.callsRemaining, rate_limit: rec.rateLimit, created_at: rec.createdAt };
}

/**
 * The key behind an Authorization header. No header: null (free tier). A header that is present but not
 * `Bearer <well-formed key>`, or whose key is unknown, inactive or revoked: 401.
 */
export async function resolveBearer(
  store: Store,
  header: string | undefined,
  nowMs = Date.now(),
): Promise<ApiKeyRecord | null> {
  if (header === undefined) return null;
  const m = /^Bearer +(\S+) *$/i.exec(header);
  if (!m)
    throw unauthorized(
      'Malformed Authorization header: send "Authorization: Bearer sk-svc-<32 hex>", or no header for the free tier.',
    );
  const key = m[1]!;
  if (!KEY_PATTERN.test(key))
    throw unauthorized('Malformed API key: keys are sk-svc- followed by 32 lowercase hexadecimal characters.');
  const rec = !isStoreConfigured(store) ? null : await store.getKeyByHash(hashKey(key));
  if (!rec) throw unauthorized('Unknown API key.');
  if (rec.revoked) throw unauthorized('This API key has been revoked.');
  if (!rec.active) throw unauthorized('This API key is not active yet: follow the link in the verification email.');
  await refillDaily(store, rec, nowMs);
  return rec;
}

function unauthorized(message: string): AppError {
  return new AppError('unauthorized', message, { headers: { 'www-authenticate': 'Bearer realm="svc"' } });
}
