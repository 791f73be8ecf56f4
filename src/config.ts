/**
 * Configuration: read once from the environment in main, validated, frozen, and passed to buildApp.
 * Nothing else reads process.env. A bad setting stops start-up with a message naming the variable;
 * secret values (API keys, SMTP passwords, the signing key) are never printed.
 *
 * | variable | default | meaning |
 * |---|---|---|
 * | PORT | 3000 | TCP port |
 * | HOST | 0.0.0.0 | listen address |
 * | LOG_LEVEL | info | pino level: fatal, error, warn, info, debug, trace, silent |
 * | SVC_PUBLIC_URL | http://localhost:$PORT | base URL used in links (report_url, verification links, docs) |
 * | SVC_DATASET | dataset/leaderboard.json | the published dataset file; reloaded when it changes; a relative path is relative to the package folder |
 * | SVC_STORE_URL | sqlite:./data/svc.db | `sqlite:<path>`, `redis://…` / `rediss://…`, or `memory` (= not configured); a relative sqlite path is relative to the package folder, so `svc serve` and every `svc` command share one store wherever they run |
 * | SVC_TRUST_PROXY | (none) | `<header>:<hops>`, e.g. `x-forwarded-for:1`: the client IP is taken that many hops from the right of that header; otherwise the socket address |
 * | SVC_BODY_LIMIT | 1048576 | largest request body in bytes (413 above it) |
 * | SVC_EMAIL_PROVIDER | inferred | `resend`, `smtp` or `none`; inferred from which of the next settings is present |
 * | SVC_RESEND_API_KEY | (none) | key for a Resend-compatible HTTP email API (secret) |
 * | SVC_RESEND_BASE_URL | https://api.resend.com | base URL of that API |
 * | SVC_SMTP_URL | (none) | `smtp://user:pass@host:port` or `smtps://…` (secret) |
 * | SVC_EMAIL_FROM | svc <noreply@localhost> | sender: `address` or `Name <address>` |
 * | SVC_ADMIN_EMAIL | (none) | where admin notifications go: one address |
 * | SVC_DATASET_POLL_MS | 1000 | how often each instance checks the store for a newly published dataset version |
 * | SVC_EVAL_WORKER | true | run the evaluation worker inside `svc serve` (`false`: only `svc worker` processes run jobs) |
 * | SVC_EVAL_AUTO_APPROVE | false | `true`: a submission is approved on arrival (no credential; the endpoint must be open) |
 * | SVC_EVAL_ALLOW_PRIVATE | false | `true`: submitted endpoints may resolve to loopback/private addresses |
 * | SVC_EVAL_CONCURRENCY | 4 | conversations of one run played at once |
 * | SVC_EVAL_LEASE_MS | 30000 | a job's lease; renewed every third of it while the run goes on |
 * | SVC_EVAL_REQUEST_TIMEOUT_MS | 60000 | one model call |
 * | SVC_EVAL_MAX_RUN_MS | 7200000 | wall time of one run (per attempt of a job) |
 * | SVC_EVAL_MAX_CALLS | 10000 | chat calls per run, model and judges (120 conversations x ~4.6 turns x (1 + 5 judges) is ~3,300) |
 * | SVC_EVAL_MAX_RESPONSE_BYTES | 1048576 | one model answer |
 * | SVC_EVAL_JUDGES | (none) | LLM judges for evaluations: JSON `[{"name", "baseUrl", "model", "apiKeyEnv"?}]`, at most 5; `apiKeyEnv` names the variable holding that judge's key (secret; never printed) |
 * | SVC_SIGNING_KEY | (generated) | Ed25519 private key for audit checkpoints, PKCS#8 PEM or base64 DER (secret); when absent one is created on first run and kept in the store; a value that is not an Ed25519 private key stops start-up |
 * | SVC_WORKERS | 1 | worker processes sharing the port (node:cluster); `auto` = one per core |
 * | SVC_LOG_SAMPLE | 1 | share of ordinary requests (status < 500) that get their one info log line; 5xx are always logged |
 * | SVC_REQUEST_TIMEOUT_MS | 30000 | the whole request (headers and body) must arrive within this; then 408 and the connection is closed |
 * | SVC_HEADERS_TIMEOUT_MS | 10000 | the request line and headers must arrive within this |
 * | SVC_KEEPALIVE_TIMEOUT_MS | 5000 | an idle keep-alive connection is closed after this |
 * | SVC_SCORE_REPORT_TTL_S | 2592000 (30 days) | lifetime of a score report stored by the alternate-shape POST /api/score (its report_url then answers 404); 60 to 315360000; certified reports are kept for good |
 * | SVC_METRICS_PORT | (none) | serve GET /metrics (Prometheus text) on this port, on SVC_METRICS_HOST (default 127.0.0.1); never on the public port |
 * | SVC_METRICS_HOST | 127.0.0.1 | listen address of the metrics port |
 * | SVC_LIMIT_ON_STORE_ERROR | open | `open`: when the store cannot count, count in memory (shared by the workers) and serve; `closed`: answer 500 store_unavailable |
 * | SVC_REDIS_DURABILITY | warn | at start, when Redis does not persist every write (appendonly yes, appendfsync always or everysec): `warn` logs it, `require` refuses to start |
 * | SVC_MAIL_PER_RECIPIENT_DAY | 5 | messages the service sends to one address per UTC day (confirmations, verification links); admin notices are not capped |
 * | SVC_LLM_URL | (none) | base URL of an OpenAI-compatible API, e.g. http://127.0.0.1:11434/v1; with SVC_LLM_MODEL it turns on the model council and the model honest rewrite. Set by the operator, so private and loopback addresses are allowed |
 * | SVC_LLM_MODEL | (none) | the model name sent to that API; needed with SVC_LLM_URL |
 * | SVC_LLM_API_KEY | (none) | bearer key for that API (secret, optional) |
 * | SVC_LLM_TIMEOUT_MS | 30000 | time limit of one model call (1000-600000); a council member that times out is retried once, then counted out |
 * | SVC_LLM_CONCURRENCY | 24 | most model calls in flight at once to that API, all requests together (1-64): a council's two round 1s (24 calls) at once |
 * | SVC_COUNCIL_HOURLY_LIMIT | 60 | POST /api/council calls per key (or, refused keyless attempts, per IP) per hour |
 */
import os from 'node:os';
import path from 'node:path';
import { parsePrivateKey } from './audit/checkpoint.ts';
import { fileURLToPath } from 'node:url';

/**
 * The package folder (where package.json is). Relative paths in settings, and the defaults data/svc.db and
 * dataset/leaderboard.json, resolve against it, so the service and every CLI command use the same store and
 * dataset wherever they are run from (docs/decisions.md, "Store").
 */
export const PACKAGE_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export type StoreConfig = { kind: 'memory' } | { kind: 'sqlite'; path: string } | { kind: 'redis'; url: string };

/**
 * "The store is configured" (docs/decisions.md, "Store"): anything but `memory`, which means "not configured"
 * in the contract's sense (rate limits in memory, keys and waitlist answer store_not_configured, /healthz kv
 * false). Takes a StoreConfig or a Store: the one place this rule is written.
 */
export const isStoreConfigured = (store: { readonly kind: StoreConfig['kind'] }): boolean => store.kind !== 'memory';

export interface TrustProxy {
  header: string;
  hops: number;
}

export interface Config {
  port: number;
  host: string;
  logLevel: string;
  publicUrl: string;
  datasetPath: string;
  store: StoreConfig;
  trustProxy: TrustProxy | null;
  bodyLimit: number;
  email: {
    provider: 'resend' | 'smtp' | 'none';
    resendApiKey?: string;
    resendBaseUrl: string;
    smtpUrl?: string;
    from: string;
    admin?: string;
  };
  signingKey?: string;
  /** The operator's model (OpenAI-compatible); absent: the heuristic council and the deterministic rewrite answer. */
  llm?: LlmConfig;
  council: { hourlyLimit: number };
  /** Worker processes (1 = no cluster). */
  workers: number;
  /** 0..1: share of non-5xx requests logged. */
  logSample: number;
  timeouts: { requestMs: number; headersMs: number; keepAliveMs: number };
  metrics: { port: number; host: string } | null;
  limitOnStoreError: 'open' | 'closed';
  redisDurability: 'warn' | 'require';
  mailPerRecipientDay: number;
  datasetPollMs: number;
  /** Lifetime of a stored score report (alternate POST /api/score), ms. */
  scoreReportTtlMs: number;
  /** The evaluation worker and its bounds (src/jobs). */
  evalJobs: {
    worker: boolean;
    autoApprove: boolean;
    allowPrivate: boolean;
    concurrency: number;
    leaseMs: number;
    requestTimeoutMs: number;
    maxRunMs: number;
    maxCalls: number;
    maxResponseBytes: number;
  };
  /** LLM judges of evaluations (SVC_EVAL_JUDGES); the engine is always a judge too. */
  evalJudges: EvalJudgeSetting[];
}

/** An LLM judge from SVC_EVAL_JUDGES; `apiKey` is non-enumerable, so printing the config never shows it. */
export interface EvalJudgeSetting {
  name: string;
  baseUrl: string;
  model: string;
  apiKey?: string;
}

export interface LlmConfig {
  baseUrl: string;
  model: string;
  /** Secret: never logged or printed. */
  apiKey?: string;
  timeoutMs: number;
  concurrency: number;
}

export class ConfigError extends Error {}

const LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

function int(env: NodeJS.ProcessEnv, name: string, def: number, min: number, max: number): number {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === '') return def;
  // decimal digits only: Number() would also read 0x50, 1e6 and 80.0
  const n = /^-?\d+$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(n) || n < min || n > max)
    throw new ConfigError(`${name} must be an integer from ${min} to ${max}`);
  return n;
}

function bool(env: NodeJS.ProcessEnv, name: string, def: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return def;
  if (raw === 'true' || raw === '1') return true;
  if (raw === 'false' || raw === '0') return false;
  throw new ConfigError(`${name} must be true or false`);
}

/** A base URL that paths are appended to: http(s), and no query or fragment (they would end up before the path). */
function url(name: string, raw: string): string {
  let ok = false;
  try {
    const u = new URL(raw);
    ok = u.protocol === 'http:' || u.protocol === 'https:';
  } catch {
    // not a URL
  }
  if (!ok) throw new ConfigError(`${name} must be an http(s) URL`);
  if (/[?#]/.test(raw))
    throw new ConfigError(`${name} must be an http(s) URL without ? or # (a base URL paths are added to)`);
  return raw.replace(/\/+$/, '');
}

export function parseStoreUrl(raw: string | undefined, cwd: string): StoreConfig {
  if (raw === undefined || raw === '') return { kind: 'sqlite', path: path.resolve(cwd, 'data/svc.db') };
  if (raw === 'memory') return { kind: 'memory' };
  if (raw.startsWith('sqlite:')) {
    const p = raw.slice('sqlite:'.length).replace(/^\/\/(?=\/)/, '');
    if (!p) throw new ConfigError('SVC_STORE_URL sqlite: needs a path, e.g. sqlite:./data/svc.db');
    return { kind: 'sqlite', path: p === ':memory:' ? p : path.resolve(cwd, p) };
  }
  if (raw.startsWith('redis://') || raw.startsWith('rediss://')) return { kind: 'redis', url: raw };
  throw new ConfigError('SVC_STORE_URL must be sqlite:<path>, redis://…, rediss://… or memory');
}

export function parseTrustProxy(raw: string | undefined): TrustProxy | null {
  if (raw === undefined || raw === '' || raw === 'false') return null;
  const m = /^([a-z0-9-]+):([1-9][0-9]?)$/i.exec(raw);
  if (!m) throw new ConfigError('SVC_TRUST_PROXY must be <header>:<hops>, e.g. x-forwarded-for:1');
  return { header: m[1]!.toLowerCase(), hops: Number(m[2]) };
}

/** One mail address (no display name, no list): what SVC_ADMIN_EMAIL takes. */
const MAIL_ADDRESS = /^[^\s@<>",;]+@[^\s@<>",;]+$/;

/** SVC_ADMIN_EMAIL: one address, or unset. A value that is not one would make every admin notice fail silently. */
function adminEmail(raw: string | undefined): string | undefined {
  if (!raw) return undefined;
  if (!MAIL_ADDRESS.test(raw))
    throw new ConfigError('SVC_ADMIN_EMAIL must be an email address, e.g. admin@example.com');
  return raw;
}

/** SVC_EMAIL_FROM: `address` or `Name <address>` on one line (no header can be smuggled in after it). */
function emailFrom(raw: string | undefined): string {
  if (!raw) return 'svc <noreply@localhost>';
  const m = /^(?:[^\r\n<>]*<([^<>]+)>|([^<>]+))$/.exec(raw.trim());
  const address = m?.[1] ?? m?.[2];
  if (!address || !MAIL_ADDRESS.test(address) || /[\r\n]/.test(raw))
    throw new ConfigError(
      'SVC_EMAIL_FROM must be an email address or "Name <address>", e.g. svc <noreply@example.com>',
    );
  return raw;
}

/** SVC_LLM_URL and SVC_LLM_MODEL together turn the model on; one without the other is a mistake worth stopping for. */
export function parseLlm(env: NodeJS.ProcessEnv): LlmConfig | undefined {
  const baseUrl = env.SVC_LLM_URL || undefined;
  const model = env.SVC_LLM_MODEL || undefined;
  // Checked whether or not a model is configured: a bad value is reported when it is set, not later.
  const timeoutMs = int(env, 'SVC_LLM_TIMEOUT_MS', 30_000, 1000, 600_000);
  const concurrency = int(env, 'SVC_LLM_CONCURRENCY', 24, 1, 64);
  if (!baseUrl && !model) return undefined;
  if (!baseUrl) throw new ConfigError('SVC_LLM_MODEL needs SVC_LLM_URL (the base URL of an OpenAI-compatible API)');
  if (!model) throw new ConfigError('SVC_LLM_URL needs SVC_LLM_MODEL (the model name to ask for)');
  return {
    baseUrl: url('SVC_LLM_URL', baseUrl),
    model,
    apiKey: env.SVC_LLM_API_KEY || undefined,
    timeoutMs,
    concurrency,
  };
}

function oneOf<T extends string>(env: NodeJS.ProcessEnv, name: string, values: readonly T[], def: T): T {
  const raw = env[name] || def;
  if (!(values as readonly string[]).includes(raw))
    throw new ConfigError(`${name} must be one of ${values.join(', ')}`);
  return raw as T;
}

function workers(raw: string | undefined): number {
  if (raw === 'auto') return os.availableParallelism();
  return int({ SVC_WORKERS: raw }, 'SVC_WORKERS', 1, 1, 64);
}

function sample(raw: string | undefined): number {
  if (raw === undefined || raw.trim() === '') return 1;
  const n = /^\s*(?:\d+(?:\.\d*)?|\.\d+)\s*$/.test(raw) ? Number(raw) : NaN; // a decimal, not 0x1 or 1e-1
  if (!Number.isFinite(n) || n < 0 || n > 1) throw new ConfigError('SVC_LOG_SAMPLE must be a number from 0 to 1');
  return n;
}

/** The signing key must be an Ed25519 private key; the message never echoes it. */
function signingKey(raw: string | undefined): string | undefined {
  if (!raw) return undefined;
  let type: string | undefined;
  try {
    type = parsePrivateKey(raw).asymmetricKeyType;
  } catch {
    throw new ConfigError('SVC_SIGNING_KEY is not a private key (PKCS#8 PEM or base64 DER of an Ed25519 key)');
  }
  if (type !== 'ed25519') throw new ConfigError(`SVC_SIGNING_KEY must be an Ed25519 private key, not ${type}`);
  return raw;
}

export function parseEvalJudges(raw: string | undefined, env: NodeJS.ProcessEnv): EvalJudgeSetting[] {
  if (raw === undefined || raw.trim() === '') return [];
  const bad = (why: string) =>
    new ConfigError(`SVC_EVAL_JUDGES must be a JSON list of {name, baseUrl, model, apiKeyEnv?}: ${why}`);
  let list: unknown;
  try {
    list = JSON.parse(raw);
  } catch {
    throw bad('not valid JSON');
  }
  if (!Array.isArray(list)) throw bad('not a list');
  if (list.length > 5) throw bad('at most 5 judges');
  const names = new Set<string>();
  return list.map((j: unknown, i) => {
    const o = (typeof j === 'object' && j !== null ? j : {}) as Record<string, unknown>;
    const str = (k: string, max: number) => {
      if (typeof o[k] !== 'string' || o[k] === '' || (o[k] as string).length > max)
        throw bad(`judge ${i + 1} needs ${k} (1-${max} characters)`);
      return o[k] as string;
    };
    const name = str('name', 100);
    if (names.has(name)) throw bad(`judge name ${name} is used twice`);
    names.add(name);
    const out: EvalJudgeSetting = {
      name,
      baseUrl: url('SVC_EVAL_JUDGES baseUrl', str('baseUrl', 2000)),
      model: str('model', 200),
    };
    if (o.apiKeyEnv !== undefined) {
      const v = str('apiKeyEnv', 200);
      if (!env[v]) throw bad(`judge ${name}: the variable ${v} named by apiKeyEnv is not set`);
      Object.defineProperty(out, 'apiKey', { value: env[v], enumerable: false });
    }
    return out;
  });
}

/** Build the frozen config from an environment (process.env in main; a plain object in tests). */
export function loadConfig(env: NodeJS.ProcessEnv = {}, cwd = PACKAGE_ROOT): Config {
  const port = int(env, 'PORT', 3000, 0, 65535);
  const logLevel = env.LOG_LEVEL || 'info';
  if (!LEVELS.includes(logLevel)) throw new ConfigError(`LOG_LEVEL must be one of ${LEVELS.join(', ')}`);
  const resendApiKey = env.SVC_RESEND_API_KEY || undefined;
  const smtpUrl = env.SVC_SMTP_URL || undefined;
  const provider = env.SVC_EMAIL_PROVIDER || (resendApiKey ? 'resend' : smtpUrl ? 'smtp' : 'none');
  if (provider !== 'resend' && provider !== 'smtp' && provider !== 'none')
    throw new ConfigError('SVC_EMAIL_PROVIDER must be resend, smtp or none');
  if (provider === 'resend' && !resendApiKey)
    throw new ConfigError('SVC_EMAIL_PROVIDER=resend needs SVC_RESEND_API_KEY');
  if (provider === 'smtp') {
    if (!smtpUrl) throw new ConfigError('SVC_EMAIL_PROVIDER=smtp needs SVC_SMTP_URL');
    if (!/^smtps?:\/\//.test(smtpUrl)) throw new ConfigError('SVC_SMTP_URL must start with smtp:// or smtps://');
  }
  const cfg: Config = {
    port,
    host: env.HOST || '0.0.0.0',
    logLevel,
    publicUrl: url('SVC_PUBLIC_URL', env.SVC_PUBLIC_URL || `http://localhost:${port}`),
    datasetPath: path.resolve(cwd, env.SVC_DATASET || 'dataset/leaderboard.json'),
    store: parseStoreUrl(env.SVC_STORE_URL, cwd),
    trustProxy: parseTrustProxy(env.SVC_TRUST_PROXY),
    bodyLimit: int(env, 'SVC_BODY_LIMIT', 1024 * 1024, 1024, 64 * 1024 * 1024),
    email: {
      provider,
      resendApiKey,
      resendBaseUrl: url('SVC_RESEND_BASE_URL', env.SVC_RESEND_BASE_URL || 'https://api.resend.com'),
      smtpUrl,
      from: emailFrom(env.SVC_EMAIL_FROM),
      admin: adminEmail(env.SVC_ADMIN_EMAIL),
    },
    signingKey: signingKey(env.SVC_SIGNING_KEY),
    workers: workers(env.SVC_WORKERS),
    logSample: sample(env.SVC_LOG_SAMPLE),
    timeouts: {
      requestMs: int(env, 'SVC_REQUEST_TIMEOUT_MS', 30_000, 100, 3_600_000),
      headersMs: int(env, 'SVC_HEADERS_TIMEOUT_MS', 10_000, 100, 3_600_000),
      keepAliveMs: int(env, 'SVC_KEEPALIVE_TIMEOUT_MS', 5_000, 100, 3_600_000),
    },
    metrics: env.SVC_METRICS_PORT
      ? { port: int(env, 'SVC_METRICS_PORT', 0, 0, 65535), host: env.SVC_METRICS_HOST || '127.0.0.1' }
      : null,
    limitOnStoreError: oneOf(env, 'SVC_LIMIT_ON_STORE_ERROR', ['open', 'closed'] as const, 'open'),
    scoreReportTtlMs: int(env, 'SVC_SCORE_REPORT_TTL_S', 2_592_000, 60, 315_360_000) * 1000,
    redisDurability: oneOf(env, 'SVC_REDIS_DURABILITY', ['warn', 'require'] as const, 'warn'),
    mailPerRecipientDay: int(env, 'SVC_MAIL_PER_RECIPIENT_DAY', 5, 0, 1_000_000),
    llm: parseLlm(env),
    council: { hourlyLimit: int(env, 'SVC_COUNCIL_HOURLY_LIMIT', 60, 1, 1_000_000) },
    datasetPollMs: int(env, 'SVC_DATASET_POLL_MS', 1000, 50, 3_600_000),
    evalJobs: {
      worker: bool(env, 'SVC_EVAL_WORKER', true),
      autoApprove: bool(env, 'SVC_EVAL_AUTO_APPROVE', false),
      allowPrivate: bool(env, 'SVC_EVAL_ALLOW_PRIVATE', false),
      concurrency: int(env, 'SVC_EVAL_CONCURRENCY', 4, 1, 64),
      leaseMs: int(env, 'SVC_EVAL_LEASE_MS', 30_000, 300, 3_600_000),
      requestTimeoutMs: int(env, 'SVC_EVAL_REQUEST_TIMEOUT_MS', 60_000, 100, 600_000),
      maxRunMs: int(env, 'SVC_EVAL_MAX_RUN_MS', 7_200_000, 1000, 86_400_000),
      maxCalls: int(env, 'SVC_EVAL_MAX_CALLS', 10_000, 1, 1_000_000),
      maxResponseBytes: int(env, 'SVC_EVAL_MAX_RESPONSE_BYTES', 1024 * 1024, 1024, 64 * 1024 * 1024),
    },
    evalJudges: parseEvalJudges(env.SVC_EVAL_JUDGES, env),
  };
  if (cfg.timeouts.headersMs > cfg.timeouts.requestMs)
    throw new ConfigError('SVC_HEADERS_TIMEOUT_MS must not exceed SVC_REQUEST_TIMEOUT_MS');
  return Object.freeze(cfg);
}
