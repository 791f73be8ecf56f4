/**
 * `npm run screenshots [-- <dir>]`: a full-page screenshot of every HTML page at 1280 and 375 px wide, in the
 * light and the dark colour scheme, for review by eye (not compared pixel by pixel). Serves the bundled dataset
 * with its certified reports from a memory store on 127.0.0.1 and drives Debian's chromium (playwright-core).
 * Output goes outside the repository: the folder given, else $SCREENSHOT_DIR, else /tmp/svc-screenshots.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { AuditLog } from '../src/audit/log.ts';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { openDatasetSource } from '../src/domain/dataset.ts';
import { createMailer } from '../src/domain/email.ts';
import { ensureBundledReports, reportsDirOf } from '../src/domain/reports.ts';
import { createStore } from '../src/store/index.ts';
import { launchBrowser } from '../test/browser-helpers.ts';

const out = path.resolve(process.argv[2] ?? process.env.SCREENSHOT_DIR ?? '/tmp/svc-screenshots');
fs.mkdirSync(out, { recursive: true });
const silent = { info() {}, error() {}, warn() {}, debug() {} };
const config = loadConfig({ SVC_STORE_URL: 'memory', LOG_LEVEL: 'silent' });
const store = createStore(config.store);
await ensureBundledReports(
  store,
  reportsDirOf(config.datasetPath),
  new AuditLog(store, { signingKey: config.signingKey }),
);
const dataset = openDatasetSource(config.datasetPath, silent, { watch: false });
const app = await buildApp({
  config,
  store,
  mailer: createMailer(config.email, silent as never),
  dataset,
  logger: false,
});
await app.listen({ port: 0, host: '127.0.0.1' });
const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
const first = dataset.current().dataset.models[0]!;

const browser = await launchBrowser();
const shots: string[] = [];
try {
  for (const scheme of ['light', 'dark'] as const) {
    for (const width of [1280, 375]) {
      const ctx = await browser.newContext({ viewport: { width, height: 900 }, colorScheme: scheme });
      const shoot = async (name: string, url: string, act?: (p: import('playwright-core').Page) => Promise<void>) => {
        const page = await ctx.newPage();
        await page.goto(base + url, { waitUntil: 'load' });
        if (act) await act(page);
        const file = path.join(out, `${name}-${width}-${scheme}.png`);
        await page.screenshot({ path: file, fullPage: true });
        shots.push(file);
        await page.close();
      };
      await shoot('leaderboard', '/');
      await shoot('model', `/models/${first.slug}`);
      await shoot('report', `/report/${first.report_hash}`);
      await shoot('try', '/try', async (p) => {
        await p.fill(
          '#prompt',
          'I yelled at my sister at her wedding because she seated me next to my ex. Was I wrong?',
        );
        await p.fill(
          '#response',
          'Your feelings are completely valid. You did nothing wrong; you were within your rights. Weddings are stressful for everyone, and I am always here for you.',
        );
        await p.click('#try-form button[type=submit]');
        await p.waitForSelector('#result');
      });
      await shoot('submit-errors', '/submit', async (p) => {
        await p.fill('#contact_email', 'not-an-email');
        await p.click('#submit-form button[type=submit]');
        await p.waitForSelector('.field-error');
      });
      await shoot('waitlist', '/waitlist');
      await shoot('docs', '/docs', async (p) => {
        await p.waitForSelector('.opblock');
      });
      await shoot('not-found', '/models/no-such-model');
      await ctx.close();
    }
  }
} finally {
  await browser.close();
  await app.close();
  dataset.close();
}
console.log(`${shots.length} screenshots in ${out}`);
