/**
 * A counter write that cannot commit (here: the file-size limit of `ulimit -f`, as a full disk would) must not
 * admit silently: the store throws, and the limiter follows SVC_LIMIT_ON_STORE_ERROR with a log line. Before
 * the fix, `.get()` on `INSERT … RETURNING` returned the row although the autocommit failed: thousands of hits
 * "counted", a handful on disk.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { it } from 'node:test';
import { promisify } from 'node:util';
import { tmpDir } from './helpers.ts';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '..');

const script = (file: string) => `
import { SqliteStore } from ${JSON.stringify(path.join(root, 'src/store/sqlite/index.ts'))};
import { RateLimiter } from ${JSON.stringify(path.join(root, 'src/ratelimit/index.ts'))};
process.on('SIGXFSZ', () => {});
const store = new SqliteStore(${JSON.stringify(file)});
const out = { admitted: 0, threw: null, open: null, closed: null, logs: [] };
for (let i = 0; i < 5000; i++) {
  try {
    await store.hit('k' + i + ':' + 'x'.repeat(200), 3600000, Date.now());
    out.admitted++;
  } catch (e) { out.threw = e.message; break; }
}
const log = { warn: (o, m) => out.logs.push(m), info: (o, m) => out.logs.push(m) };
const open = new RateLimiter(store, log, Date.now, 'open');
out.open = (await open.take('score', 'big:' + 'y'.repeat(4000), 100)).allowed;
const closed = new RateLimiter(store, log, Date.now, 'closed');
try { await closed.take('score', 'big2:' + 'z'.repeat(4000), 100); out.closed = 'admitted'; }
catch (e) { out.closed = e.code; }
console.log(JSON.stringify(out));
// shut down as the service does: the store stops its checkpointing thread first (a last flush may fail: the disk is full)
await store.close().catch(() => {});
process.exit(0);
`;

it('a counter write that cannot commit throws, and the limiter applies its policy with a log line', async () => {
  const dir = tmpDir('svc-full-');
  const file = path.join(dir, 'svc.db');
  const js = path.join(dir, 'full.mts');
  fs.writeFileSync(js, script(file));
  const { stdout } = await run('sh', ['-c', `ulimit -f 400 && exec "${process.execPath}" --import tsx "${js}"`], {
    cwd: root,
    timeout: 60_000,
  });
  const out = JSON.parse(stdout.trim().split('\n').pop()!);
  fs.rmSync(dir, { recursive: true, force: true });
  assert.ok(out.threw, `a failed commit must throw (admitted ${out.admitted} without error)`);
  assert.ok(out.admitted < 5000);
  assert.equal(out.open, true, 'open: counted in memory, admitted');
  assert.equal(out.closed, 'store_unavailable', 'closed: refused');
  assert.ok(
    out.logs.some((m: string) => /rate-limit store unavailable/.test(m)),
    JSON.stringify(out.logs),
  );
});
