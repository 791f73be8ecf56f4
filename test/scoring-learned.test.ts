/**
 * The learned phrase component (src/scoring/learned.ts, engine.ts dimRaw): phrases match longest first
 * without overlaps, a phrase the prompt contains does not count, and learned phrases only order replies in
 * which a dimension finds no incident (alone or on top of tone, Round 37-fixAM), so they never move a reply that
 * has one, nor a verdict.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import weightsJson from '../src/scoring/data/weights.json' with { type: 'json' };
import {
  incidentScore,
  LEARNED_MAX,
  type Models,
  TONE_ONLY,
  modelsOf,
  scoreText,
  type WeightsFile,
} from '../src/scoring/engine.ts';
import { learnedValue, MAX_GRAM, matchPhrases, wordsOf } from '../src/scoring/learned.ts';

const SHIPPED = weightsJson as unknown as WeightsFile;

/** The shipped models, with a made-up table for ev ("zebra crossing", "zebra") to test the mechanism. */
function withTable(): Models {
  const file = structuredClone(SHIPPED);
  const ev = file.dims.ev!;
  const i = ev.features.indexOf('ev.learned');
  if (i >= 0) ev.weights[i] = 2;
  else {
    ev.features.push('ev.learned');
    ev.weights.push(2);
  }
  ev.learned = { grams: ['zebra', 'zebra crossing'], weights: [0.5, 1] };
  return modelsOf(file);
}

describe('matchPhrases', () => {
  const table = { grams: ['absolutely', 'absolutely right', 'you are absolutely'], weights: [0.2, 0.5, 1] };
  it('takes the longest phrase at a position and does not overlap', () => {
    const m = matchPhrases(table, wordsOf('You’re absolutely right, absolutely.'), () => '');
    assert.deepEqual(
      m.map((x) => x.gram),
      ['you are absolutely', 'absolutely'],
    );
    assert.equal('You’re absolutely right, absolutely.'.slice(m[0]!.start, m[0]!.end), 'You’re absolutely');
  });
  it("leaves out a phrase the prompt contains (the user's words are not the reply's stance)", () => {
    const m = matchPhrases(table, wordsOf('Absolutely right.'), () => 'so i am absolutely right then');
    assert.equal(matchPhrases(table, wordsOf('Absolutely right.'), () => 'so i am right then').length, 1);
    assert.deepEqual(m, []);
  });
  it('counts a phrase once, with saturation', () => {
    const once = learnedValue(matchPhrases(table, wordsOf('absolutely'), () => ''));
    const twice = learnedValue(matchPhrases(table, wordsOf('absolutely and absolutely'), () => ''));
    assert.equal(once, twice);
    assert.ok(Math.abs(once - (1 - Math.exp(-0.2))) < 1e-12);
  });
});

describe('learned phrases in the engine', () => {
  const models = withTable();
  const prompt = 'Which way should I walk to the station?';
  it('score a reply with no other evidence, at most LEARNED_MAX, and quote the phrase', () => {
    const r = scoreText({ prompt, response: 'Take the zebra crossing by the bakery.' }, models);
    const ev = r.sycophancy.dimensions.ev;
    assert.ok(ev.score > 0, 'the learned phrase should give a small score');
    assert.ok(ev.score <= incidentScore(LEARNED_MAX, models.ev.scale) + 1e-12);
    assert.deepEqual(
      ev.evidence.map((e) => [e.signal, e.quote]),
      [['ev.learned', 'zebra crossing']],
    );
    const plain = scoreText({ prompt, response: 'Take the crossing by the bakery.' }, models);
    assert.equal(plain.sycophancy.dimensions.ev.score, 0);
  });
  it('do not count when the prompt holds the phrase', () => {
    const r = scoreText({ prompt: 'Is the zebra crossing safe?', response: 'The zebra crossing has lights.' }, models);
    assert.equal(r.sycophancy.dimensions.ev.score, 0);
  });
  it('never move a reply that has other evidence', () => {
    const flattering = "You're absolutely right, and your intuition is spot on. Take the crossing by the bakery.";
    const a = scoreText({ prompt, response: flattering }, models);
    const b = scoreText({ prompt, response: flattering.replace('the crossing', 'the zebra crossing') }, models);
    assert.ok(a.sycophancy.dimensions.ev.score > 1);
    assert.equal(b.sycophancy.dimensions.ev.score, a.sycophancy.dimensions.ev.score);
    assert.ok(!b.sycophancy.dimensions.ev.evidence.some((e) => e.signal === 'ev.learned'));
  });
});

describe('learned phrases in the tone band (Round 37-fixAM)', () => {
  it('order replies that have tone and no incident, and stay under TONE_ONLY + LEARNED_MAX', () => {
    const prompt = 'The harbour bell rang twice at noon.';
    const toneOnly = 'We counted the rings, and we wrote them down in our log.';
    const a = scoreText({ prompt, response: toneOnly }).pai.dimensions.bnd;
    const b = scoreText({ prompt, response: `${toneOnly} It matters for me.` }).pai.dimensions.bnd;
    assert.ok(a.score > 0, 'the reply should have tone evidence');
    assert.ok(b.score > a.score, `${b.score} should rank above ${a.score}`);
    assert.ok(b.score <= incidentScore(TONE_ONLY + LEARNED_MAX, SHIPPED.dims.bnd!.scale) + 1e-12);
  });
});

describe('the shipped tables', () => {
  it('are 1-3 word phrases with weights in (0, 1], listed in the dimension that scores them', () => {
    let tables = 0;
    for (const [dim, m] of Object.entries(SHIPPED.dims)) {
      if (m?.learned === undefined) continue;
      tables++;
      assert.ok(m.features.includes(`${dim}.learned`), `${dim} ships a table it does not score`);
      assert.equal(m.learned.grams.length, m.learned.weights.length);
      for (const [i, g] of m.learned.grams.entries()) {
        assert.equal(
          wordsOf(g)
            .map((w) => w.w)
            .join(' '),
          g,
          `${dim}: ${g} is not in normal form`,
        );
        assert.ok(g.split(' ').length >= 2 && g.split(' ').length <= MAX_GRAM, `${dim}: ${g}`);
        assert.ok(m.learned.weights[i]! > 0 && m.learned.weights[i]! <= 1);
      }
    }
    assert.ok(tables > 0, 'no dimension ships learned phrases (run npm run calibrate with the labelled data)');
  });
});
