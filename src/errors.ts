/**
 * The error catalogue: every "no" the service says, with its status and public message. Handlers throw
 * `AppError`s (or let validation fail); one error handler in src/http/plugins/errors.ts turns them into the
 * contract's Error body `{error, required?, detail?, code}`. A 500's `error` text never carries internals.
 */
export type ErrorCode =
  | 'bad_request'
  | 'unauthorized'
  | 'not_found'
  | 'model_not_found'
  | 'method_not_allowed'
  | 'request_timeout'
  | 'payload_too_large'
  | 'uri_too_long'
  | 'unsupported_media_type'
  | 'expectation_failed'
  | 'headers_too_large'
  | 'rate_limited'
  | 'allowance_exhausted'
  | 'store_not_configured'
  | 'store_unavailable'
  | 'not_ready'
  | 'audit_log_corrupt'
  | 'internal';

const STATUS: Record<ErrorCode, number> = {
  bad_request: 400,
  unauthorized: 401,
  not_found: 404,
  model_not_found: 404,
  method_not_allowed: 405,
  request_timeout: 408,
  payload_too_large: 413,
  uri_too_long: 414,
  unsupported_media_type: 415,
  expectation_failed: 417,
  headers_too_large: 431,
  rate_limited: 429,
  allowance_exhausted: 429,
  store_not_configured: 500,
  store_unavailable: 500,
  not_ready: 503,
  audit_log_corrupt: 500,
  internal: 500,
};

export interface ErrorBody {
  error: string;
  code?: string;
  detail?: string;
  required?: Record<string, unknown>;
}

export class AppError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly extra: { required?: Record<string, unknown>; detail?: string; headers?: Record<string, string> } = {},
  ) {
    super(message);
    this.status = STATUS[code];
  }

  toBody(): ErrorBody {
    const body: ErrorBody = { error: this.message, code: this.code };
    if (this.extra.required) body.required = this.extra.required;
    if (this.extra.detail) body.detail = this.extra.detail;
    return body;
  }
}

/** The 429 text begins with the rate-limit-exceeded message naming the cap per hour (contract, Errors). */
export function rateLimitMessage(cap: number): string {
  return `Rate limit exceeded: ${cap} requests per hour. Try again later.`;
}
