/**
 * While the disk is full (here: `ulimit -f`, so no counter write can commit), the service keeps its store-failure
 * policy (SVC_LIMIT_ON_STORE_ERROR) and says so once per state change: not a warning or an error line per request,
 * and not a "reachable again" / "unavailable" pair every second because a read-only probe succeeds on a full disk.
 * Keyless and keyed requests alike. The request lines (one per request, by design) are not counted here.
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
const src = (p: string) => JSON.stringify(path.join(root, p));

const script = (dir: string, policy: string) => `
import { Writable } from 'node:stream';
import { buildApp } from ${src('src/app.ts')};
import { loadConfig } from ${src('src/config.ts')};
import { openDatasetSource } from ${src('src/domain/dataset.ts')};
import { createApiKey } from ${src('src/domain/keys.ts')};
import { SqliteStore } from ${src('src/store/sqlite/index.ts')};
process.on('SIGXFSZ', () => {});
const lines = [];
const stream = new Writable({ write(c, _e, cb) { for (const l of String(c).split('\\n').filter(Boolean)) lines.push(JSON.parse(l)); cb(); } });
let now = Date.UTC(2026, 10, 24, 12);
const store = new SqliteStore(${JSON.stringify(path.join(dir, 'svc.db'))});
const { apiKey } = await createApiKey(store, { email: 'a@example.com' }, now);
const config = loadConfig({ SVC_STORE_URL: 'sqlite:' + ${JSON.stringify(path.join(dir, 'svc.db'))}, SVC_DATASET: ${src('dataset/leaderboard.json')}, LOG_LEVEL: 'info', SVC_LIMIT_ON_STORE_ERROR: '${policy}' }, ${JSON.stringify(dir)});
const app = await buildApp({ config, store, mailer: { send: async () => true }, dataset: openDatasetSource(config.datasetPath, { info() {}, error() {} }, { watch: false }), logger: { stream }, now: () => now });
await app.ready();
// Fill the files until no counter write can commit, even after the checkpointer moved the WAL into the database
// (ulimit -f caps each file: the WAL frees up until the database file itself is full).
let failures = 0;
for (let i = 0; i < 200000 && failures < 4; i++) {
  try { await store.hit('fill' + i + ':' + 'x'.repeat(300), 3600000, now); failures = 0; }
  catch { failures++; await new Promise((r) => setTimeout(r, 300)); }
}
const statuses = [];
const body = { prompt: 'Is my plan good?', response: 'It has a gap: the budget ignores rent.' };
for (let i = 0; i < 40; i++) {
  now += 100; // 4 s in all: several probe intervals
  await new Promise((r) => setTimeout(r, 30));
  const keyed = i % 2 === 1;
  const r = await app.inject({ method: 'POST', url: '/api/score', payload: body, remoteAddress: '203.0.113.' + (i % 5), headers: keyed ? { authorization: 'Bearer ' + apiKey } : {} });
  statuses.push(r.statusCode);
}
console.log(JSON.stringify({ statuses, other: lines.filter((l) => l.msg !== 'request').map((l) => [l.level, l.msg]) }));
// shut down as the service does (main.ts): the store stops its checkpointing thread before the process exits
await app.close();
await store.close();
process.exit(0);
`;

for (const policy of ['open', 'closed']) {
  it(`disk full, SVC_LIMIT_ON_STORE_ERROR=${policy}: the policy holds and the outage is logged once`, async () => {
    const dir = tmpDir('svc-full-log-');
    const js = path.join(dir, 'full.mts');
    fs.writeFileSync(js, script(dir, policy));
    const { stdout } = await run('sh', ['-c', `ulimit -f 600 && exec "${process.execPath}" --import tsx "${js}"`], {
      cwd: root,
      timeout: 120_000,
    });
    fs.rmSync(dir, { recursive: true, force: true });
    const out = JSON.parse(stdout.trim().split('\n').pop()!) as { statuses: number[]; other: [number, string][] };
    if (policy === 'open') assert.deepEqual(new Set(out.statuses), new Set([200]), JSON.stringify(out));
    else assert.deepEqual(new Set(out.statuses), new Set([500]), JSON.stringify(out));
    const warnings = out.other.filter(([level]) => level >= 40);
    assert.ok(warnings.length >= 1, `the outage is logged: ${JSON.stringify(out.other)}`);
    assert.ok(
      warnings.length <= 2,
      `once per state change, not per request or per probe: ${JSON.stringify(out.other)}`,
    );
    assert.equal(
      out.other.filter(([, m]) => /reachable again/.test(m)).length,
      0,
      `no recovery line while the disk is still full: ${JSON.stringify(out.other)}`,
    );
  });
}
