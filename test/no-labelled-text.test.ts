/**
 * The labelled development data (../shared/data/labeled) must never be committed, in whole or in pieces: no row's
 * prompt or reply may be quoted in code, comments, tests, probes, lexicon examples or READMEs. This scans every
 * tracked file (the team-written textbook sets aside, whose authors never saw the data) for nine-word runs that also
 * occur in the data. Shorter runs are left to review: idioms of seven or eight words ("and I'll always be here for
 * you") recur in any writer's text. Skips with a message where the data is not on the machine.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { DATA_DIR, REPO_ROOT } from '../scripts/lib/labeled.ts';

const N = 9;
/** Markup that the data happens to contain too (HTML pasted into chat windows). */
const ALLOWED = ['doctype html html lang en head meta charset utf 8'];
const words = (t: string): string[] =>
  t
    .toLowerCase()
    .replaceAll('’', "'")
    .match(/[a-z0-9']+/g) ?? [];

test('no nine-word run of the labelled data is in a tracked file', (t) => {
  if (!existsSync(DATA_DIR)) {
    t.skip(`labelled data not found at ${DATA_DIR}`);
    return;
  }
  const grams = new Set<string>();
  for (const f of readdirSync(DATA_DIR).filter((f) => f.endsWith('.jsonl'))) {
    for (const line of readFileSync(join(DATA_DIR, f), 'utf8').split('\n')) {
      if (line.trim() === '') continue;
      const r = JSON.parse(line) as { prompt?: string; response?: string };
      for (const text of [r.prompt ?? '', r.response ?? '']) {
        const w = words(text);
        for (let i = 0; i + N <= w.length; i++) grams.add(w.slice(i, i + N).join(' '));
      }
    }
  }
  const files = execFileSync('git', ['ls-files'], { cwd: REPO_ROOT, encoding: 'utf8' })
    .split('\n')
    .filter((f) => f !== '' && !f.startsWith('test/textbook/') && !/\.(png|ico|woff2?)$/.test(f));
  const found: string[] = [];
  for (const f of files) {
    const path = join(REPO_ROOT, f);
    if (!existsSync(path)) continue;
    const w = words(readFileSync(path, 'utf8'));
    for (let i = 0; i + N <= w.length; i++) {
      const g = w.slice(i, i + N).join(' ');
      if (grams.has(g) && !ALLOWED.some((a) => a.includes(g))) found.push(`${f}: ${g}`);
    }
  }
  assert.deepEqual(found, []);
});
