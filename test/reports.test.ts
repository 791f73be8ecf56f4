import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import Database from 'better-sqlite3';
import { AuditLog } from '../src/audit/log.ts';
import {
  buildReport,
  certifyReports,
  ensureBundledReports,
  sealReport,
  summarize,
  writeReportFile,
} from '../src/domain/reports.ts';
import { readDatasetFile } from '../src/domain/dataset.ts';
import { SqliteStore } from '../src/store/index.ts';
import { makeApp, tmpDir, type TestApp } from './helpers.ts';
import { sampleReport, tamperReport, transcript } from './audit-helpers.ts';

const run = promisify(execFile);
const sha = (s: string) => createHash('sha256').update(s).digest('hex');

describe('report content', () => {
  it('summarizes with mean, sample sd and interpolated quartiles', () => {
    assert.deepEqual(summarize([1, 2, 3, 4]), {
      mean: 2.5,
      sd: 1.291,
      min: 1,
      q1: 1.75,
      median: 2.5,
      q3: 3.25,
      max: 4,
    });
    assert.deepEqual(summarize([7]), { mean: 7, sd: 0, min: 7, q1: 7, median: 7, q3: 7, max: 7 });
  });

  it('scores a model as the means over its transcripts, with honesty and composite by the contract rules', () => {
    const r = buildReport({
      model: { slug: 'm', name: 'M', vendor: 'V' },
      datasetVersion: 'v3',
      generatedAt: '2026-01-01T00:00:00.000Z',
      engine: { name: 'e', version: '1' },
      judges: ['e 1'],
      transcripts: [transcript(2), transcript(4)],
    });
    assert.equal(r.transcripts, 2);
    assert.equal(r.scores.sycophancy.ev, 3);
    assert.equal(r.scores.sycophancy.honesty, 100 - ((3 + 1.5 + 1 + 0 + 3) / 5) * 10);
    assert.equal(r.scores.pai.composite, (0.75 + 0 + 0.5 + 1 + 0) / 5);
    assert.equal(r.scores.pai.risk, 'low');
    assert.equal(r.statistics.ev.sd, 1.4142);
  });

  it('hashes the RFC 8785 canonical JSON, whatever the key order', () => {
    const a = sealReport({ b: 1, a: [1.5, 'x'] });
    assert.equal(a.json, '{"a":[1.5,"x"],"b":1}');
    assert.equal(a.hash, sha('{"a":[1.5,"x"],"b":1}'));
    assert.equal(sealReport({ a: [1.5, 'x'], b: 1 }).hash, a.hash);
  });
});

describe('GET /report/<id>', () => {
  let t: TestApp;
  const hostile = sealReport(sampleReport('hostile', '<script>alert("x")</script> & "Co"'));
  before(async () => {
    const store = new SqliteStore(path.join(tmpDir('svc-report-'), 'svc.db'));
    await certifyReports(store, new AuditLog(store), [hostile]);
    // Two reports whose hashes share a 12-character prefix (lookup does not check content).
    await store.putReport(`abcdefabcdef${'1'.repeat(52)}`, '{}');
    await store.putReport(`abcdefabcdef${'2'.repeat(52)}`, '{}');
    t = await makeApp({ store });
  });
  after(() => t.close());
  const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers });

  it('serves a readable HTML page with every value escaped', async () => {
    const res = await get(`/report/${hostile.hash}`, { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' });
    assert.equal(res.statusCode, 200);
    assert.match(res.headers['content-type'] as string, /^text\/html/);
    assert.ok(!res.body.includes('<script>'), 'no raw script tag');
    assert.ok(res.body.includes('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &quot;Co&quot;'));
    assert.ok(res.body.includes(hostile.hash));
    assert.equal(res.headers.vary, 'Accept');
  });

  it('serves the canonical JSON (whose SHA-256 is the hash) by Accept or ?format=json', async () => {
    for (const [url, headers] of [
      [`/report/${hostile.hash}`, { accept: 'application/json' }],
      [`/report/${hostile.hash}?format=json`, {}],
      [`/report/${hostile.hash.slice(0, 12).toUpperCase()}?format=json`, {}],
      [`/report/rep_${hostile.hash.slice(0, 12)}`, { accept: 'text/html;q=0.5, application/json' }],
    ] as const) {
      const res = await get(url, headers);
      assert.equal(res.statusCode, 200, url);
      assert.match(res.headers['content-type'] as string, /^application\/json/);
      assert.equal(sha(res.body), hostile.hash, url);
      assert.equal(res.json().model.slug, 'hostile');
    }
  });

  it('answers 404 unknown, 400 malformed and 409 with the candidates for an ambiguous prefix', async () => {
    assert.equal((await get(`/report/${'f'.repeat(64)}`)).statusCode, 404);
    assert.equal((await get('/report/0123456789ab')).statusCode, 404);
    for (const bad of ['abc', 'x'.repeat(64), 'a'.repeat(11), 'a'.repeat(65)])
      assert.equal((await get(`/report/${bad}`)).statusCode, 400, bad);
    const res = await get('/report/abcdefabcdef', { accept: 'application/json' });
    assert.equal(res.statusCode, 409);
    assert.deepEqual(res.json().candidates, [`abcdefabcdef${'1'.repeat(52)}`, `abcdefabcdef${'2'.repeat(52)}`]);
    assert.equal((await get(`/report/abcdefabcdef1`)).statusCode, 200);
  });

  it('answers a matching If-None-Match with 304, and gives the HTML page an ETag of its own', async () => {
    // The JSON and the page are two representations of one URL (Vary: Accept): they cannot share a strong ETag.
    const json = await get(`/report/${hostile.hash}`, { accept: 'application/json' });
    assert.equal(json.headers.etag, `"${hostile.hash}"`);
    const again = await get(`/report/${hostile.hash}`, {
      accept: 'application/json',
      'if-none-match': json.headers.etag as string,
    });
    assert.equal(again.statusCode, 304);
    assert.equal(again.body, '');
    assert.equal(again.headers.etag, json.headers.etag);
    assert.equal(again.headers.vary, 'Accept');
    const viaPrefix = await get(`/report/rep_${hostile.hash.slice(0, 12)}?format=json`, {
      'if-none-match': `W/"${hostile.hash}"`,
    });
    assert.equal(viaPrefix.statusCode, 304);
    const html = await get(`/report/${hostile.hash}`, {
      accept: 'text/html',
      'if-none-match': json.headers.etag as string,
    });
    assert.equal(html.statusCode, 200, 'the JSON ETag does not validate the page');
    assert.match(html.headers['content-type'] as string, /^text\/html/);
    assert.ok(html.headers.etag && html.headers.etag !== json.headers.etag, 'the page has its own ETag');
    const page304 = await get(`/report/${hostile.hash}`, {
      accept: 'text/html',
      'if-none-match': html.headers.etag as string,
    });
    assert.equal(page304.statusCode, 304);
    assert.equal(page304.headers['cache-control'], 'public, max-age=60');
  });

  it('answers a browser’s unknown or ambiguous report with an HTML page, and a JSON client with the Error body', async () => {
    // docs/api.md: the page is HTML by default; an expired score report's report_url is "(the HTML page: a 404 page)".
    for (const headers of [{}, { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' }] as Record<string, string>[]) {
      const gone = await get(`/report/${'f'.repeat(64)}`, headers);
      assert.equal(gone.statusCode, 404);
      assert.match(gone.headers['content-type'] as string, /^text\/html/);
      assert.match(gone.headers['content-security-policy'] as string, /default-src 'none'/);
      assert.match(gone.body, /<html[^>]*>[\s\S]*No certified report matches f{64}/);
    }
    const many = await get('/report/abcdefabcdef');
    assert.equal(many.statusCode, 409);
    assert.match(many.headers['content-type'] as string, /^text\/html/);
    assert.ok(many.body.includes(`href="/report/abcdefabcdef${'1'.repeat(52)}"`), 'each candidate is a link');
    for (const [url, headers] of [
      [`/report/${'f'.repeat(64)}?format=json`, {}],
      [`/report/${'f'.repeat(64)}`, { accept: 'application/json' }],
    ] as const) {
      const r = await get(url, headers);
      assert.equal(r.statusCode, 404, url);
      assert.equal(r.json().code, 'not_found');
    }
    assert.equal((await get('/report/abcdefabcdef?format=json')).json().code, 'ambiguous');
  });
});

describe('bundled reports', () => {
  it('are stored and appended once on start; a file that does not match its name is skipped', async () => {
    const dir = tmpDir('svc-bundle-');
    const good = sealReport(sampleReport('bundled'));
    writeReportFile(dir, good.hash, good.json);
    const bad = sealReport(sampleReport('forged'));
    fs.writeFileSync(path.join(dir, `${bad.hash}.json`), bad.json.replace('"forged"', '"forgeD"'));
    const store = new SqliteStore(path.join(dir, 'svc.db'));
    const log = new AuditLog(store);
    assert.deepEqual(await ensureBundledReports(store, dir, log), {
      stored: 1,
      appended: 1,
      skipped: [`${bad.hash}.json`],
    });
    assert.deepEqual(await ensureBundledReports(store, dir, log), {
      stored: 0,
      appended: 0,
      skipped: [`${bad.hash}.json`],
    });
    assert.ok((await log.check(good.hash)).ok);
    assert.equal(await store.logSize(), 1);
    await store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
});

describe('the bundled dataset', () => {
  it('is pipeline-made, and every model report in it verifies once the service has certified the bundle', async () => {
    const dataset = readDatasetFile('dataset/leaderboard.json');
    assert.doesNotMatch(dataset.meta.version ?? '', /sample/);
    assert.ok(dataset.models.length > 10);
    const dir = tmpDir('svc-bundled-');
    const store = new SqliteStore(path.join(dir, 'svc.db'));
    const log = new AuditLog(store);
    const r = await ensureBundledReports(store, 'dataset/reports', log);
    assert.deepEqual(r.skipped, []);
    const t = await makeApp({ store, dataset });
    try {
      for (const m of dataset.models) {
        assert.ok(m.report_hash, m.slug);
        const v = (
          await t.app.inject({ url: `/api/verify?hash=${m.report_hash}`, remoteAddress: '192.0.2.50' })
        ).json();
        assert.deepEqual([v.verified, v.model], [true, m.slug]);
        const report = JSON.parse(fs.readFileSync(`dataset/reports/${m.report_hash}.json`, 'utf8'));
        assert.equal(report.scores.sycophancy.honesty, m.sycophancy!.honesty);
        assert.equal(report.dataset_version, dataset.meta.version);
      }
    } finally {
      await t.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('svc audit proof / verify', () => {
  it('verifies an exported report offline, and catches a changed byte in the file, the stored report or a log entry', async () => {
    const dir = tmpDir('svc-cli-audit-');
    const db = path.join(dir, 'svc.db');
    const store = new SqliteStore(db);
    const reports = ['one', 'two', 'three'].map((s) => sealReport(sampleReport(s)));
    await certifyReports(store, new AuditLog(store), reports);
    await store.close();
    const env = { ...process.env, SVC_STORE_URL: `sqlite:${db}` };
    const svc = (...args: string[]) =>
      run(process.execPath, ['bin/svc.js', ...args], { env }).then(
        (r) => ({ code: 0, out: r.stdout + r.stderr }),
        (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, out: e.stdout + e.stderr }),
      );
    const out = path.join(dir, 'p');
    const h = reports[1]!.hash;
    assert.equal((await svc('audit', 'proof', h.slice(0, 12), '--out', out)).code, 0);
    const ok = await svc('audit', 'verify', path.join(out, 'report.json'));
    assert.equal(ok.code, 0, ok.out);
    assert.match(ok.out, /VERIFIED/);

    const report = fs.readFileSync(path.join(out, 'report.json'), 'utf8');
    fs.writeFileSync(path.join(out, 'report.json'), report.replace('"transcripts":3', '"transcripts":4'));
    const changed = await svc(
      'audit',
      'verify',
      path.join(out, 'report.json'),
      '--proof',
      path.join(out, 'proof.json'),
    );
    assert.equal(changed.code, 1);
    assert.match(changed.out, /NOT VERIFIED/);

    tamperReport(db, h);
    const out2 = path.join(dir, 'p2');
    assert.equal((await svc('audit', 'proof', h, '--out', out2)).code, 0);
    const stored = await svc(
      'audit',
      'verify',
      path.join(out2, 'report.json'),
      '--public-key',
      path.join(out, 'public-key.pem'),
    );
    assert.equal(stored.code, 1);
    assert.match(stored.out, /not for this report/);

    // One changed byte in the log entry of report "one": its proof cannot be exported any more, and the proof
    // of report "three", exported from the changed log, no longer leads to the signed root.
    const leaf = createHash('sha256')
      .update(Buffer.concat([Buffer.from([0]), Buffer.from(reports[0]!.hash, 'hex')]))
      .digest('hex');
    const sql = new Database(db);
    sql
      .prepare('UPDATE log_leaves SET hash = ? WHERE hash = ?')
      .run((leaf[0] === 'a' ? 'b' : 'a') + leaf.slice(1), leaf);
    sql.close();
    assert.equal((await svc('audit', 'proof', reports[0]!.hash, '--out', path.join(dir, 'p3'))).code, 1);
    assert.equal((await svc('audit', 'proof', reports[2]!.hash, '--out', path.join(dir, 'p4'))).code, 0);
    const entry = await svc(
      'audit',
      'verify',
      path.join(dir, 'p4', 'report.json'),
      '--public-key',
      path.join(out, 'public-key.pem'),
    );
    assert.equal(entry.code, 1);
    assert.match(entry.out, /does not lead to the signed root/);
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
