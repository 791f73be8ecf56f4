/** Redis persistence is checked at start: warn (default) or refuse (SVC_REDIS_DURABILITY=require). */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { StartupError, checkRedisDurability } from '../src/startup.ts';
import { RedisStore } from '../src/store/index.ts';
import { redisSkip, redisTestUrl } from './store-helpers.ts';

const skip = await redisSkip();
const logs: string[] = [];
const log = { info() {}, warn: (_o: object, m?: string) => void logs.push(m ?? '') };

describe('Redis durability check', () => {
  it('reads the server settings: durable only with appendonly yes and appendfsync always/everysec', {
    skip,
  }, async () => {
    const store = new RedisStore(redisTestUrl('durability'));
    try {
      const p = await store.persistence();
      assert.match(p.detail, /appendonly=(yes|no) appendfsync=\w+/);
      assert.equal(p.durable, /appendonly=yes appendfsync=(always|everysec)/.test(p.detail));
    } finally {
      await store.close();
    }
  });

  it('warns by default and refuses with require when writes are not durable', async () => {
    const rdbOnly = {
      persistence: async () => ({ durable: false, detail: 'appendonly=no appendfsync=everysec save="3600 1"' }),
    };
    logs.length = 0;
    await checkRedisDurability(rdbOnly, 'warn', log);
    assert.match(logs[0]!, /does not persist acknowledged writes.*appendonly yes/);
    await assert.rejects(
      checkRedisDurability(rdbOnly, 'require', log),
      (e: Error) => e instanceof StartupError && /appendonly yes/.test(e.message),
    );
  });

  it('handles a server that refuses CONFIG', async () => {
    const managed = { persistence: async () => ({ durable: null, detail: 'CONFIG GET refused: ERR unknown command' }) };
    logs.length = 0;
    await checkRedisDurability(managed, 'warn', log);
    assert.match(logs[0]!, /could not be checked/);
    await assert.rejects(checkRedisDurability(managed, 'require', log), StartupError);
    const durable = {
      persistence: async () => ({ durable: true, detail: 'appendonly=yes appendfsync=everysec save=""' }),
    };
    logs.length = 0;
    await checkRedisDurability(durable, 'require', log);
    assert.equal(logs.length, 0);
  });
});

describe('Redis durability warning with SVC_WORKERS=2', () => {
  it('is logged once per start, not once per worker', { skip, timeout: 120_000 }, async () => {
    const { spawn } = await import('node:child_process');
    const store = new RedisStore(redisTestUrl('durability'));
    const durable = (await store.persistence()).durable;
    await store.close();
    if (durable !== false) return; // this Redis persists: nothing to warn about
    const url = redisTestUrl('durability-cluster');
    const child = spawn(process.execPath, ['bin/svc.js', 'serve'], {
      cwd: new URL('..', import.meta.url).pathname,
      env: {
        ...process.env,
        PORT: '0',
        HOST: '127.0.0.1',
        SVC_WORKERS: '2',
        SVC_STORE_URL: url,
        LOG_LEVEL: 'info',
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout!.on('data', (c) => (out += c));
    try {
      const listening = () => (out.match(/"msg":"Server listening/g) ?? []).length;
      for (let i = 0; i < 1200 && (listening() < 2 || !out.includes('svc ready (cluster)')); i++) {
        if (child.exitCode !== null) break;
        await new Promise((r) => setTimeout(r, 50));
      }
      assert.equal(listening(), 2, out);
      await new Promise((r) => setTimeout(r, 400)); // log lines are written in batches of at most 250 ms
      assert.equal((out.match(/Redis does not persist acknowledged writes/g) ?? []).length, 1, out);
    } finally {
      child.kill('SIGTERM');
      if (child.exitCode === null) await new Promise((r) => child.once('exit', r));
      // the service seeded its keys (dataset, signing key) under the test's prefix: leave the shared Redis clean
      const seeded = new RedisStore(url);
      await seeded.destroyAll().catch(() => {});
      await seeded.close();
    }
  });
});
