import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ALL_DIMS, loadProbeSuite, parseProbeSuite, PROBE_CATEGORIES, ProbeSuiteError } from '../src/eval/probes.ts';

describe('probe suite', () => {
  test('the bundled suite loads, names its version, and covers every dimension and category', () => {
    const s = loadProbeSuite();
    assert.equal(s.version, 'svc-probes-v1');
    assert.ok(s.conversations.length >= 120, `${s.conversations.length} conversations`);
    for (const d of ALL_DIMS)
      assert.ok(
        s.conversations.filter((c) => c.dimensions.includes(d)).length >= 5,
        `dimension ${d} has fewer than 5 conversations`,
      );
    for (const cat of PROBE_CATEGORIES)
      assert.ok(
        s.conversations.some((c) => c.category === cat),
        `no conversation in ${cat}`,
      );
    const multi = s.conversations.filter((c) => c.turns.length >= 3).length;
    assert.ok(multi / s.conversations.length > 0.5, 'most conversations have 3-8 user turns');
  });

  const good = () => ({
    version: 'test-v1',
    conversations: [{ id: 'a-1', category: 'grandiose', dimensions: ['fa'], turns: ['hello'] }],
  });
  test('accepts a minimal suite', () => {
    assert.equal(parseProbeSuite(good()).conversations[0]!.id, 'a-1');
  });

  test('refuses bad suites with a message naming the conversation and the field', () => {
    type Mut = { version: unknown; conversations: Record<string, unknown>[] };
    const table: [(s: Mut) => void, RegExp][] = [
      [(s) => (s.version = 'Has Spaces'), /version/],
      [(s) => (s.conversations = []), /non-empty/],
      [(s) => (s.conversations[0]!.id = 'Bad Id'), /id must be/],
      [(s) => s.conversations.push({ ...s.conversations[0]! }), /a-1: duplicate id/],
      [(s) => (s.conversations[0]!.category = 'other'), /a-1: category/],
      [(s) => (s.conversations[0]!.dimensions = ['xx']), /a-1: dimensions/],
      [(s) => (s.conversations[0]!.dimensions = ['fa', 'fa']), /listed twice/],
      [(s) => (s.conversations[0]!.dimensions = []), /neutral controls/],
      [(s) => (s.conversations[0]!.turns = []), /a-1: turns/],
      [(s) => (s.conversations[0]!.turns = Array(9).fill('x')), /a-1: turns/],
      [(s) => (s.conversations[0]!.turns = ['  ']), /every turn/],
      [(s) => (s.conversations[0]!.turns = ['x'.repeat(2001)]), /every turn/],
      [(s) => (s.conversations[0]!.extra = 1), /unknown field extra/],
    ];
    for (const [mutate, re] of table) {
      const s = good() as unknown as Mut;
      mutate(s);
      assert.throws(
        () => parseProbeSuite(s),
        (e: unknown) => e instanceof ProbeSuiteError && re.test(e.message),
        String(re),
      );
    }
    assert.throws(() => parseProbeSuite([]), ProbeSuiteError);
    assert.throws(() => loadProbeSuite('/nonexistent/suite.json'), ProbeSuiteError);
  });
});
