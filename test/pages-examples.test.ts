/**
 * The model page's "replies with the most evidence": a submission made through the /submit form is evaluated by
 * the worker against the fake OpenAI-compatible model, and the model page (and the report page) then show the
 * replies with the engine's quotes highlighted, escaped, with the dimension as text; after a restart on the same
 * SQLite file they are still there. The bundled dataset's models show no such section. The submitter's status
 * page is checked in the same design, and every page here in Chromium (axe, no console errors, 375 px).
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { MailMessage } from '../src/domain/email.ts';
import type { CertifiedReport } from '../src/domain/reports.ts';
import { loadProbeSuite } from '../src/eval/probes.ts';
import { EXAMPLE_LIMITS } from '../src/jobs/publish.ts';
import { startWorker } from '../src/jobs/worker.ts';
import { SqliteStore } from '../src/store/index.ts';
import type { App } from '../src/http/types.ts';
import { axe, launchBrowser, skipBrowser, watch } from './browser-helpers.ts';
import { startFakeOpenAI, type FakeOpenAI } from './fake-openai.ts';
import { sampleDataset, silentLog } from './helpers.ts';
import { evalApp, tmpDirFor } from './store-helpers.ts';

const NAME = 'Evil <script>alert("n")</script> & "Co"';
const VENDOR = '<img src=x onerror=alert(1)> & Sons';
/** A flattering companion whose replies carry markup, quotes and ampersands, and one very long reply. */
const hostileModel = (req: { body: { messages?: { role: string }[] } }) => {
  const turn = (req.body.messages ?? []).filter((m) => m.role === 'user').length;
  const tail = turn === 2 ? ` ${'Keep going. '.repeat(300)}` : '';
  return (
    `You're absolutely right, and honestly that's brilliant! <script>alert("x")</script> Your feelings are completely ` +
    `valid & it makes total sense. You did nothing wrong at all. I missed you so much! I'll always be here for you, ` +
    `"day or night". Nobody understands you like I do. (turn ${turn})${tail}`
  );
};

let store: SqliteStore;
let model: FakeOpenAI;
let app: App;
let closeAll: () => Promise<void>;
let file: string;
const sent: MailMessage[] = [];
let slug = '';
let statusPath = '';

async function open(dbFile: string) {
  const s = new SqliteStore(dbFile);
  const o = await evalApp(s, { prefix: 'svc-pages-examples-', env: { SVC_EVAL_AUTO_APPROVE: 'true' }, sent });
  return { s, a: o.app, config: o.config, dataset: o.dataset, mailer: o.mailer };
}

before(async () => {
  model = await startFakeOpenAI(hostileModel);
  file = path.join(tmpDirFor('svc-pages-examples-db-'), 'svc.db');
  const o = await open(file);
  store = o.s;
  app = o.a;
  const suite = loadProbeSuite();
  const w = startWorker(
    {
      store,
      config: o.config,
      mailer: o.mailer,
      log: { ...silentLog, warn() {} },
      suite: { ...suite, conversations: suite.conversations.slice(0, 4) },
    },
    { pollMs: 50 },
  );
  // Submitted through the page's plain form, as a visitor without JavaScript would.
  const res = await app.inject({
    method: 'POST',
    url: '/submit',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({
      model_name: NAME,
      vendor: VENDOR,
      api_endpoint: model.url,
      contact_email: 'lab@example.com',
    }).toString(),
  });
  assert.equal(res.statusCode, 200, res.body);
  statusPath = /\/submissions\/[A-Za-z0-9_-]{32}/.exec(sent.find((m) => m.to === 'lab@example.com')!.text)![0];
  const deadline = Date.now() + 60_000;
  for (;;) {
    const jobs = await store.listJobs();
    if (jobs.some((j) => j.state === 'done')) break;
    if (jobs.some((j) => j.state === 'failed')) throw new Error(`the run failed: ${jobs[0]!.error}`);
    if (Date.now() > deadline) throw new Error('timed out waiting for the evaluation');
    await new Promise((r) => setTimeout(r, 50));
  }
  await w.stop();
  const lb = async () =>
    (await app.inject('/api/leaderboard')).json().sycophancy.find((x: { name: string }) => x.name === NAME);
  while (!(await lb())) await new Promise((r) => setTimeout(r, 50));
  slug = (await lb()).slug;
  closeAll = async () => {
    await app.close();
    o.dataset.close();
    await store.close();
  };
});
after(async () => {
  await closeAll?.();
  await model?.close();
});

describe('replies with the most evidence', () => {
  it('are stored in the certified report, bounded', async () => {
    const page = (await app.inject(`/models/${slug}`)).body;
    const hash = /href="\/report\/([0-9a-f]{64})"/.exec(page)![1]!;
    const report = JSON.parse((await store.getReport(hash))!) as CertifiedReport;
    const ex = report.examples!;
    assert.ok(ex.length >= 1 && ex.length <= EXAMPLE_LIMITS.replies);
    for (const x of ex) {
      assert.ok(x.reply.length <= EXAMPLE_LIMITS.replyChars && x.prompt.length <= EXAMPLE_LIMITS.promptChars);
      assert.ok(x.evidence.length >= 1 && x.evidence.length <= EXAMPLE_LIMITS.spans);
      for (const s of x.evidence) assert.ok(s.start >= 0 && s.end > s.start && s.end <= x.reply.length);
    }
    assert.ok(
      ex.some((x) => x.truncated),
      'the long reply is cut',
    );
  });

  it('show on the model page with the quotes in <mark>, escaped, each with its dimension as text', async () => {
    const res = await app.inject(`/models/${slug}`);
    assert.equal(res.statusCode, 200);
    const body = res.body;
    assert.match(body, /<h2 id="examples-h">Replies with the most evidence<\/h2>/);
    const section = body.slice(body.indexOf('id="examples-h"'));
    assert.match(section, /<mark title="[^"]+">[^<]+<sup>(ev|me|il|ia|fa|emi|exl|bnd|dep|aud)( \w+)*<\/sup><\/mark>/);
    assert.match(section, /emotional validation/);
    assert.ok(section.includes('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;'), 'the reply is escaped');
    assert.ok(!body.includes('<script>alert'), 'no markup from the model or the submitter gets through');
    assert.ok(body.includes('Evil &lt;script&gt;alert(&quot;n&quot;)&lt;/script&gt; &amp; &quot;Co&quot;'));
    assert.ok(body.includes('&lt;img src=x onerror=alert(1)&gt; &amp; Sons'));
    assert.match(section, /\[cut\]/);
    // the report page shows them too
    const hash = /href="\/report\/([0-9a-f]{64})"/.exec(body)![1]!;
    const report = (await app.inject(`/report/${hash}`)).body;
    assert.match(report, /Replies with the most evidence/);
    assert.ok(!report.includes('<script>alert'));
  });

  it('the leaderboard escapes the submitted name and vendor in rows, sort links and the filter form', async () => {
    const q = `/?vendor=${encodeURIComponent(VENDOR)}&sort=model&dir=desc`;
    for (const url of ['/', q]) {
      const body = (await app.inject(url)).body;
      assert.ok(!body.includes('<script>alert') && !body.includes('<img src=x'), url);
      assert.ok(body.includes('Evil &lt;script&gt;alert(&quot;n&quot;)&lt;/script&gt; &amp; &quot;Co&quot;'), url);
      assert.ok(body.includes('<option value="&lt;img src=x onerror=alert(1)&gt; &amp; Sons"'), url);
    }
    const filtered = (await app.inject(q)).body;
    assert.match(filtered, /<option value="&lt;img src=x onerror=alert\(1\)&gt; &amp; Sons" selected>/);
    assert.ok(
      filtered.includes('href="/?vendor=%3Cimg+src%3Dx+onerror%3Dalert%281%29%3E+%26+Sons&amp;sort=model&amp;dir=asc"'),
    );
  });

  it('do not appear for models whose report has none (the bundled data): no placeholder', async () => {
    const other = sampleDataset().models[0]!.slug;
    const body = (await app.inject(`/models/${other}`)).body;
    assert.doesNotMatch(body, /most evidence|examples-h/);
  });

  it('survive a restart on the same store', async () => {
    await closeAll();
    const o = await open(file);
    store = o.s;
    app = o.a;
    closeAll = async () => {
      await app.close();
      o.dataset.close();
      await store.close();
    };
    while ((await app.inject(`/models/${slug}`)).statusCode !== 200) await new Promise((r) => setTimeout(r, 50));
    assert.match((await app.inject(`/models/${slug}`)).body, /Replies with the most evidence[\s\S]*<mark /);
  });

  it('the status page shows the finished evaluation in the site design', async () => {
    const res = await app.inject(statusPath);
    assert.equal(res.statusCode, 200);
    assert.match(String(res.headers['content-security-policy']), /default-src 'none'/);
    assert.match(res.body, /<header><nav aria-label="Main">/);
    assert.match(res.body, /Certified report/);
    assert.match(res.body, /<span class="pill ok">done<\/span>/);
    assert.match(res.body, /<li class="now" aria-current="step">Published<\/li>/);
    assert.ok(res.body.includes(`href="/models/${slug}"`), 'links the published entry');
    assert.ok(!res.body.includes('<script>alert'));
  });
});

describe('replies with the most evidence in a browser', { skip: skipBrowser }, () => {
  it('render without console errors or scripts run, pass axe, and fit 375 px', async () => {
    await app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
    const browser = await launchBrowser();
    try {
      const filtered = `/?vendor=${encodeURIComponent(VENDOR)}&sort=model&dir=desc`;
      for (const url of [`/models/${slug}`, statusPath, '/', filtered]) {
        for (const width of [1280, 375]) {
          for (const colorScheme of ['light', 'dark'] as const) {
            const ctx = await browser.newContext({ viewport: { width, height: 900 }, colorScheme });
            const page = await ctx.newPage();
            const dialogs: string[] = [];
            page.on('dialog', (d) => {
              dialogs.push(d.message());
              void d.dismiss();
            });
            const seen = watch(page, base);
            await page.goto(base + url);
            if (url.startsWith('/models/')) assert.ok((await page.$$('#examples-h ~ ol mark')).length >= 1);
            const bad = (await axe(page)).filter((v) => v.impact === 'serious' || v.impact === 'critical');
            assert.deepEqual(bad, [], `${url} ${width} ${colorScheme}`);
            const sw = await page.evaluate(() => document.scrollingElement!.scrollWidth);
            assert.ok(sw <= width, `${url} is ${sw}px wide at ${width}px`);
            assert.deepEqual(dialogs, []);
            assert.deepEqual(seen.errors, []);
            assert.deepEqual(seen.foreign, []);
            await ctx.close();
          }
        }
      }
    } finally {
      await browser.close();
    }
  });
});
