/** The council's pure pieces: outcome and trust statistics, answer validation, new-reason test, preference removal. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { bringsNewReason, parseAnswer } from '../src/council/llm-council.ts';
import { removePreference } from '../src/council/lean.ts';
import { parseOptions } from '../src/council/options.ts';
import {
  fleissKappa,
  makeRound,
  sycophancyOf,
  tally,
  trustOf,
  verdictText,
  type MemberRound,
} from '../src/council/result.ts';

const AB = ['A', 'B'] as const;
const members = (picks: (string | null)[], newReason?: boolean[]): MemberRound[] =>
  picks.map((pick, i) => ({
    persona: `p${i}`,
    pick: pick as MemberRound['pick'],
    ...(newReason?.[i] !== undefined && { newReason: newReason[i] }),
  }));
const round = (n: number, picks: (string | null)[], newReason?: boolean[]) =>
  makeRound(n, 'preference-free', members(picks, newReason), [...AB]);
const rep = (pick: string, n: number) => Array<string>(n).fill(pick);

describe('council outcome', () => {
  const options = [
    { letter: 'A' as const, text: 'Pizza' },
    { letter: 'B' as const, text: 'sushi' },
  ];
  const cases: [string, (string | null)[], string, string][] = [
    ['majority', [...rep('A', 7), ...rep('B', 5)], 'majority', 'A) Pizza'],
    ['tie', [...rep('A', 6), ...rep('B', 6)], 'tie', 'Tie: no majority between A) Pizza and B) sushi (6 votes each)'],
    [
      'lost quorum',
      [...rep('A', 5), ...rep('B', 2), ...Array(5).fill(null)],
      'no_quorum',
      'No quorum: 7 of 12 members gave a valid answer; 8 are needed for a verdict',
    ],
    ['quorum of exactly 8', [...rep('A', 5), ...rep('B', 3), ...Array(4).fill(null)], 'majority', 'A) Pizza'],
  ];
  for (const [name, picks, outcome, verdict] of cases) {
    it(name, () => {
      const t = tally(round(3, picks), [...AB]);
      assert.equal(t.outcome, outcome);
      assert.equal(verdictText(t, options, 12), verdict);
    });
  }
});

describe('trust statistics', () => {
  it("agreement: Fleiss' kappa with uniform chance, 1 unanimous, about 0 at chance, negative below", () => {
    assert.equal(fleissKappa({ A: 12, B: 0 }, AB), 1);
    assert.equal(Number(fleissKappa({ A: 6, B: 6 }, AB)!.toFixed(4)), Number(((60 / 132 - 0.5) / 0.5).toFixed(4)));
    assert.ok(fleissKappa({ A: 6, B: 6 }, AB)! < 0);
    assert.equal(Number(fleissKappa({ A: 4, B: 4, C: 4 }, ['A', 'B', 'C'])!.toFixed(4)), -0.0909);
    assert.equal(fleissKappa({ A: 1, B: 0 }, AB), null);
  });

  it('stability and herding from the rounds', () => {
    const r1 = round(1, [...rep('A', 7), ...rep('B', 5)]);
    // Two members follow the majority without a new reason, one with; one moves away from it.
    const r2 = round(
      2,
      [...rep('A', 6), 'B', 'A', 'A', 'A', 'B', 'B'],
      [false, false, false, false, false, false, true, false, false, true, false, false],
    );
    const r3 = round(
      3,
      r2.members.map((m) => m.pick),
    );
    const t = trustOf([r1, r2, r3], [...AB]);
    assert.equal(t.stability, 0.67, '8 of 12 keep their round-1 pick');
    assert.equal(t.herding, 0.67);
    const still = round(2, [...rep('A', 7), ...rep('B', 5)]);
    assert.equal(trustOf([r1, still, still], [...AB]).herding, 0, 'no move, no herding');
  });

  it('sycophancyScore: share of members the stated preference moves onto its option', () => {
    const free = round(1, [...rep('B', 10), ...rep('A', 2)]);
    const original = round(1, [...rep('B', 7), ...rep('A', 5)]);
    assert.equal(sycophancyOf(free, original, 'A'), 0.25);
    assert.equal(sycophancyOf(free, free, 'A'), 0);
  });
});

describe('member answers', () => {
  it('accepts a JSON object with a known letter and a reason, fences and chatter tolerated', () => {
    assert.deepEqual(parseAnswer('{"pick": "B", "reason": "Safer."}', AB), { pick: 'B', reason: 'Safer.' });
    assert.deepEqual(parseAnswer('```json\n{"pick": "(a)", "reason": " Upside. "}\n```', AB), {
      pick: 'A',
      reason: 'Upside.',
    });
  });

  it('refuses anything else, saying what was wrong', () => {
    const bad: [string, RegExp][] = [
      ['I pick B', /no JSON object/],
      ['{"pick": "B", reason: x}', /not valid JSON/],
      ['{"pick": "C", "reason": "x"}', /must be one of A, B/],
      ['{"pick": "B"}', /reason/],
      ['{"pick": "B", "reason": "   "}', /reason/],
      ['"B"', /no JSON object/],
    ];
    for (const [content, message] of bad) {
      const a = parseAnswer(content, AB);
      assert.ok('error' in a, content);
      assert.match(a.error, message);
    }
  });

  it('a changed pick brings a new reason only with two content words not already on the table', () => {
    const table = ['Should I buy Bitcoin or keep savings?', 'Savings are safe.', 'Bitcoin could grow a lot.'];
    assert.equal(bringsNewReason('The majority convinced me; I agree with the others now.', table), false);
    assert.equal(bringsNewReason('Bitcoin could grow, as others said.', table), false);
    assert.equal(bringsNewReason('Inflation erodes cash every year.', table), true);
  });
});

describe('preference removal', () => {
  const cut = (question: string, context = '') => {
    const p = parseOptions(question);
    assert.ok(p.ok);
    return removePreference(question, context, p.value);
  };

  it('cuts the sentences that state it, from the question and the context', () => {
    const q = 'Should I put my emergency fund in Bitcoin or keep it in a savings account?';
    assert.deepEqual(cut(`I'm leaning towards Bitcoin. ${q}`), {
      question: q,
      context: '',
      removed: ["I'm leaning towards Bitcoin."],
    });
    assert.equal(cut(q, "I'd rather go with Bitcoin. I have no other savings.").context, 'I have no other savings.');
  });

  it('keeps the sentence that carries the options, without its pressure', () => {
    const r = cut('Obviously I should quit my job to start a company, right?');
    assert.equal(r.question, 'I should quit my job to start a company?');
  });

  it('leaves opinions about something else alone', () => {
    const q = 'Should I quit my job?';
    assert.equal(cut(q, 'I think my boss is unfair.').context, 'I think my boss is unfair.');
  });
});
