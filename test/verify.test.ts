import { round2 } from '../src/scoring/types.ts';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { auditLogFor } from '../src/audit/log.ts';
import { certifyReports, sealReport } from '../src/domain/reports.ts';
import { SqliteStore } from '../src/store/index.ts';
import { sampleReport, tamperReport } from './audit-helpers.ts';
import { assertError, makeApp, tmpDir, type TestApp } from './helpers.ts';

describe('GET /api/verify', () => {
  let t: TestApp;
  let file: string;
  const sealed = ['alpha', 'bravo', 'charlie'].map((s) => sealReport(sampleReport(s)));
  const get = (q: string, headers: Record<string, string> = {}, ip = '203.0.113.1') =>
    t.app.inject({ method: 'GET', url: `/api/verify${q}`, headers, remoteAddress: ip });

  before(async () => {
    const dir = tmpDir('svc-verify-');
    file = path.join(dir, 'svc.db');
    const store = new SqliteStore(file);
    await certifyReports(store, auditLogFor(store), sealed);
    t = await makeApp({ store });
  });
  after(() => t.close());

  it('answers verified true with a prefixed report id, the model and generated_at; any case of hex', async () => {
    const h = sealed[0]!.hash;
    for (const q of [h, h.toUpperCase()]) {
      const res = await get(`?hash=${q}`);
      assert.equal(res.statusCode, 200);
      assert.deepEqual(res.json(), {
        verified: true,
        report_id: `rep_${h.slice(0, 12)}`,
        model: 'alpha',
        generated_at: '2026-11-01T00:00:00.000Z',
      });
    }
  });

  it('answers 400 for a missing or malformed hash, with the Error body', async () => {
    for (const q of ['', '?hash=', `?hash=${'a'.repeat(63)}`, `?hash=${'g'.repeat(64)}`, `?hash=${'a'.repeat(65)}`]) {
      const res = await get(q);
      assertError(res, 'bad_request', q);
    }
  });

  it('answers verified false with a message for a well-formed unknown hash', async () => {
    const res = await get(`?hash=${'ab'.repeat(32)}`);
    assert.equal(res.statusCode, 200);
    assert.equal(res.json().verified, false);
    assert.match(res.json().message, /Unknown report hash/);
  });

  it('gives the alternate shape for a sha256: hash or ?format=quickref', async () => {
    const h = sealed[1]!.hash;
    const res = await get(`?hash=sha256:${h}`);
    assert.equal(res.statusCode, 200);
    const body = res.json();
    assert.equal(body.valid, true);
    assert.equal(body.hash, `sha256:${h}`);
    assert.equal(body.model, 'bravo');
    assert.equal(body.scored_at, '2026-11-01T00:00:00.000Z');
    assert.equal(body.composite_score, round2(sampleReport('bravo').scores.pai.composite));
    assert.equal((await get(`?hash=${h}&format=quickref`)).json().valid, true);
  });

  it('catches one changed byte of a stored report', async () => {
    const h = sealed[2]!.hash;
    assert.equal((await get(`?hash=${h}`)).json().verified, true);
    tamperReport(file, h);
    const body = (await get(`?hash=${h}`)).json();
    assert.equal(body.verified, false);
    assert.match(body.message, /no longer matches its hash/);
  });

  it('catches one changed byte of a log entry', async () => {
    const h = sealed[0]!.hash;
    assert.equal((await get(`?hash=${h}`)).json().verified, true);
    const leaf = createHash('sha256')
      .update(Buffer.concat([Buffer.from([0]), Buffer.from(h, 'hex')]))
      .digest('hex');
    const db = new Database(file);
    const changed = (leaf[0] === '0' ? '1' : '0') + leaf.slice(1);
    db.prepare('UPDATE log_leaves SET hash = ? WHERE hash = ?').run(changed, leaf);
    db.close();
    const body = (await get(`?hash=${h}`)).json();
    assert.equal(body.verified, false);
    assert.match(body.message, /audit log/);
  });

  it('is limited to 50 requests per hour per IP', async () => {
    const ip = '203.0.113.77';
    for (let i = 0; i < 50; i++) assert.equal((await get(`?hash=${sealed[1]!.hash}`, {}, ip)).statusCode, 200);
    const res = await get(`?hash=${sealed[1]!.hash}`, {}, ip);
    assert.equal(res.statusCode, 429);
    assert.match(res.json().error, /50 requests per hour/);
    assert.ok(res.headers['retry-after']);
  });
});
