/**
 * API keys: `sk-svc-` + 32 lowercase hex (128 random bits from crypto.randomBytes). Only the SHA-256 of a
 * key is stored (a fast hash is enough for 128-bit random secrets); the key itself is shown once, in the
 * POST /api/keys response. A new key is active at once, with an allowance of 1000 calls (rate_limit); a key
 * requested with a plan (alternate shape) is inactive until its emailed link is followed, with a daily allowance.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Config } from '../config.ts';
import type { ApiKeyRecord, Store } from '../store/types.ts';
import { keyVerification, type Mailer } from './email.ts';
import { storeMissing, type StoreNotConfigured } from './outcomes.ts';

export const KEY_PATTERN = /^sk-svc-[a-f0-9]{32}$/;
export const DEFAULT_ALLOWANCE = 1000;

export function hashKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

export interface NewKeyInput {
  email: string;
  name?: string;
  organization?: string;
}

/**
 * The self-serve plans (README "Plans"). Every key's allowance is per UTC day: it is refilled to the plan's
 * count at the key's first authenticated request of each day (see checkBearer). A core key (POST /api/keys
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

export interface KeyCreated {
  kind: 'created';
  apiKey: string;
  record: ApiKeyRecord;
  verifyToken?: string;
}
/** The address already holds MAX_KEYS_PER_EMAIL active keys. */
export interface TooManyKeys {
  kind: 'too_many_keys';
  held: number;
}
export type CreateKeyOutcome = KeyCreated | TooManyKeys | StoreNotConfigured;

/**
 * Without `plan`: the core key, active at once, 1000 calls. With `plan`: the plan's daily allowance, inactive
 * until the verification token (returned once, only its hash stored) is presented to activateKey.
 */
export async function issueApiKey(
  store: Store,
  input: NewKeyInput,
  nowMs: number,
  plan?: Plan,
): Promise<CreateKeyOutcome> {
  const missing = storeMissing(store);
  if (missing) return missing;
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
  // the cap is checked and the key stored in one atomic step (simultaneous requests cannot both pass it)
  const { created, held } = await store.createKeyCapped(record, MAX_KEYS_PER_EMAIL);
  if (!created) return { kind: 'too_many_keys', held };
  return { kind: 'created', apiKey, record, ...(verifyToken && { verifyToken }) };
}

/** issueApiKey for scripts, tests and benchmarks that need a key: a refusal is thrown as a plain Error. */
export async function createApiKey(store: Store, input: NewKeyInput, nowMs: number, plan?: Plan): Promise<KeyCreated> {
  const o = await issueApiKey(store, input, nowMs, plan);
  if (o.kind !== 'created') throw new Error(`no key for ${input.email}: ${o.kind}`);
  return o;
}

export const VERIFY_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/** A plan key: created inactive, and the verification link emailed to its address. */
export async function createPlanKey(
  deps: { store: Store; mailer: Mailer; config: Pick<Config, 'publicUrl'> },
  input: NewKeyInput,
  plan: Plan,
  nowMs: number,
): Promise<(KeyCreated & { emailSent: boolean }) | TooManyKeys | StoreNotConfigured> {
  const created = await issueApiKey(deps.store, input, nowMs, plan);
  if (created.kind !== 'created') return created;
  const link = `${deps.config.publicUrl}/api/keys/verify?token=${created.verifyToken}`;
  const emailSent = await deps.mailer.send(keyVerification(created.record.email, link, plan, created.record.rateLimit));
  return { ...created, emailSent };
}

/** Follow a verification link: activates the key (single use); `unknown` for an unknown or already used token. */
export async function activateKey(
  store: Store,
  token: string,
): Promise<{ kind: 'activated'; record: ApiKeyRecord } | { kind: 'unknown' } | StoreNotConfigured> {
  const missing = storeMissing(store);
  if (missing) return missing;
  const record = await store.activateByToken(hashKey(token));
  return record ? { kind: 'activated', record } : { kind: 'unknown' };
}

/**
 * A plan key's allowance is refilled at its first request of each UTC day (the day window's first hit), in the same
 * atomic store step as that hit: written after it, the refill overwrote calls drawn by requests of that moment
 * (on another instance, or while this one waited for the store), and those requests found yesterday's count.
 */
async function refillDaily(store: Store, rec: ApiKeyRecord, nowMs: number): Promise<void> {
  if (!Object.hasOwn(PLANS, rec.plan)) return;
  let count: number;
  try {
    ({ count } = await store.hitAndRefill(`key-day:${rec.id}`, DAY_MS, nowMs, rec.hash));
  } catch (err) {
    // The store cannot count (a full disk, an outage): no refill now, a later request tries again. The request
    // itself goes on to the rate limiter, whose store-failure policy (SVC_LIMIT_ON_STORE_ERROR) decides.
    if ((err as { code?: unknown }).code === 'store_unavailable') return;
    throw err;
  }
  if (count === 1 && rec.callsRemaining < rec.rateLimit) rec.callsRemaining = rec.rateLimit;
}

/** Why a key is not usable; the text is what GET /api/keys and a refused bearer say. */
export const KEY_PROBLEMS = {
  unknown: 'Unknown API key.',
  revoked: 'This API key has been revoked.',
  inactive: 'This API key is not active yet: follow the link in the verification email.',
  malformed_header:
    'Malformed Authorization header: send "Authorization: Bearer sk-svc-<32 hex>", or no header for the free tier.',
  malformed_key: 'Malformed API key: keys are sk-svc- followed by 32 lowercase hexadecimal characters.',
} as const;
export type KeyProblem = keyof typeof KEY_PROBLEMS;

/** A stored key's problem, if it has one. */
const problemOf = (rec: ApiKeyRecord | null): 'unknown' | 'revoked' | 'inactive' | null =>
  !rec ? 'unknown' : rec.revoked ? 'revoked' : !rec.active ? 'inactive' : null;

export type KeyStatus =
  | { valid: true; calls_remaining: number; rate_limit: number; created_at: string }
  | { valid: false; message: string };

/** GET /api/keys: an unknown, revoked or inactive key is an answer ({valid: false}), not an error. */
export async function keyStatus(store: Store, key: string): Promise<KeyStatus | StoreNotConfigured> {
  const missing = storeMissing(store);
  if (missing) return missing;
  const rec = await store.getKeyByHash(hashKey(key));
  const problem = problemOf(rec);
  if (problem || !rec) return { valid: false, message: KEY_PROBLEMS[problem ?? 'unknown'] };
  return { valid: true, calls_remaining: rec.callsRemaining, rate_limit: rec.rateLimit, created_at: rec.createdAt };
}

export type BearerOutcome =
  | { kind: 'none' }
  | { kind: 'key'; record: ApiKeyRecord }
  | { kind: 'refused'; problem: KeyProblem };

/**
 * The key behind an Authorization header. No header: `none` (free tier). A header that is present but not
 * `Bearer <well-formed key>`, or whose key is unknown, inactive or revoked: `refused` (src/http/outcomes.ts
 * answers 401). A usable plan key's daily allowance is refilled on its first request of the day.
 */
export async function checkBearer(store: Store, header: string | undefined, nowMs: number): Promise<BearerOutcome> {
  if (header === undefined) return { kind: 'none' };
  const m = /^Bearer +(\S+) *$/i.exec(header);
  if (!m) return { kind: 'refused', problem: 'malformed_header' };
  const key = m[1]!;
  if (!KEY_PATTERN.test(key)) return { kind: 'refused', problem: 'malformed_key' };
  const rec = storeMissing(store) ? null : await store.getKeyByHash(hashKey(key));
  const problem = problemOf(rec);
  if (problem || !rec) return { kind: 'refused', problem: problem ?? 'unknown' };
  await refillDaily(store, rec, nowMs);
  return { kind: 'key', record: rec };
}
