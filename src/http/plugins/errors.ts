/**
 * One error handler for every route: AppError -> its status and Error body; schema validation -> 400 with
 * `required`; body parser failures -> 400/413/415; anything else -> 500 whose text never carries internals
 * (the stack goes to the log with the request id, and `detail` carries only that id).
 */
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { AuditIntegrityError } from '../../audit/log.ts';
import { placeholderBadge } from '../../badge/index.ts';
import { AppError, errorBody, statusOf, type ErrorCode, type ErrorExtra } from '../../errors.ts';
import { rawFormat, sendHtmlError } from '../page-errors.ts';
import type { App } from '../types.ts';

type Branch = { required?: string[] };
type PartSchema = {
  properties?: Record<
    string,
    { type?: unknown; maxLength?: number; pattern?: string; format?: string; enum?: unknown }
  >;
  required?: string[];
  /** A body with two shapes (POST /api/submit): `if` names the fields that select `then`, else `else` applies. */
  if?: { anyOf?: Branch[] };
  then?: Branch;
  else?: Branch;
};

/** The fields the shape this body takes requires beyond the common ones (`then` or `else` of an if/then/else). */
function shapeRequired(s: PartSchema, body: unknown): string[] {
  if (!s.if && !s.then && !s.else) return [];
  const given = body && typeof body === 'object' ? (body as Record<string, unknown>) : {};
  const selects = (s.if?.anyOf ?? []).some((b) => (b.required ?? []).every((f) => given[f] !== undefined));
  return (selects ? s.then?.required : s.else?.required) ?? [];
}

/** Which fields a route requires, for the 400 body's `required` echo. */
function requiredOf(request: FastifyRequest, part: string | undefined): Record<string, unknown> | undefined {
  const schema = request.routeOptions.schema as Record<string, PartSchema> | undefined;
  const key = part === 'querystring' ? 'querystring' : part === 'params' ? 'params' : 'body';
  const s = schema?.[key];
  if (!s?.properties) return undefined;
  const out: Record<string, unknown> = {};
  const names = [...(s.required ?? []), ...(key === 'body' ? shapeRequired(s, request.body) : [])];
  for (const name of names) {
    const p = s.properties[name];
    const desc: Record<string, unknown> = { type: p?.type ?? 'string' };
    if (p?.maxLength !== undefined) desc.maxLength = p.maxLength;
    if (p?.pattern !== undefined) desc.pattern = p.pattern;
    if (p?.format !== undefined) desc.format = p.format;
    out[name] = desc;
  }
  return out;
}

/** Every field the route requires (path, query and body together), for a 400 a handler makes after validation. */
function routeRequired(request: FastifyRequest): Record<string, unknown> {
  return {
    ...requiredOf(request, 'params'),
    ...requiredOf(request, 'querystring'),
    ...requiredOf(request, 'body'),
  };
}

function validationMessage(err: FastifyError, request: FastifyRequest): string {
  const v = err.validation?.[0];
  const where = err.validationContext ?? 'request';
  if (!v) return `Invalid ${where}`;
  const field = (v.instancePath || '').replace(/^\//, '').replace(/\//g, '.');
  // A query parameter given twice arrives as a list: say so rather than "must be string".
  if (v.keyword === 'type' && where === 'querystring' && field) {
    const given = (request.query as Record<string, unknown> | undefined)?.[field];
    if (Array.isArray(given)) return `Invalid ${field}: give it once, not several times`;
  }
  if (v.keyword === 'required')
    return `Missing required field: ${(v.params as { missingProperty?: string }).missingProperty ?? '?'}`;
  if (v.keyword === 'additionalProperties')
    return `Unknown field: ${(v.params as { additionalProperty?: string }).additionalProperty ?? '?'}`;
  if (v.keyword === 'enum')
    return `Invalid ${field || where}: must be one of ${((v.params as { allowedValues?: unknown[] }).allowedValues ?? []).join(', ')}`;
  if (v.keyword === 'type' && !field) return `Invalid ${where}: expected a JSON object`;
  return `Invalid ${field || where}: ${v.message ?? 'invalid value'}`;
}

/** Send the Error body of a catalogue code with the catalogue's status (the one place an error status is set). */
export function sendError(reply: FastifyReply, code: ErrorCode, message: string, extra: ErrorExtra = {}): FastifyReply {
  for (const [k, v] of Object.entries(extra.headers ?? {})) reply.header(k, v);
  return reply
    .code(statusOf(code))
    .type('application/json; charset=utf-8')
    .send(JSON.stringify(errorBody(code, message, extra)));
}

/** store_unavailable is logged at most once per this long (with the count since): an outage is not a line per request. */
const STORE_ERROR_LOG_EVERY_MS = 60_000;

export function registerErrorHandler(app: App): void {
  let lastStoreErrorLog = Number.NEGATIVE_INFINITY;
  let storeErrorsNotLogged = 0;
  const logAppError = (request: FastifyRequest, err: AppError) => {
    if (err.code === 'store_unavailable') {
      const now = Date.now();
      if (now - lastStoreErrorLog < STORE_ERROR_LOG_EVERY_MS) {
        storeErrorsNotLogged++;
        return;
      }
      lastStoreErrorLog = now;
      const cause = err.cause instanceof Error ? err.cause.message : undefined;
      request.log.error(
        { code: err.code, cause, ...(storeErrorsNotLogged ? { not_logged_since: storeErrorsNotLogged } : {}) },
        err.message,
      );
      storeErrorsNotLogged = 0;
      return;
    }
    request.log.error({ err, code: err.code }, err.message);
  };
  app.setErrorHandler((err: FastifyError, request, reply) => {
    // A page route (config.htmlErrors) refuses with an HTML page when its rule says HTML is wanted.
    const rule = request.routeOptions.config?.htmlErrors;
    const html = rule?.wanted(request.headers.accept ?? '', rawFormat(request.url)) ? rule : undefined;
    const send = html
      ? (r: FastifyReply, code: ErrorCode, message: string, extra: ErrorExtra = {}) =>
          sendHtmlError(r, html, statusOf(code), message, extra.headers)
      : sendError;
    // Badges are images wherever they are embedded: any refusal on a badge path (a bad bearer key's 401, a 429)
    // is a placeholder SVG with the status, never JSON.
    if (err instanceof AppError && request.url.startsWith('/api/badge')) {
      for (const [k, v] of Object.entries(err.extra.headers ?? {})) reply.header(k, v);
      return reply
        .code(err.status)
        .header('cache-control', 'no-store')
        .type('image/svg+xml; charset=utf-8')
        .send(placeholderBadge(err.status === 401 ? 'bad API key' : err.status === 429 ? 'rate limited' : 'error'));
    }
    if (err instanceof AppError) {
      // Every 400 echoes the route's required fields (docs/api.md, General), also one a handler makes itself.
      if (err.status === 400 && !err.extra.required)
        return send(reply, err.code, err.message, { ...err.extra, required: routeRequired(request) });
      if (err.status < 500) return send(reply, err.code, err.message, err.extra);
      logAppError(request, err);
      // The contract's Error body has `detail` on 500: the request id to quote, unless the error names its own.
      return send(reply, err.code, err.message, {
        ...err.extra,
        detail: err.extra.detail ?? `request id ${request.id}`,
      });
    }
    if (err instanceof AuditIntegrityError) {
      request.log.error({ err: err.message }, 'audit log integrity');
      return send(
        reply,
        'audit_log_corrupt',
        `The audit log failed its integrity check: ${err.message}. Reports cannot be verified until an operator restores the store.`,
        { detail: `request id ${request.id}` },
      );
    }
    if (err.validation) {
      // a page's malformed path, in words rather than the pattern it fails
      const named = html?.badRequest;
      const words = named && named.part === err.validationContext ? named.text : undefined;
      return send(reply, 'bad_request', words ?? validationMessage(err, request), {
        required: requiredOf(request, err.validationContext) ?? {},
      });
    }
    switch (err.code) {
      case 'FST_ERR_CTP_BODY_TOO_LARGE':
        return send(reply, 'payload_too_large', 'Request body is too large');
      case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
        return send(reply, 'unsupported_media_type', 'Content-Type must be application/json');
      case 'FST_ERR_CTP_EMPTY_JSON_BODY':
        return send(reply, 'bad_request', 'Request body is empty; send a JSON object', {
          required: requiredOf(request, 'body') ?? {},
        });
      case 'FST_ERR_CTP_INVALID_JSON_BODY':
        // Fastify reports a __proto__ or constructor.prototype key (refused against prototype poisoning) the same way
        return send(
          reply,
          'bad_request',
          'Request body is not valid JSON, or has a __proto__ or constructor.prototype key',
          {
            required: requiredOf(request, 'body') ?? {},
          },
        );
    }
    if (err instanceof SyntaxError || err.statusCode === 400) {
      return send(reply, 'bad_request', 'Malformed request', { required: requiredOf(request, 'body') ?? {} });
    }
    if (err.statusCode && err.statusCode >= 400 && err.statusCode < 500) {
      // Another framework 4xx (414, 431, …): its own status, the bad_request code.
      if (html) return sendHtmlError(reply, html, err.statusCode, err.message);
      return reply
        .code(err.statusCode)
        .type('application/json; charset=utf-8')
        .send(JSON.stringify(errorBody('bad_request', err.message)));
    }
    request.log.error({ err }, 'unhandled error');
    return send(reply, 'internal', 'Internal server error', { detail: `request id ${request.id}` });
  });
}
