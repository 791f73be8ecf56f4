/**
 * The HTML pages: headers, caching and escaping over inject; then in real Chromium (playwright-core with Debian's
 * chromium): no console errors, no request to another origin, axe-core without serious or critical violations,
 * sorting and filtering, the try-it flow and the forms.
 */
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { auditLogFor } from '../src/audit/log.ts';
import { readDatasetFile, type Dataset } from '../src/domain/dataset.ts';
import { ensureBundledReports } from '../src/domain/reports.ts';
import { createStore } from '../src/store/index.ts';
import { axe, launchBrowser, skipBrowser, watch } from './browser-helpers.ts';
import { makeApp, type TestApp } from './helpers.ts';

const HOSTILE_NAME = '<img src=x onerror=alert(1)>"Evil" & Co';
const HOSTILE_VENDOR = '</td><script>alert(2)</script>';

/** The bundled dataset, with one model renamed to hostile text and a three-point history for another. */
function dataset(): Dataset {
  const d = readDatasetFile('dataset/leaderboard.json');
  const m = d.models[1]!;
  m.name = HOSTILE_NAME;
  m.vendor = HOSTILE_VENDOR;
  const h = d.models[0]!;
  h.sycophancy!.history = [90.5, 93.25, h.sycophancy!.honesty];
  h.pai!.history = [1.2, 0.8, h.pai!.composite];
  return d;
}

let t: TestApp;
let base: string;
let data: Dataset;
before(async () => {
  data = dataset();
  const store = createStore({ kind: 'memory' } as never);
  await ensureBundledReports(store, 'dataset/reports', auditLogFor(store));
  t = await makeApp({ dataset: data, store });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
});
after(async () => t.close());

const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ url, headers });

describe('HTML pages over HTTP', () => {
  it('answer HTML with a strict CSP, and nothing inline to allow', async () => {
    const slug = data.models[0]!.slug;
    for (const url of ['/', `/models/${slug}`, `/report/${data.models[0]!.report_hash}`]) {
      const res = await get(url);
      assert.equal(res.statusCode, 200, url);
      assert.match(String(res.headers['content-type']), /^text\/html/, url);
      const csp = String(res.headers['content-security-policy']);
      assert.match(csp, /default-src 'none'/, url);
      assert.match(csp, /script-src 'self'(;|$)/, url);
      assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval|\*/, url);
      assert.doesNotMatch(res.body, /<script(?![^>]*\bsrc=)/, `${url}: an inline script`);
      assert.doesNotMatch(res.body, /\sstyle=|<style/, `${url}: inline style`);
      assert.doesNotMatch(res.body, /(?:src|href)="(?:https?:)?\/\/(?!127\.0\.0\.1|localhost)/, `${url}: foreign URL`);
    }
  });

  it('escape model names and vendors that come from submissions', async () => {
    const hostile = data.models[1]!;
    for (const url of ['/', `/models/${hostile.slug}`, `/report/${hostile.report_hash}`]) {
      const body = (await get(url)).body;
      assert.ok(!body.includes(HOSTILE_NAME) && !body.includes('<script>alert'), url);
      if (url !== `/report/${hostile.report_hash}`) {
        assert.ok(body.includes('&lt;img src=x onerror=alert(1)&gt;&quot;Evil&quot; &amp; Co'), url);
        assert.ok(body.includes('&lt;/td&gt;&lt;script&gt;alert(2)&lt;/script&gt;'), url);
      }
    }
  });

  it('serve / from memory with an ETag (304), under 100 KB', async () => {
    const res = await get('/');
    assert.ok(res.rawPayload.length < 100_000, `${res.rawPayload.length} bytes`);
    const again = await get('/', { 'if-none-match': String(res.headers.etag) });
    assert.equal(again.statusCode, 304);
    assert.equal(again.body, '');
    const model = await get(`/models/${data.models[0]!.slug}`);
    assert.equal(
      (await get(`/models/${data.models[0]!.slug}`, { 'if-none-match': String(model.headers.etag) })).statusCode,
      304,
    );
  });

  it('answer an unknown or malformed slug with an HTML 404 page', async () => {
    for (const url of ['/models/no-such-model', '/models/BAD%3Cslug%3E']) {
      const res = await get(url);
      assert.equal(res.statusCode, 404, url);
      assert.match(String(res.headers['content-type']), /^text\/html/, url);
      assert.match(res.body, /Model not found/);
      assert.doesNotMatch(res.body, /<slug>/);
    }
  });

  it('filter / by vendor without JavaScript, ignoring unknown values', async () => {
    const vendor = data.models[0]!.vendor;
    const res = await get(`/?vendor=${encodeURIComponent(vendor)}`);
    const rows = [...res.body.matchAll(/<tr data-vendor="([^"]*)"[^>]*?( hidden)?>/g)];
    assert.ok(rows.length > 0);
    for (const [, v, hidden] of rows) assert.equal(Boolean(hidden), v !== vendor.replace('&', '&amp;'), v);
    const unknown = await get('/?vendor=nobody');
    assert.doesNotMatch(unknown.body, /<tr [^>]* hidden>/);
  });

  it('show a model’s ten dimensions with long names, ranks, badges and report links', async () => {
    const m = data.models[0]!;
    const body = (await get(`/models/${m.slug}`)).body;
    for (const long of [
      'emotional validation',
      'framing acceptance',
      'dependency reinforcement',
      'autonomy undermining',
    ])
      assert.ok(body.includes(long), long);
    assert.match(body, /Rank <strong>\d+<\/strong> of \d+/);
    for (const type of ['sycophancy', 'pai', 'both'])
      for (const style of ['flat', 'flat-square', 'for-the-badge'])
        assert.ok(body.includes(`/api/badge/${m.slug}?type=${type}&amp;style=${style}`), `${type} ${style}`);
    assert.ok(body.includes(`href="/report/${m.report_hash}"`));
    assert.ok(body.includes(`href="/api/verify?hash=${m.report_hash}"`));
  });

  it('show a report with two decimals, distributions and its verification status', async () => {
    const m = data.models[0]!;
    const body = (await get(`/report/${m.report_hash}`)).body;
    assert.match(body, /Verified:/);
    assert.deepEqual(body.replace(/<svg[\s\S]*?<\/svg>|<[^>]*>/g, ' ').match(/.{30}\d\.\d{3,}/g), null);
    assert.ok((body.match(/class="box"/g) ?? []).length >= 12);
  });
});

describe('pages in a browser', { skip: skipBrowser }, () => {
  let browser: Browser;
  before(async () => {
    browser = await launchBrowser();
  });
  after(async () => browser?.close());

  async function open(url: string, width = 1280): Promise<{ page: Page; seen: ReturnType<typeof watch> }> {
    const page = await browser.newPage({ viewport: { width, height: 900 } });
    const seen = watch(page, base);
    await page.goto(base + url, { waitUntil: 'load' });
    return { page, seen };
  }

  it('every page renders without console errors or foreign requests, and axe finds nothing serious', async () => {
    const m = data.models[0]!;
    for (const url of ['/', `/models/${m.slug}`, `/report/${m.report_hash}`, '/models/nope']) {
      for (const width of [1280, 375]) {
        const { page, seen } = await open(url, width);
        const violations = (await axe(page)).filter((v) => v.impact === 'serious' || v.impact === 'critical');
        assert.deepEqual(violations, [], `${url} at ${width}px`);
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        assert.ok(overflow <= 0, `${url} scrolls sideways at ${width}px by ${overflow}px`);
        await page.close();
        const expected = url === '/models/nope' ? 1 : 0; // the 404 status itself is reported as a console error
        assert.equal(seen.errors.length, expected, `${url}: ${seen.errors.join('; ')}`);
        assert.deepEqual(seen.foreign, [], url);
      }
    }
  });

  it('sorts every column of the leaderboard and filters by vendor in place', async () => {
    const { page, seen } = await open('/');
    const names = () =>
      page.$$eval('#table-syco tbody tr:not([hidden]) td.model-cell a', (as) => as.map((a) => a.textContent));
    const values = (col: number) =>
      page.$$eval(
        `#table-syco tbody tr:not([hidden])`,
        (trs, i) => trs.map((tr) => (tr as HTMLTableRowElement).cells[i]!.dataset.v!),
        col,
      );
    const heads = await page.$$eval('#table-syco thead th', (ths) => ths.map((th) => th.getAttribute('data-sort')));
    for (const [i, key] of heads.entries()) {
      const button = page.locator(`#table-syco thead th[data-sort="${key}"] button`);
      await button.click();
      assert.equal(await page.getAttribute(`#table-syco thead th[data-sort="${key}"]`, 'aria-sort'), 'ascending');
      const numeric = (await page.getAttribute(`#table-syco thead th[data-sort="${key}"]`, 'data-type')) === 'num';
      const asc = await values(i);
      const sorted = [...asc].sort((a, b) => (numeric ? Number(a) - Number(b) : a.localeCompare(b)));
      assert.deepEqual(asc, sorted, `${key} ascending`);
      await button.press('Enter'); // the keyboard works too
      assert.equal(await page.getAttribute(`#table-syco thead th[data-sort="${key}"]`, 'aria-sort'), 'descending');
      assert.deepEqual(await values(i), [...sorted].reverse(), `${key} descending`);
    }
    const vendor = data.models[0]!.vendor;
    await page.selectOption('#f-vendor', vendor);
    const shown = await names();
    const expected = data.models.filter((m) => m.vendor === vendor && m.sycophancy).map((m) => m.name);
    assert.deepEqual([...shown].sort(), [...expected].sort());
    assert.match(page.url(), /\?vendor=/);
    assert.match((await page.textContent('[data-count="syco"]')) ?? '', new RegExp(`^${expected.length} of `));
    await page.selectOption('#f-vendor', '');
    assert.equal((await names()).length, data.models.filter((m) => m.sycophancy).length);
    await page.click('#table-syco td.model-cell a');
    assert.match(page.url(), /\/models\//);
    assert.deepEqual(seen.errors, []);
    await page.close();
  });
});
