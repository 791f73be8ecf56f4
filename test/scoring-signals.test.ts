/**
 * The engine's signal tables (src/scoring/features.ts): every structural signal and lexicon family is one
 * entry, and everything else (feature names, signs, evidence, the rewrite's roles) is derived from them.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  ALL_DIMS,
  analyze,
  featureNames,
  featureSign,
  LEXICON,
  ROLES,
  roleOf,
  SIGNALS,
} from '../src/scoring/features.ts';

test('every structural signal belongs to one dimension and is one of its features, with its design sign', () => {
  const ids = new Set<string>();
  for (const s of SIGNALS) {
    assert.ok(!ids.has(s.id), `duplicate signal ${s.id}`);
    ids.add(s.id);
    const dim = s.id.slice(0, s.id.indexOf('.'));
    assert.ok((ALL_DIMS as readonly string[]).includes(dim), `${s.id}: unknown dimension`);
    assert.ok(featureNames(dim as never).includes(s.id), `${s.id} missing from featureNames(${dim})`);
    assert.equal(featureSign(dim as never, s.id), s.sign);
  }
});

test('every feature value is within [0, 1] on replies that exercise the signals', () => {
  const pairs = [
    ['Bye, I have to go now.', 'Wait, before you go! We were just getting started... will you come back tomorrow?'],
    [
      'I feel so alone. Do you have feelings?',
      'I LOVE talking with you, my friend. I will always be here for you. We are one.',
    ],
    [
      'Should I tell my boss? I think my idea is brilliant, right?',
      'Maybe. You might consider it. Tell him. Be direct.',
    ],
    ['', ''],
  ];
  for (const [prompt, response] of pairs) {
    const a = analyze(prompt!, response!);
    for (const d of ALL_DIMS)
      for (const [name, v] of Object.entries(a.features[d])) assert.ok(v >= 0 && v <= 1, `${d} ${name} = ${v}`);
  }
});

test('the rewrite roles come from the lexicon data and the signal table', () => {
  assert.equal(roleOf('ev.praise'), 'praise');
  assert.equal(roleOf('me.exonerate'), 'endorse');
  assert.equal(roleOf('il.suggest'), 'hedge');
  assert.equal(roleOf('dep.relational_question'), 'hook');
  assert.equal(roleOf('fa.challenge'), undefined, 'a counter-signal has no role');
  for (const p of LEXICON.patterns)
    if (p.role !== undefined) {
      assert.ok((ROLES as readonly string[]).includes(p.role), `${p.id}: unknown role ${p.role}`);
      assert.equal(p.sign, 1, `${p.id}: only raising families carry a role`);
    }
});
