/**
 * Errors raised before a route runs (router and HTTP parser) answer the Error body with a catalogue code, a
 * request id and the security headers; the badge path answers a placeholder SVG. Spoken to over a real port,
 * because the parser's refusals never reach inject().
 */
import assert from 'node:assert/strict';
import net from 'node:net';
import { after, before, it } from 'node:test';
import { makeApp, type TestApp } from './helpers.ts';

let t: TestApp;
let port: number;
before(async () => {
  t = await makeApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as net.AddressInfo).port;
});
after(() => t.close());

/** Send raw bytes, read until the server closes or a complete answer with Content-Length arrived. */
function raw(bytes: string): Promise<{ status: number; headers: Record<string, string>; body: string }> {
  return new Promise((resolve, reject) => {
    const s = net.connect(port, '127.0.0.1');
    let buf = '';
    const done = () => {
      const at = buf.indexOf('\r\n\r\n');
      if (at < 0) return false;
      const [line, ...rest] = buf.slice(0, at).split('\r\n');
      const headers: Record<string, string> = {};
      for (const h of rest) {
        const i = h.indexOf(':');
        headers[h.slice(0, i).toLowerCase()] = h.slice(i + 1).trim();
      }
      const body = buf.slice(at + 4);
      if (headers['content-length'] !== undefined && Buffer.byteLength(body) < Number(headers['content-length']))
        return false;
      s.destroy();
      resolve({ status: Number(line!.split(' ')[1]), headers, body });
      return true;
    };
    s.on('data', (d) => {
      buf += d.toString();
      done();
    });
    s.on('end', () => done() || reject(new Error(`incomplete answer: ${buf}`)));
    s.on('error', (e) => done() || reject(e));
    s.write(bytes);
  });
}

function assertErrorBody(
  r: { status: number; headers: Record<string, string>; body: string },
  status: number,
  code: string,
) {
  assert.equal(r.status, status, r.body);
  assert.match(r.headers['content-type'] ?? '', /application\/json/);
  assert.equal(r.headers['x-content-type-options'], 'nosniff');
  assert.match(r.headers['x-request-id'] ?? '', /^req_/);
  const body = JSON.parse(r.body);
  assert.equal(body.code, code);
  assert.equal(typeof body.error, 'string');
}

it('a URL that does not decode answers 400 bad_request with the Error body', async () => {
  assertErrorBody(await raw('GET /api/leaderboard% HTTP/1.1\r\nHost: x\r\n\r\n'), 400, 'bad_request');
});

it('a too-long path parameter answers 414 uri_too_long', async () => {
  // (Accept: JSON: a page path answers a browser, or a client without Accept, with an HTML page: page-errors.test.ts)
  assertErrorBody(
    await raw(`GET /report/${'a'.repeat(300)} HTTP/1.1\r\nHost: x\r\nAccept: application/json\r\n\r\n`),
    414,
    'uri_too_long',
  );
  const r = await raw(`GET /api/badge/${'a'.repeat(300)} HTTP/1.1\r\nHost: x\r\n\r\n`);
  assert.equal(r.status, 414);
  assert.match(r.headers['content-type'] ?? '', /image\/svg\+xml/);
  assert.match(r.body, /^<svg/);
  assert.equal(r.headers['x-content-type-options'], 'nosniff');
});

it('a badge URL that does not decode answers a placeholder SVG', async () => {
  const r = await raw('GET /api/badge/x%ZZ HTTP/1.1\r\nHost: x\r\n\r\n');
  assert.equal(r.status, 400);
  assert.match(r.headers['content-type'] ?? '', /image\/svg\+xml/);
  assert.match(r.body, /^<svg/);
  assert.match(r.headers['x-request-id'] ?? '', /^req_/);
});

it('headers over the size limit answer 431 headers_too_large', async () => {
  assertErrorBody(
    await raw(`GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`),
    431,
    'headers_too_large',
  );
});

it('an Expect other than 100-continue answers 417 expectation_failed', async () => {
  assertErrorBody(await raw('GET /healthz HTTP/1.1\r\nHost: x\r\nExpect: foo\r\n\r\n'), 417, 'expectation_failed');
});

it('a malformed request line answers 400 bad_request', async () => {
  assertErrorBody(await raw('GARBAGE\r\n\r\n'), 400, 'bad_request');
});

it('an HTTP/1.1 request without Host answers 400 bad_request with the Error body (not an empty chunked 400)', async () => {
  const r = await raw('GET /healthz HTTP/1.1\r\nConnection: close\r\n\r\n');
  assertErrorBody(r, 400, 'bad_request');
  assert.match(JSON.parse(r.body).error, /Host/);
  // HTTP/1.0 needs no Host.
  assert.equal((await raw('GET /healthz HTTP/1.0\r\n\r\n')).status, 200);
});
