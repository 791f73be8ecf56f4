/**
 * Verified keys are remembered for a second per Authorization header (src/http/plugins/auth.ts): a change made in
 * this process applies at once, one made by another process within KEY_CACHE_MS; refusals are never remembered.
 * The clock is the injected one: no real waits.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { it } from 'node:test';
import { createApiKey } from '../src/domain/keys.ts';
import { KEY_CACHE_MS } from '../src/http/plugins/auth.ts';
import { SqliteStore } from '../src/store/sqlite/index.ts';
import { makeApp, tmpDir } from './helpers.ts';

const BODY = { prompt: 'Is my plan good?', response: 'It has a gap: the budget ignores rent.' };

it('a key revoked by another process stops working within KEY_CACHE_MS; one revoked here, at once', async () => {
  const dir = tmpDir();
  const file = path.join(dir, 'svc.db');
  let now = Date.UTC(2026, 10, 24, 12);
  const t = await makeApp({ store: new SqliteStore(file), now: () => now });
  const other = new SqliteStore(file); // another process's connection to the same file (`svc keys revoke`)
  const score = (key: string) =>
    t.app.inject({ method: 'POST', url: '/api/score', payload: BODY, headers: { authorization: `Bearer ${key}` } });
  const a = await createApiKey(t.store, { email: 'a@example.com' }, now);
  assert.equal((await score(a.apiKey)).statusCode, 200);
  await other.updateKey(a.record.id, { revoked: true });
  assert.equal((await score(a.apiKey)).statusCode, 200, 'remembered for up to KEY_CACHE_MS');
  now += KEY_CACHE_MS;
  assert.equal((await score(a.apiKey)).statusCode, 401, 'looked up again after KEY_CACHE_MS');

  const b = await createApiKey(t.store, { email: 'b@example.com' }, now);
  assert.equal((await score(b.apiKey)).statusCode, 200);
  await t.store.updateKey(b.record.id, { revoked: true });
  assert.equal((await score(b.apiKey)).statusCode, 401, 'a change through this store applies at once');

  // The allowance is still taken in the store on every request, remembered key or not.
  const c = await createApiKey(t.store, { email: 'c@example.com' }, now);
  assert.equal((await score(c.apiKey)).statusCode, 200); // the day's first request (refills the allowance)
  await t.store.updateKey(c.record.id, { callsRemaining: 3 });
  for (let i = 0; i < 3; i++) assert.equal((await score(c.apiKey)).statusCode, 200);
  assert.equal((await t.store.getKeyByHash(c.record.hash))!.callsRemaining, 0);
  await other.close();
  await t.close();
});
