/** /metrics: Prometheus text on its own port (never the public one), with request, engine and limiter figures. */
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { it } from 'node:test';
import { startMetricsServer } from '../src/metrics.ts';
import { makeApp } from './helpers.ts';

it('serves request counts, latency histograms, engine time and rejections on the metrics port only', async () => {
  const t = await makeApp();
  const server = await startMetricsServer(0, '127.0.0.1');
  const port = (server.address() as AddressInfo).port;
  await t.app.inject('/api/leaderboard');
  await t.app.inject({
    method: 'POST',
    url: '/api/score',
    payload: { prompt: 'Is my plan good?', response: 'What a brilliant plan, you are absolutely right!' },
  });
  for (let i = 0; i < 6; i++)
    await t.app.inject({ method: 'POST', url: '/api/submit', payload: {}, remoteAddress: '203.0.113.200' });
  assert.equal((await t.app.inject('/metrics')).statusCode, 404, 'not on the public port');
  const r = await fetch(`http://127.0.0.1:${port}/metrics`);
  assert.equal(r.status, 200);
  assert.match(r.headers.get('content-type') ?? '', /text\/plain/);
  const text = await r.text();
  assert.match(text, /svc_http_requests_total\{method="GET",route="\/api\/leaderboard",status="200"\} [1-9]/);
  assert.match(
    text,
    /svc_http_request_duration_seconds_bucket\{le="0\.005",method="POST",route="\/api\/score",status="200"\}/,
  );
  assert.match(text, /svc_engine_duration_seconds_count\{operation="score"\} [1-9]/);
  assert.match(text, /svc_rate_limit_rejections_total\{operation="submit",reason="rate_limited"\} [1-9]/);
  assert.match(text, /svc_eval_queue_depth /);
  assert.match(text, /process_resident_memory_bytes /);
  assert.equal((await fetch(`http://127.0.0.1:${port}/other`)).status, 404);
  server.close();
  await t.close();
});
