/** SQLite counter writes made together are committed together (group commit) and stay exact. */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { it } from 'node:test';
import { SqliteStore } from '../src/store/sqlite/index.ts';
import { tmpDir } from './helpers.ts';

it('concurrent hits and allowance takes in one turn: every count distinct, exactly the allowance taken', async () => {
  const dir = tmpDir();
  const file = path.join(dir, 'svc.db');
  const store = new SqliteStore(file);
  await store.createKey({
    id: 'k1',
    hash: 'h1',
    email: 'a@example.com',
    plan: 'free',
    createdAt: '2026-11-24T00:00:00.000Z',
    rateLimit: 1000,
    callsRemaining: 150,
    active: true,
    revoked: false,
  });
  const now = Date.UTC(2026, 10, 24, 12);
  const walBefore = fs.existsSync(`${file}-wal`) ? fs.statSync(`${file}-wal`).size : 0;
  const results = await Promise.all(
    Array.from({ length: 200 }, () => store.hitAndConsume('key:k1', 3_600_000, now, 1000, 'h1')),
  );
  assert.deepEqual(
    results.map((r) => r.count).sort((a, b) => a - b),
    Array.from({ length: 200 }, (_, i) => i + 1),
  );
  assert.equal(results.filter((r) => (r.callsRemaining ?? -1) >= 0).length, 150);
  assert.equal((await store.getKeyByHash('h1'))!.callsRemaining, 0);
  // One transaction, not 200: the WAL grew by a few pages, not by hundreds.
  const grown = fs.statSync(`${file}-wal`).size - walBefore;
  assert.ok(grown < 50 * 4096, `WAL grew ${grown} bytes`);
  await store.close();
  fs.rmSync(dir, { recursive: true, force: true });
});
