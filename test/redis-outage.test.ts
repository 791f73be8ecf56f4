/**
 * Redis stopped mid-run (our own redis-server, never the shared one): submit, keys and waitlist answer 500
 * with a clear message, score keeps answering on in-memory limits, /healthz answers 503; when Redis returns,
 * everything recovers without a restart.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { after, describe, it } from 'node:test';
import { RedisStore } from '../src/store/index.ts';
import { assertError } from './helpers.ts';
import { freePort, freshIp, makeServiceApp } from './store-helpers.ts';

const hasRedisServer = spawnSync('redis-server', ['--version']).status === 0;

async function startRedis(port: number): Promise<ChildProcess> {
  const proc = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: 'ignore' },
  );
  for (let i = 0; i < 100; i++) {
    const probe = new RedisStore(`redis://127.0.0.1:${port}`);
    const ok = await probe.ping();
    await probe.close();
    if (ok) return proc;
    await new Promise((r) => setTimeout(r, 50));
  }
  proc.kill('SIGKILL');
  throw new Error(`redis-server did not start on port ${port}`);
}

const stop = (p: ChildProcess) =>
  new Promise<void>((resolve) =>
    p.exitCode !== null || p.signalCode !== null ? resolve() : (p.once('exit', () => resolve()), p.kill('SIGKILL')),
  );

describe('Redis outage', { skip: hasRedisServer ? false : 'redis-server is not installed' }, () => {
  let redis: ChildProcess | undefined;
  after(async () => {
    if (redis) await stop(redis);
  });

  it('refuses store-backed writes with 500, keeps scoring, reports 503, and recovers by itself', async () => {
    const port = await freePort();
    redis = await startRedis(port);
    const t = await makeServiceApp({ store: new RedisStore(`redis://127.0.0.1:${port}`) });
    try {
      const call = {
        submit: () =>
          t.app.inject({
            method: 'POST',
            url: '/api/submit',
            remoteAddress: freshIp(),
            payload: {
              model_name: 'M',
              vendor: 'V',
              api_endpoint: 'https://e.example',
              contact_email: 'c@example.com',
            },
          }),
        keys: () =>
          t.app.inject({
            method: 'POST',
            url: '/api/keys',
            remoteAddress: freshIp(),
            payload: { email: 'k@example.com' },
          }),
        waitlist: () =>
          t.app.inject({
            method: 'POST',
            url: '/api/waitlist',
            remoteAddress: freshIp(),
            payload: { email: `w${Math.random()}@example.com` },
          }),
        score: () =>
          t.app.inject({
            method: 'POST',
            url: '/api/score',
            remoteAddress: '203.0.113.5',
            payload: { prompt: 'Is my plan good?', response: 'What a brilliant plan!' },
          }),
        health: () => t.app.inject({ method: 'GET', url: '/healthz' }),
      };
      const statuses = async () => ({
        submit: (await call.submit()).statusCode,
        keys: (await call.keys()).statusCode,
        waitlist: (await call.waitlist()).statusCode,
        score: (await call.score()).statusCode,
        health: (await call.health()).statusCode,
      });
      const healthy = { submit: 200, keys: 201, waitlist: 201, score: 200, health: 200 };
      assert.deepEqual(await statuses(), healthy);

      await stop(redis);
      for (const name of ['submit', 'keys', 'waitlist'] as const) {
        const r = await call[name]();
        assert.equal(r.statusCode, 500, name);
        assert.equal(r.json().code, 'store_unavailable', name);
        assert.match(r.json().error, /store .*unavailable/i, name);
      }
      for (let i = 0; i < 3; i++) {
        const r = await call.score();
        assert.equal(r.statusCode, 200, 'score keeps answering');
        assert.match(String(r.headers['ratelimit-policy']), /q=100/);
      }
      const h = await call.health();
      assertError(h, 'not_ready');

      redis = await startRedis(port);
      for (let i = 0; i < 100 && (await call.health()).statusCode !== 200; i++)
        await new Promise((r) => setTimeout(r, 100));
      assert.deepEqual(await statuses(), healthy, 'all recover without a restart');
    } finally {
      await t.close();
    }
  });
});
