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
