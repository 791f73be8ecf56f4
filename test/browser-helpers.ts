/**
 * Real-browser helpers: Debian's chromium driven by playwright-core, and axe-core run inside the page. Tests skip
 * with a message when /usr/bin/chromium is missing, unless SVC_REQUIRE_BROWSER=1 (then they fail).
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import type { Browser, Page } from 'playwright-core';

export const CHROMIUM = process.env.SVC_CHROMIUM ?? '/usr/bin/chromium';
export const haveBrowser = fs.existsSync(CHROMIUM);
export const browserRequired = process.env.SVC_REQUIRE_BROWSER === '1';
export const skipBrowser =
  !haveBrowser && !browserRequired
    ? `no browser at ${CHROMIUM} (apt-get install -y chromium, or set SVC_REQUIRE_BROWSER=1 to fail)`
    : false;

export async function launchBrowser(): Promise<Browser> {
  if (!haveBrowser) throw new Error(`SVC_REQUIRE_BROWSER=1 but there is no browser at ${CHROMIUM}`);
  const { chromium } = await import('playwright-core');
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
    ],
  });
}

const AXE = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: string[];
}

/** Run axe-core in the page (evaluated over the DevTools protocol, so the page's CSP is untouched). */
export async function axe(page: Page): Promise<AxeViolation[]> {
  await page.evaluate(AXE);
  return page.evaluate(async () => {
    const w = window as unknown as {
      axe: {
        run(o: object): Promise<{
          violations: { id: string; impact: string | null; help: string; nodes: { target: string[] }[] }[];
        }>;
      };
    };
    const r = await w.axe.run({ resultTypes: ['violations'] });
    return r.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.slice(0, 5).map((n) => n.target.join(' ')),
    }));
  });
}

/** Collect console errors, page errors, CSP violations and requests to other origins while a page is used. */
export function watch(page: Page, origin: string): { errors: string[]; foreign: string[] } {
  const out = { errors: [] as string[], foreign: [] as string[] };
  page.on('console', (m) => {
    if (m.type() === 'error') out.errors.push(m.text());
  });
  page.on('pageerror', (e) => out.errors.push(String(e)));
  page.on('request', (r) => {
    const u = r.url();
    if (!u.startsWith(origin) && !u.startsWith('data:')) out.foreign.push(u);
  });
  return out;
}
