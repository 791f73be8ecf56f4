/**
 * At most MAX_KEYS_PER_EMAIL active keys per address, also when the requests arrive at once: the count and the
 * insert are one atomic store step. With Redis (or several processes on one SQLite file) ten simultaneous
 * requests for one address used to get ten keys, since each read the count before any of the others wrote.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, it } from 'node:test';
import { issueApiKey, MAX_KEYS_PER_EMAIL } from '../src/domain/keys.ts';
import { MemoryStore, RedisStore, SqliteStore, type Store } from '../src/store/index.ts';
import { tmpDir } from './helpers.ts';
import { redisSkip, redisTestUrl } from './store-helpers.ts';

async function race(store: Store): Promise<void> {
  const outs = await Promise.all(
    Array.from({ length: 10 }, (_, i) =>
      issueApiKey(store, { email: i % 2 ? 'Race@Example.com' : 'race@example.com' }, Date.now()),
    ),
  );
  const created = outs.filter((o) => o.kind === 'created').length;
  assert.equal(created, MAX_KEYS_PER_EMAIL, outs.map((o) => o.kind).join(' '));
  for (const o of outs) if (o.kind === 'too_many_keys') assert.equal(o.held, MAX_KEYS_PER_EMAIL);
  const held = (await store.listKeys()).filter((k) => k.email.toLowerCase() === 'race@example.com').length;
  assert.equal(held, MAX_KEYS_PER_EMAIL);
  // a revoked key frees its place
  const first = (await store.listKeys())[0]!;
  await store.updateKey(first.id, { revoked: true });
  assert.equal((await issueApiKey(store, { email: 'RACE@example.com' }, Date.now())).kind, 'created');
  assert.equal((await issueApiKey(store, { email: 'race@example.com' }, Date.now())).kind, 'too_many_keys');
}

describe('the per-address key cap under simultaneous requests', () => {
  it('memory (not configured for the service, but the store method keeps the cap)', async () => {
    const store = new MemoryStore();
    const rec = (i: number) => ({
      id: `key_${String(i).padStart(12, '0')}`,
      hash: String(i).repeat(64).slice(0, 64),
      email: i % 2 ? 'Race@Example.com' : 'race@example.com',
      plan: 'free',
      createdAt: new Date(0).toISOString(),
      rateLimit: 1000,
      callsRemaining: 1000,
      active: true,
      revoked: false,
    });
    const outs = await Promise.all(Array.from({ length: 10 }, (_, i) => store.createKeyCapped(rec(i), 3)));
    assert.equal(outs.filter((o) => o.created).length, 3);
    assert.equal((await store.listKeys()).length, 3);
  });

  it('SQLite', async () => {
    const store = new SqliteStore(path.join(tmpDir('svc-keyrace-'), 'svc.db'));
    try {
      await race(store);
    } finally {
      await store.close();
    }
  });

  it('Redis', async (t) => {
    const skip = await redisSkip();
    if (skip) return t.skip(skip);
    const store = new RedisStore(redisTestUrl('keyrace'));
    try {
      await race(store);
    } finally {
      await store.destroyAll().catch(() => {});
      await store.close();
    }
  });
});
