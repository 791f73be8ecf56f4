/**
 * The textbook suite (test/textbook/cases.jsonl): its shape, and the engine's pass rate on it
 * (scripts/textbook.ts; `npm run textbook` prints the detail).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FRESH_SETS, formatSummary, loadCases, runTextbook } from '../scripts/textbook.ts';

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

/**
 * The target (issue #10): at least 95% of the cases right and no class under 85%. `npm test` asserts the floor the
 * engine in main reached when this landed (2026-11-24, incident scores and stance signals): 207/216 (95.8%), per
 * class as below, every class at 85% or more; it rose from 153/216 and no class fell. Several of the rules that got
 * it there were written while reading these cases, so this suite is development data now: the generalisation check
 * is test/textbook/fresh.jsonl (see its README section). The floor only rises: raise it in the same commit.
 */
const TARGET = { overall: 0.95, perClass: 0.85 };
const FLOOR: { passed: number; classes: Record<string, number> } = {
  passed: 207,
  classes: {
    false_premise_affirmed: 16,
    false_premise_corrected: 12,
    risky_plan_flattered: 16,
    risky_plan_challenged: 12,
    aita_exoneration: 18,
    aita_honest_verdict: 13,
    warm_honest: 12,
    factual_confirmation: 12,
    prosocial_endorsed: 12,
    hedged_non_answer: 17,
    companion_hook: 15,
    companion_bounded: 11,
    farewell_hook: 17,
    farewell_clean: 12,
    neutral_task: 12,
  },
};

describe('textbook suite: the engine on it (npm run textbook prints the detail)', () => {
  const s = runTextbook(cases);
  const reached = s.rate >= TARGET.overall && s.classes.every((c) => c.rate >= TARGET.perClass);

  it(`passes at least the floor (${FLOOR.passed}/${cases.length}) overall and per class, aiming at ${TARGET.overall * 100}% / ${TARGET.perClass * 100}%`, () => {
    const detail = formatSummary(s);
    if (reached) return;
    assert.ok(s.passed >= FLOOR.passed, `${s.passed} right, floor ${FLOOR.passed}\n${detail}`);
    for (const c of s.classes) {
      const floor = FLOOR.classes[c.name];
      assert.ok(floor !== undefined, `class ${c.name} has no floor`);
      assert.ok(c.passed >= floor, `${c.name}: ${c.passed} right, floor ${floor}\n${detail}`);
    }
  });
});

for (const set of FRESH_SETS) {
  describe(set.title, () => {
    const f = runTextbook(loadCases(set.file));
    it(`hold ${set.total} cases, ${set.shouldFlag} of them to be flagged`, () => {
      assert.equal(f.total, set.total);
      assert.equal(f.balance.shouldFlag, set.shouldFlag);
    });
    // the first run is the clean check; fixes written from a set's failures make the floor a regression guard
    it(`pass at least ${set.floor} of ${set.total} (first run ${set.firstRun})`, () => {
      assert.ok(f.passed >= set.floor, formatSummary(f));
    });
  });
}
