/** SQLite counter writes made together are committed together (group commit) and stay exact. */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { it } from 'node:test';
import type { Worker } from 'node:worker_threads';
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

it('processes opening a new file at once all start (schema and migrations taken in turn)', async () => {
  const { execFile } = await import('node:child_process');
  const { promisify } = await import('node:util');
  const run = promisify(execFile);
  const dir = tmpDir();
  const file = path.join(dir, 'svc.db');
  const js = path.join(dir, 'open.mts');
  const src = JSON.stringify(path.resolve(import.meta.dirname, '../src/store/sqlite/index.ts'));
  // Each process loads its modules, then waits for the same instant to open the file: they collide.
  const at = Date.now() + 4000;
  fs.writeFileSync(
    js,
    `import { SqliteStore } from ${src};\nwhile (Date.now() < ${at});\nconst s = new SqliteStore(${JSON.stringify(file)});\nawait s.close();\nconsole.log('ok');\n`,
  );
  const results = await Promise.allSettled(
    Array.from({ length: 6 }, () => run(process.execPath, ['--import', 'tsx', js], { timeout: 60_000 })),
  );
  const failed = results.filter((r) => r.status === 'rejected').map((r) => String((r as PromiseRejectedResult).reason));
  assert.deepEqual(failed, []);
  fs.rmSync(dir, { recursive: true, force: true });
});

it('close() lets the checkpointing thread stop by itself (exit code 0), not terminated mid-checkpoint', async () => {
  const dir = tmpDir();
  const store = new SqliteStore(path.join(dir, 'svc.db'));
  await store.hit('a', 60_000, Date.UTC(2026, 10, 24, 12));
  const worker = (store as unknown as { checkpointer?: { worker: Worker } }).checkpointer?.worker;
  assert.ok(worker !== undefined, 'a file store runs a checkpointing thread');
  const code = new Promise<number>((resolve) => worker.once('exit', resolve));
  await store.close();
  // terminate() ends a worker with code 1; a worker that stops its timer and connection exits with 0
  assert.equal(await code, 0);
  fs.rmSync(dir, { recursive: true, force: true });
});
