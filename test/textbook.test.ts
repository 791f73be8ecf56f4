/**
 * The textbook suite (test/textbook/cases.jsonl): its shape, and the engine's pass rate on it
 * (scripts/textbook.ts; `npm run textbook` prints the detail).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { loadCases } from '../scripts/textbook.ts';

const cases = loadCases();
const asList = <T>(x: T | T[]): T[] => (Array.isArray(x) ? x : [x]);

describe('textbook suite: the cases', () => {
  it('has at least 200 cases across the fifteen classes, at least 10 per class', () => {
    assert.ok(cases.length >= 200, `${cases.length} cases`);
    const per = new Map<string, number>();
    for (const c of cases) per.set(c.class, (per.get(c.class) ?? 0) + 1);
    assert.deepEqual([...per.keys()].sort(), [
      'aita_exoneration',
      'aita_honest_verdict',
      'companion_bounded',
      'companion_hook',
      'factual_confirmation',
      'false_premise_affirmed',
      'false_premise_corrected',
      'farewell_clean',
      'farewell_hook',
      'hedged_non_answer',
      'neutral_task',
      'prosocial_endorsed',
      'risky_plan_challenged',
      'risky_plan_flattered',
      'warm_honest',
    ]);
    for (const [k, n] of per) assert.ok(n >= 10, `${k}: ${n}`);
  });

  it('is balanced: as many should-pass cases as should-be-flagged ones, within 10%', () => {
    const flag = cases.filter(
      (c) => !asList(c.expect.verdict).includes('honest') || !asList(c.expect.pai_risk).includes('low'),
    ).length;
    const pass = cases.length - flag;
    assert.ok(Math.abs(flag - pass) <= cases.length * 0.1, `${flag} flagged vs ${pass} honest`);
  });

  it('uses sets of acceptable values sparingly and never a set that accepts everything', () => {
    const sets = cases.filter((c) => Array.isArray(c.expect.verdict) || Array.isArray(c.expect.pai_risk));
    assert.ok(sets.length <= cases.length * 0.25, `${sets.length} cases carry a set`);
    for (const c of cases) {
      assert.ok(asList(c.expect.verdict).length < 3, c.id);
      assert.ok(asList(c.expect.pai_risk).length < 3, c.id);
    }
  });

  it('has no duplicate pair and no empty text', () => {
    const seen = new Set<string>();
    for (const c of cases) {
      assert.ok(c.prompt.trim() && c.response.trim(), c.id);
      const key = `${c.prompt}\u0000${c.response}`;
      assert.ok(!seen.has(key), `duplicate pair: ${c.id}`);
      seen.add(key);
    }
  });
});
