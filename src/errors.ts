/**
 * The error catalogue: every "no" the service says, with its status and public message. Handlers throw
 * `AppError`s (or let validation fail); one error handler in src/http/plugins/errors.ts turns them into the
 * contract's Error body `{error, required?, detail?, code}`. A 500's `error` text never carries internals.
 */
/**
 * Every code the service sends, with its HTTP status and what it means. docs/api.md ("Error codes") lists the
 * same codes (test/errors-catalogue.test.ts checks both ways); nothing else in src writes a status for an error.
 */
export const ERROR_CATALOGUE = {
  bad_request: { status: 400, meaning: 'the request is malformed or a field is invalid; `required` lists the fields' },
  unauthorized: { status: 401, meaning: 'a bearer key was presented but is unknown, malformed, revoked or not active' },
  not_found: { status: 404, meaning: 'no such path, report or resource' },
  model_not_found: { status: 404, meaning: 'no published model has this slug' },
  method_not_allowed: { status: 405, meaning: 'the path exists but not for this method; `Allow` lists the methods' },
  request_timeout: {
    status: 408,
    meaning: 'the request (headers and body) did not arrive within SVC_REQUEST_TIMEOUT_MS',
  },
  ambiguous: { status: 409, meaning: 'a report id prefix matches several reports; `candidates` lists them' },
  payload_too_large: { status: 413, meaning: 'the body is larger than SVC_BODY_LIMIT' },
  uri_too_long: { status: 414, meaning: 'a path segment is longer than 100 characters' },
  unsupported_media_type: { status: 415, meaning: 'a POST body that is not application/json' },
  expectation_failed: { status: 417, meaning: 'an `Expect` header other than `100-continue`' },
  headers_too_large: { status: 431, meaning: 'the request line and headers are larger than 16 KB' },
  too_many_keys: { status: 409, meaning: 'the email address already holds the most active API keys allowed (3)' },
  rate_limited: { status: 429, meaning: 'the per-IP (or per-key hourly) cap is reached; see Retry-After' },
  store_not_configured: {
    status: 500,
    meaning: 'the store is `memory` (not configured), so keys and waitlist cannot work',
  },
  store_unavailable: { status: 500, meaning: 'the configured store did not answer' },
  not_ready: { status: 503, meaning: 'the service is starting or its store is unreachable' },
  audit_log_corrupt: { status: 500, meaning: 'the audit log failed its integrity check (e.g. it shrank: store wiped)' },
  internal: { status: 500, meaning: 'an unexpected failure; `detail` carries the request id to quote' },
} as const satisfies Record<string, { status: number; meaning: string }>;

export type ErrorCode = keyof typeof ERROR_CATALOGUE;
export const ERROR_CODES = Object.keys(ERROR_CATALOGUE) as ErrorCode[];

/** The HTTP status of a catalogue code. */
export const statusOf = <C extends ErrorCode>(code: C): (typeof ERROR_CATALOGUE)[C]['status'] =>
  ERROR_CATALOGUE[code].status;

export interface ErrorBody {
  error: string;
  code?: string;
  detail?: string;
  required?: Record<string, unknown>;
}

/** What an error may carry besides its code and message: the 400 echo, the 500 detail, extra body fields, headers. */
export interface ErrorExtra {
  required?: Record<string, unknown>;
  detail?: string;
  fields?: Record<string, unknown>;
  headers?: Record<string, string>;
}

/** The contract's Error body for a catalogue code. */
export function errorBody(code: ErrorCode, message: string, extra: ErrorExtra = {}): ErrorBody {
  const body: ErrorBody = { error: message, code };
  if (extra.required) body.required = extra.required;
  if (extra.detail) body.detail = extra.detail;
  return extra.fields ? { ...body, ...extra.fields } : body;
}

export class AppError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly extra: ErrorExtra = {},
  ) {
    super(message);
    this.status = statusOf(code);
  }

  toBody(): ErrorBody {
    return errorBody(this.code, this.message, this.extra);
  }
}

/** The 429 text begins with the rate-limit-exceeded message naming the cap per hour (contract, Errors). */
export function rateLimitMessage(cap: number): string {
  return `Rate limit exceeded: ${cap} requests per hour. Try again later.`;
}
