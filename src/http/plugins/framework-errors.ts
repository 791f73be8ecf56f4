/**
 * Errors raised before a route runs: the router (a URL that does not decode, a path parameter over the length
 * limit) and Node's HTTP parser (headers too large, a malformed request line, a timeout, an `Expect` other than
 * 100-continue). Fastify answers these with its own JSON or Node writes a bare status line; here they get the
 * service's Error body with a catalogue code, an `X-Request-Id` and the same security headers as every answer,
 * and a badge path gets a placeholder SVG instead of JSON, so an `<img>` still shows why.
 *
 * | cause | status | code |
 * |---|---|---|
 * | URL with a bad percent-escape | 400 | bad_request |
 * | path parameter longer than the router's limit | 414 | uri_too_long |
 * | request line or headers over the size limit | 431 | headers_too_large |
 * | `Expect:` other than 100-continue | 417 | expectation_failed |
 * | headers or body not received in time | 408 | request_timeout |
 * | anything else the parser refuses | 400 | bad_request |
 */
import http from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { placeholderBadge } from '../../badge/index.ts';
import { AppError, type ErrorCode } from '../../errors.ts';
import { pageRuleOf, rawFormat, sendHtmlError } from '../page-errors.ts';

/** Headers every answer carries, also the ones written straight to a socket. */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = { 'x-content-type-options': 'nosniff' };

/** A badge address (`/api/badge`, `/api/badge/…`): its refusals are placeholder SVGs, never JSON. */
export const BADGE_PATH = /^\/api\/badge(?:\/|\?|$)/;

/** The router's refusals (Fastify `frameworkErrors`), answered like any route's error. */
export function frameworkErrorAnswer(err: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const tooLong = err.code === 'FST_ERR_MAX_PARAM_LENGTH';
  const e = tooLong
    ? new AppError('uri_too_long', 'The URL path is too long')
    : new AppError('bad_request', 'Malformed URL: it does not decode (check its percent-escapes)', { required: {} });
  reply.header('x-request-id', request.id);
  for (const [k, v] of Object.entries(SECURITY_HEADERS)) reply.header(k, v);
  const url = request.raw.url ?? '';
  if (url.startsWith('/api/')) reply.header('access-control-allow-origin', '*');
  if (BADGE_PATH.test(url)) {
    reply
      .code(e.status)
      .header('cache-control', 'public, max-age=60')
      .type('image/svg+xml; charset=utf-8')
      .send(placeholderBadge(tooLong ? 'URL too long' : 'bad URL'));
    return;
  }
  // A page path (a report, a model page …) refuses a browser with an HTML page, as its route would.
  const rule = pageRuleOf(url.split('?')[0]!);
  if (rule?.wanted(request.headers.accept ?? '', rawFormat(url))) {
    sendHtmlError(
      reply,
      rule,
      e.status,
      (!tooLong && rule.badRequest?.part === 'params' && rule.badRequest.text) || e.message,
    );
    return;
  }
  reply.code(e.status).type('application/json; charset=utf-8').send(JSON.stringify(e.toBody()));
}

function clientErrorOf(err: NodeJS.ErrnoException): { code: ErrorCode; message: string } {
  switch (err.code) {
    case 'HPE_HEADER_OVERFLOW':
      return { code: 'headers_too_large', message: 'Request line or headers are too large' };
    case 'ERR_HTTP_REQUEST_TIMEOUT':
    case 'ERR_HTTP_HEADERS_TIMEOUT':
      return { code: 'request_timeout', message: 'The request was not received in time' };
    default:
      return { code: 'bad_request', message: 'Malformed HTTP request' };
  }
}

/** A complete HTTP/1.1 answer as raw bytes, for the paths where no request object exists. */
function rawAnswer(status: number, requestId: string, body: string, type = 'application/json; charset=utf-8'): string {
  const headers = {
    'content-type': type,
    'content-length': String(Buffer.byteLength(body)),
    'x-request-id': requestId,
    ...SECURITY_HEADERS,
    connection: 'close',
  };
  const lines = Object.entries(headers).map(([k, v]) => `${k}: ${v}`);
  return `HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\n${lines.join('\r\n')}\r\n\r\n${body}`;
}

/** Node's parser refusals (Fastify `clientErrorHandler`): the Error body, then the socket is closed. */
export function makeClientErrorHandler(newId: () => string) {
  return (err: NodeJS.ErrnoException, socket: Socket): void => {
    if (err.code === 'ECONNRESET' || socket.destroyed) return;
    const { code, message } = clientErrorOf(err);
    // a 400 carries `required` (docs/api.md, General): no route was reached, so it names no field
    const e = new AppError(code, message, code === 'bad_request' ? { required: {} } : {});
    if (socket.writable) socket.write(rawAnswer(e.status, newId(), JSON.stringify(e.toBody())));
    socket.destroy();
  };
}

/**
 * An HTTP/1.1 request without a Host header (RFC 9112 §3.2 requires one). Node would refuse it itself with a
 * bare 400 and an empty chunked body, so the server is made with requireHostHeader: false and this answers it
 * with the Error body instead. True when it answered.
 */
export function refuseMissingHost(req: http.IncomingMessage, res: http.ServerResponse, newId: () => string): boolean {
  if (req.headers.host !== undefined || req.httpVersionMajor !== 1 || req.httpVersionMinor < 1) return false;
  const e = new AppError('bad_request', 'An HTTP/1.1 request needs a Host header', { required: {} });
  const body = JSON.stringify(e.toBody());
  res.writeHead(e.status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
    'x-request-id': newId(),
    ...SECURITY_HEADERS,
    connection: 'close',
  });
  res.end(body);
  return true;
}

/** `Expect:` with anything but 100-continue (Node's 'checkExpectation' event): 417 with the Error body. */
export function makeExpectationHandler(newId: () => string) {
  return (req: http.IncomingMessage, res: http.ServerResponse): void => {
    const e = new AppError('expectation_failed', 'Only "Expect: 100-continue" is supported');
    const id = newId();
    const badge = BADGE_PATH.test(req.url ?? '');
    const body = badge ? placeholderBadge('bad request') : JSON.stringify(e.toBody());
    res.writeHead(e.status, {
      'content-type': badge ? 'image/svg+xml; charset=utf-8' : 'application/json; charset=utf-8',
      'content-length': Buffer.byteLength(body),
      'x-request-id': id,
      ...SECURITY_HEADERS,
    });
    res.end(body);
  };
}
