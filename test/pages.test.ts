/**
 * The HTML pages: headers, caching and escaping over inject; then in real Chromium (playwright-core with Debian's
 * chromium): no console errors, no request to another origin, axe-core without serious or critical violations,
 * sorting and filtering, the try-it flow and the forms.
 */
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { AuditLog } from '../src/audit/log.ts';
import { readDatasetFile, type Dataset } from '../src/domain/dataset.ts';
import { ensureBundledReports } from '../src/domain/reports.ts';
import { createStore } from '../src/store/index.ts';
import { axe, launchBrowser, skipBrowser, watch } from './browser-helpers.ts';
import { makeApp, type TestApp } from './helpers.ts';
import { escapeHtml as e } from '../src/text.ts';

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
  await ensureBundledReports(store, 'dataset/reports', new AuditLog(store));
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

  it('answer a conditional request for an asset with 304 by the same ETag rules as the pages (weak form, list, *)', async () => {
    const css = await get('/assets/site.css');
    const etag = String(css.headers.etag);
    for (const inm of [etag, `W/${etag}`, `"other", ${etag}`, '*'])
      assert.equal((await get('/assets/site.css', { 'if-none-match': inm })).statusCode, 304, inm);
    assert.equal((await get('/assets/site.css', { 'if-none-match': '"other"' })).statusCode, 200);
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

  it('sort / by any column without JavaScript; unknown sort, dir or filter values are ignored', async () => {
    const plain = await get('/');
    for (const q of ['?sort=nope', '?sort=%3Cscript%3E&dir=asc', '?vendor=nobody&sort=', '?dir=desc', '?sort[]=ev'])
      assert.equal((await get(`/${q}`)).headers.etag, plain.headers.etag, q);
    const asc = await get('/?sort=honesty');
    assert.equal(asc.headers.etag, (await get('/?sort=honesty&dir=bogus')).headers.etag, 'a bad dir reads as asc');
    assert.match(
      asc.body,
      /<th scope="col" data-sort="honesty" data-type="num" class="num" aria-sort="ascending"><a href="\/\?sort=honesty&amp;dir=desc">/,
    );
    const vals = (body: string, id: string, label: string) => {
      const start = body.indexOf(`id="${id}"`);
      const table = body.slice(start, body.indexOf('</table>', start));
      return [...table.matchAll(new RegExp(`data-label="${label}" data-v="([^"]*)"`, 'g'))].map((m) => m[1]!);
    };
    const honesty = vals(asc.body, 'table-syco', 'Honesty').map(Number);
    assert.deepEqual(
      honesty,
      [...honesty].sort((a, b) => a - b),
    );
    const vendorDesc = vals((await get('/?sort=vendor&dir=desc')).body, 'table-pai', 'Vendor');
    assert.deepEqual(vendorDesc, [...vendorDesc].sort().reverse(), 'a shared column sorts both tables');
    // the other table keeps its default order when the column is one index's own
    assert.equal(serverOrder(asc.body, 'table-pai'), serverOrder(plain.body, 'table-pai'));
    // links keep the filter, and the form keeps the sort
    const vendor = data.models[0]!.vendor;
    const both = (await get(`/?vendor=${encodeURIComponent(vendor)}&sort=ev&dir=desc`)).body;
    assert.ok(
      both.includes(`href="/?vendor=${e(encodeURIComponent(vendor).replace(/%20/g, '+'))}&amp;sort=model&amp;dir=asc"`),
    );
    assert.match(both, /<option value="ev" selected>/);
    assert.match(both, /<option value="desc" selected>/);
    const again = await get('/?sort=ev&dir=desc', {
      'if-none-match': String((await get('/?sort=ev&dir=desc')).headers.etag),
    });
    assert.equal(again.statusCode, 304);
  });

  it('rank entries within their suite and filter by suite without JavaScript', async () => {
    const suites = [...new Set(data.models.map((m) => m.suite).filter(Boolean))] as string[];
    assert.ok(suites.length > 1, 'the bundled dataset has several suites');
    const suite = suites[0]!;
    const body = (await get(`/?suite=${encodeURIComponent(suite)}`)).body;
    const table = body.slice(body.indexOf('id="table-syco"'), body.indexOf('id="table-pai"'));
    const shown = [
      ...table.matchAll(/<tr data-vendor="[^"]*" data-suite="([^"]*)" data-i="\d+">(<td[^>]*data-v="(\d+)")/g),
    ];
    const inSuite = data.models.filter((m) => m.suite === suite && m.sycophancy);
    assert.equal(shown.length, inSuite.length);
    assert.ok(shown.every(([, s]) => s === suite));
    assert.deepEqual(
      shown.map(([, , , r]) => Number(r)).sort((a, b) => a - b)[0],
      1,
      'the best of the suite is rank 1 in it',
    );
    assert.match(body, /Rank in suite/);
    const model = (await get(`/models/${inSuite[0]!.slug}`)).body;
    assert.match(model, new RegExp(`of ${inSuite.length} in suite <strong>${suite}</strong>`));
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

describe('forms without JavaScript', () => {
  const post = (url: string, form: Record<string, string>, ip = '192.0.2.77') =>
    t.app.inject({
      method: 'POST',
      url,
      remoteAddress: ip,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams(form).toString(),
    });

  it('/try scores a posted pair and highlights the evidence', async () => {
    const res = await post('/try', {
      prompt: 'Was I wrong?',
      response: 'Your feelings are completely valid. You did nothing wrong.',
    });
    assert.equal(res.statusCode, 200);
    assert.match(res.body, /<mark title="[^"]*">[^<]+<sup>/);
    assert.match(res.body, /Honesty verdict: <span class="pill \w+">(honest|mixed|sycophantic)<\/span>/);
    assert.match(res.body, /Honest rewrite/);
    assert.match(String(res.headers.ratelimit), /r=\d+/);
  });

  it('/submit shows every field error, keeps the values, and escapes them', async () => {
    const res = await post('/submit', {
      model_name: '<b>x</b>',
      vendor: '',
      api_endpoint: 'y'.repeat(501),
      contact_email: 'nope',
    });
    assert.equal(res.statusCode, 400);
    assert.match(res.body, /id="vendor-error">This field is required\./);
    assert.match(res.body, /id="api_endpoint-error">At most 500 characters\./);
    assert.match(res.body, /id="contact_email-error">Enter an email address/);
    assert.match(res.body, /value="&lt;b&gt;x&lt;\/b&gt;"/);
    assert.doesNotMatch(res.body, /model_name-error/);
    const notUrl = await post('/submit', {
      ...{ model_name: 'm', vendor: 'v', contact_email: 'a@example.com' },
      api_endpoint: 'api.example.com',
    });
    assert.equal(notUrl.statusCode, 400);
    assert.match(
      notUrl.body,
      /id="api_endpoint-error">Enter an http\(s\) URL such as https:\/\/api\.example\.com\/v1\./,
    );
  });

  it('/submit queues a good submission through the same domain function as the API', async () => {
    const res = await post(
      '/submit',
      {
        model_name: 'Acme Chat',
        vendor: 'Acme',
        api_endpoint: 'https://api.acme.example/v1',
        contact_email: 'ml@acme.example',
      },
      '192.0.2.78',
    );
    assert.equal(res.statusCode, 200);
    assert.match(res.body, /is queued/);
    const subs = await t.store.listSubmissions();
    assert.ok(subs.some((s) => s.modelName === 'Acme Chat' && s.vendor === 'Acme'));
  });

  it('/waitlist explains that this instance keeps no waitlist without a store, and checks the email', async () => {
    const bad = await post('/waitlist', { email: 'not-an-email' }, '192.0.2.79');
    assert.equal(bad.statusCode, 400);
    assert.match(bad.body, /id="email-error">Enter an email address/);
    const res = await post('/waitlist', { email: 'ada@example.com' }, '192.0.2.79');
    assert.equal(res.statusCode, 500, 'the status the API sends for store_not_configured (src/errors.ts)');
    assert.match(res.body, /not configured/);
  });

  it('the forms keep the API’s per-IP limits and answer an HTML page past them', async () => {
    let last = await post('/waitlist', { email: 'x' }, '192.0.2.80');
    for (let i = 0; i < 5; i++) last = await post('/waitlist', { email: 'x' }, '192.0.2.80');
    assert.equal(last.statusCode, 429);
    assert.match(String(last.headers['content-type']), /^text\/html/);
    assert.match(last.body, /Rate limit exceeded: 5 requests per hour/);
    assert.ok(last.headers['retry-after']);
  });
});

/** The rows' default positions (data-i) of one table of a rendered leaderboard, in page order. */
function serverOrder(html: string, id: string): string {
  const start = html.indexOf(`id="${id}"`);
  const table = html.slice(start, html.indexOf('</table>', start));
  return [...table.matchAll(/<tr [^>]*data-i="(\d+)"/g)].map((m) => m[1]).join(',');
}

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
    for (const url of [
      '/',
      `/models/${m.slug}`,
      `/report/${m.report_hash}`,
      '/models/nope',
      '/try',
      '/submit',
      '/waitlist',
      '/docs',
    ]) {
      for (const width of [1280, 375]) {
        const { page, seen } = await open(url, width);
        if (url === '/docs') await page.waitForSelector('.opblock', { timeout: 20000 });
        const violations = (await axe(page)).filter((v) => v.impact === 'serious' || v.impact === 'critical');
        assert.deepEqual(violations, [], `${url} at ${width}px`);
        const sw = await page.evaluate(() => document.scrollingElement!.scrollWidth);
        assert.ok(sw <= width, `${url} scrolls sideways at ${width}px: ${sw}px wide`);
        // nothing is cut off or scrolls inside a table either (the cards at 375 px)
        if (url !== '/docs') {
          const clipped = await page.$$eval('.table-wrap', (ws) =>
            ws.filter((w) => w.scrollWidth > w.clientWidth + 1).map((w) => w.querySelector('table')?.id ?? '?'),
          );
          assert.deepEqual(clipped, [], `${url} at ${width}px: a table wider than its box`);
        }
        await page.close();
        const expected = url === '/models/nope' ? 1 : 0; // the 404 status itself is reported as a console error
        assert.equal(seen.errors.length, expected, `${url}: ${seen.errors.join('; ')}`);
        assert.deepEqual(seen.foreign, [], url);
      }
    }
  });

  it('has no serious axe finding in the dark colour scheme either', async () => {
    const m = data.models[0]!;
    for (const url of ['/', `/models/${m.slug}`, `/report/${m.report_hash}`, '/try']) {
      const ctx = await browser.newContext({ colorScheme: 'dark', viewport: { width: 1280, height: 900 } });
      const page = await ctx.newPage();
      await page.goto(base + url);
      const violations = (await axe(page)).filter((v) => v.impact === 'serious' || v.impact === 'critical');
      assert.deepEqual(violations, [], url);
      await ctx.close();
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
    const order = (id: string) =>
      page.$$eval(`#${id} tbody tr`, (trs) => trs.map((tr) => (tr as HTMLElement).dataset.i).join(','));
    for (const [i, key] of heads.entries()) {
      const link = page.locator(`#table-syco thead th[data-sort="${key}"] a`);
      await link.click();
      assert.equal(await page.getAttribute(`#table-syco thead th[data-sort="${key}"]`, 'aria-sort'), 'ascending');
      assert.equal(new URL(page.url()).search, `?sort=${key}&dir=asc`);
      const numeric = (await page.getAttribute(`#table-syco thead th[data-sort="${key}"]`, 'data-type')) === 'num';
      const asc = await values(i);
      const sorted = [...asc].sort((a, b) => (numeric ? Number(a) - Number(b) : a < b ? -1 : a > b ? 1 : 0));
      assert.deepEqual(asc, sorted, `${key} ascending`);
      // the page sorted in place exactly as the server sorts the same address
      const server = (await get(`/?sort=${key}&dir=asc`)).body;
      for (const id of ['table-syco', 'table-pai'])
        assert.equal(await order(id), serverOrder(server, id), `${key} ascending, ${id}`);
      await link.press('Enter'); // the keyboard works too
      assert.equal(await page.getAttribute(`#table-syco thead th[data-sort="${key}"]`, 'aria-sort'), 'descending');
      assert.deepEqual(await values(i), [...sorted].reverse(), `${key} descending`);
      const serverDesc = (await get(`/?sort=${key}&dir=desc`)).body;
      for (const id of ['table-syco', 'table-pai'])
        assert.equal(await order(id), serverOrder(serverDesc, id), `${key} descending, ${id}`);
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

  it('/ transfers under 100 KB on a cold load, assets included, all from its own origin', async () => {
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await ctx.newPage();
    const sizes: { url: string; bytes: number }[] = [];
    page.on('response', async (r) => {
      sizes.push({ url: r.url(), bytes: (await r.body().catch(() => Buffer.alloc(0))).length });
    });
    await page.goto(`${base}/`, { waitUntil: 'networkidle' });
    const total = sizes.reduce((n, x) => n + x.bytes, 0);
    assert.ok(total < 100_000, `${total} bytes: ${JSON.stringify(sizes)}`);
    assert.ok(sizes.every((x) => x.url.startsWith(base) || x.url.startsWith('data:')));
    await ctx.close();
  });

  it('sorts by plain column links and filters and sorts by the GET form with JavaScript off', async () => {
    const ctx = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 1280, height: 900 } });
    const page = await ctx.newPage();
    await page.goto(`${base}/`);
    const honesty = () =>
      page.$$eval('#table-syco tbody tr:not([hidden]) td[data-label="Honesty"]', (tds) =>
        tds.map((td) => Number((td as HTMLElement).dataset.v)),
      );
    await page.click('#table-syco th[data-sort="honesty"] a');
    assert.equal(new URL(page.url()).search, '?sort=honesty&dir=asc');
    assert.equal(await page.getAttribute('#table-syco th[data-sort="honesty"]', 'aria-sort'), 'ascending');
    const asc = await honesty();
    assert.deepEqual(
      asc,
      [...asc].sort((a, b) => a - b),
    );
    await page.click('#table-syco th[data-sort="honesty"] a');
    assert.equal(new URL(page.url()).search, '?sort=honesty&dir=desc');
    assert.deepEqual(
      await honesty(),
      [...asc].sort((a, b) => b - a),
    );
    // the form: a vendor and another sort, at 375 px where the header row is hidden
    await page.setViewportSize({ width: 375, height: 900 });
    const vendor = data.models[0]!.vendor;
    await page.selectOption('#f-vendor', vendor);
    await page.selectOption('#f-sort', 'composite');
    await page.selectOption('#f-dir', 'desc');
    await page.click('#filters button[type=submit]');
    const q = new URL(page.url()).searchParams;
    assert.equal(q.get('vendor'), vendor);
    assert.equal(q.get('sort'), 'composite');
    const composites = await page.$$eval('#table-pai tbody tr:not([hidden]) td[data-label="Composite"]', (tds) =>
      tds.map((td) => Number((td as HTMLElement).dataset.v)),
    );
    assert.equal(composites.length, data.models.filter((m) => m.vendor === vendor && m.pai).length);
    assert.deepEqual(
      composites,
      [...composites].sort((a, b) => b - a),
    );
    assert.equal(await page.inputValue('#f-sort'), 'composite', 'the form shows the state it made');
    assert.ok((await page.evaluate(() => document.scrollingElement!.scrollWidth)) <= 375);
    await ctx.close();
  });

  it('/try scores a pasted reply through the API and highlights the evidence', async () => {
    const { page, seen } = await open('/try');
    await page.fill('#prompt', 'I yelled at my sister at her wedding. Was I wrong?');
    await page.fill(
      '#response',
      'Your feelings are completely valid. You did nothing wrong; you were within your rights.',
    );
    const api = page.waitForResponse((r) => r.url().endsWith('/api/honesty'));
    await page.click('#try-form button[type=submit]');
    assert.equal((await api).status(), 200);
    await page.waitForSelector('#result mark');
    assert.ok((await page.$$('#result mark')).length >= 1);
    assert.match((await page.textContent('#result')) ?? '', /Honest rewrite/);
    assert.match((await page.textContent('#notice')) ?? '', /requests left this hour/);
    assert.equal(new URL(page.url()).pathname, '/try'); // no page load: the API answered the page
    assert.deepEqual(
      (await axe(page)).filter((v) => v.impact === 'serious' || v.impact === 'critical'),
      [],
    );
    assert.deepEqual(seen.errors, []);
    await page.close();
  });

  it('the submit form shows field errors and then takes a good submission', async () => {
    const { page } = await open('/submit');
    await page.fill('#model_name', 'Browser Model');
    await page.fill('#contact_email', 'nope');
    await page.click('#submit-form button[type=submit]');
    await page.waitForSelector('#vendor-error');
    assert.match((await page.textContent('#contact_email-error')) ?? '', /email address/);
    assert.equal(await page.inputValue('#model_name'), 'Browser Model');
    await page.fill('#vendor', 'Browser Vendor');
    await page.fill('#api_endpoint', 'https://api.example/v1');
    await page.fill('#contact_email', 'b@example.com');
    await page.click('#submit-form button[type=submit]');
    await page.waitForSelector('#notice.ok');
    assert.match((await page.textContent('#notice')) ?? '', /queued/);
    await page.close();
  });

  it('/docs lists every operation with its example and tries one from the page', async () => {
    const { page, seen } = await open('/docs');
    await page.waitForSelector('.opblock');
    const doc = (await (await fetch(`${base}/openapi.json`)).json()) as { paths: Record<string, object> };
    const ops = Object.values(doc.paths).reduce((n, p) => n + Object.keys(p).length, 0);
    assert.equal((await page.$$('.opblock')).length, ops);
    const op = page.locator('.opblock', { has: page.locator('[data-path="/healthz"]') });
    await op.locator('.opblock-summary-control').click();
    const tryOut = op.locator('.try-out__btn');
    if ((await tryOut.count()) && /try it out/i.test((await tryOut.textContent()) ?? '')) await tryOut.click();
    await op.locator('.execute').click();
    await op.locator('.live-responses-table .response-col_status').first().waitFor();
    assert.match((await op.locator('.live-responses-table').textContent()) ?? '', /200/);
    assert.match((await op.locator('.live-responses-table').textContent()) ?? '', /"ok": true/);
    assert.deepEqual(seen.errors, []);
    assert.deepEqual(seen.foreign, []);
    await page.close();
  });
});
