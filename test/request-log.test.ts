/** Request logs: one line per request with method, route, status, time and request id; no query string ever. */
import assert from 'node:assert/strict';
import net, { type AddressInfo } from 'node:net';
import { once } from 'node:events';
import { Writable } from 'node:stream';
import { it } from 'node:test';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { openDatasetSource } from '../src/domain/dataset.ts';
import { MemoryStore } from '../src/store/index.ts';
import { makeApp, silentLog } from './helpers.ts';

async function loggedApp(env: Record<string, string> = {}) {
  const t = await makeApp();
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk, _enc, cb) {
      for (const l of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(l));
      cb();
    },
  });
  const config = loadConfig({ SVC_STORE_URL: 'memory', SVC_DATASET: t.datasetFile, LOG_LEVEL: 'info', ...env }, t.dir);
  const app = await buildApp({
    config,
    store: new MemoryStore(),
    mailer: { send: async () => true },
    dataset: openDatasetSource(t.datasetFile, silentLog),
    logger: { stream },
  });
  return { app, lines, t };
}

it('logs one line per request: method, route, status, ms and the request id', async () => {
  const { app, lines, t } = await loggedApp();
  const r = await app.inject({ url: '/api/badge/green-model?style=flat', headers: { 'x-request-id': 'abc-1' } });
  assert.equal(r.statusCode, 200);
  const mine = lines.filter((l) => l.reqId === 'abc-1');
  assert.equal(mine.length, 1, JSON.stringify(lines));
  const l = mine[0]!;
  assert.equal(l.msg, 'request');
  assert.equal(l.level, 30);
  assert.equal(l.method, 'GET');
  assert.equal(l.route, '/api/badge/:slug');
  assert.equal(l.status, 200);
  assert.equal(typeof l.ms, 'number');
  await app.close();
  await t.close();
});

it('never logs a key, however the query spells it', async () => {
  const { app, lines, t } = await loggedApp();
  const secret = `sk-svc-${'1'.repeat(32)}`;
  for (const q of ['key', '%6bey', 'k%65y', 'key[]', 'KEY', 'token']) {
    await app.inject({ url: `/api/keys?${q}=${secret}` });
    await app.inject({ url: `/no/such/path?${q}=${secret}` });
  }
  await app.inject({ url: '/api/leaderboard', headers: { authorization: `Bearer ${secret}` } });
  assert.ok(lines.length >= 13);
  assert.doesNotMatch(JSON.stringify(lines), /1111111111/);
  assert.ok(lines.some((l) => l.route === '/no/such/path' && l.status === 404));
  await app.close();
  await t.close();
});

it('samples ordinary requests by SVC_LOG_SAMPLE and always logs 5xx', async () => {
  const { app, lines, t } = await loggedApp({ SVC_LOG_SAMPLE: '0' });
  for (let i = 0; i < 20; i++) await app.inject({ url: '/api/leaderboard' });
  assert.equal(lines.filter((l) => l.msg === 'request').length, 0);
  // Without a configured store, creating a key is a 500 (store_not_configured): logged despite the sampling.
  const r = await app.inject({ method: 'POST', url: '/api/keys', payload: { email: 'a@example.com' } });
  assert.equal(r.statusCode, 500);
  assert.deepEqual(
    lines.filter((l) => l.msg === 'request').map((l) => [l.route, l.status]),
    [['/api/keys', 500]],
  );
  await app.close();
  await t.close();
});

it('writes a path no route matched as a JSON string: quotes and backslashes cannot forge fields', async () => {
  const { app, lines, t } = await loggedApp();
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as AddressInfo;
  // Raw bytes on a socket: fetch and inject would percent-encode the quotes.
  const path = '/no/x","status":200,"forged":"\\';
  const socket = net.connect(port, '127.0.0.1');
  let answer = '';
  socket.on('data', (d) => (answer += d));
  socket.write(
    Buffer.from(
      `GET ${path}?key=sk-secret HTTP/1.1\r\nHost: x\r\nX-Request-Id: forge-1\r\nConnection: close\r\n\r\n`,
      'latin1',
    ),
  );
  await once(socket, 'close');
  assert.match(answer, /^HTTP\/1\.1 404 /);
  await app.close();
  const mine = lines.filter((l) => l.reqId === 'forge-1');
  assert.equal(mine.length, 1, JSON.stringify(lines));
  assert.equal(mine[0]!.route, path);
  assert.equal(mine[0]!.status, 404);
  assert.equal(mine[0]!.forged, undefined);
  assert.doesNotMatch(JSON.stringify(lines), /sk-secret/);
  await t.close();
});

it('never logs a submission status token, even on a path no route matched (a trailing slash, an extra segment)', async () => {
  // docs/api.md: request logs show /submissions/[redacted]; the token is the key to a submitter's status page.
  const { app, lines, t } = await loggedApp();
  const token = 'T'.repeat(32);
  for (const url of [
    `/submissions/${token}`,
    `/submissions/${token}/`,
    `/submissions/${token}/x`,
    `/submissions/${token}%ZZ`,
  ])
    await app.inject({ url, headers: { 'x-request-id': 'tok-1' } });
  await app.close();
  const mine = lines.filter((l) => l.reqId === 'tok-1');
  assert.ok(mine.length >= 3, JSON.stringify(lines));
  assert.doesNotMatch(JSON.stringify(lines), /TTTTTTTT/);
  assert.ok(mine.some((l) => l.route === '/submissions/[redacted]' && l.status === 404));
  await t.close();
});

it('logs the requests the router refuses before any route runs (a path that does not decode, one too long)', async () => {
  // README, Logs: one line per request. A 400 or 414 from the router had none, so an operator could not see them.
  const { app, lines, t } = await loggedApp();
  await app.inject({ url: '/models/%ZZ', headers: { 'x-request-id': 'router-1' } });
  await app.inject({ url: `/report/${'a'.repeat(300)}?key=sk-secret`, headers: { 'x-request-id': 'router-2' } });
  await app.close();
  const one = lines.find((l) => l.reqId === 'router-1' && l.msg === 'request');
  const two = lines.find((l) => l.reqId === 'router-2' && l.msg === 'request');
  assert.equal(one?.status, 400, JSON.stringify(lines));
  assert.equal(one?.route, '/models/%ZZ');
  assert.equal(two?.status, 414, JSON.stringify(lines));
  assert.doesNotMatch(JSON.stringify(lines), /sk-secret/);
  await t.close();
});
