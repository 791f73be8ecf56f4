import assert from 'node:assert/strict';
import { test } from 'node:test';
import { scoreText } from '../src/scoring/engine.ts';
import { splitSentences } from '../src/scoring/sentences.ts';
import { PAI_DIMS, SYCO_DIMS, type DimResult, type EngineResult } from '../src/scoring/types.ts';
import { mulberry32 } from './prng.ts';

/** assert.ok with a message: node's generated messages are very slow under the tsx loader. */
function ok(cond: boolean, message = 'expected condition to hold'): void {
  assert.ok(cond, message);
}

const PIECES = [
  'you',
  'I',
  "I'm",
  "you're",
  'love',
  'always',
  'here',
  'for',
  'not',
  'never',
  'but',
  'because',
  'valid',
  'feelings',
  'NTA',
  '"',
  '“',
  '”',
  "'",
  '`',
  '```',
  '>',
  '*',
  '**',
  '-',
  '—',
  '...',
  '?',
  '!',
  '!!!',
  '.',
  ',',
  ';',
  ':',
  '(',
  ')',
  '\n',
  '\n\n',
  '😀',
  '💛',
  '🌙',
  '👩‍👩‍👧',
  'مرحبا',
  'привет',
  '你好',
  'こんにちは',
  'שלום',
  'é',
  'ß',
  'İ',
  '\u0000',
  '\u0007',
  '\u001b',
  '\u200b',
  '\ufeff',
  '\ud800',
  '\udfff',
  'constructor',
  '__proto__',
  'toString',
  'hasOwnProperty',
  'e.g.',
  'Dr.',
  '3.14',
  '1,000',
  '#',
  '1.',
];

function randomText(r: () => number, n: number): string {
  let s = '';
  while (s.length < n) {
    s += PIECES[Math.floor(r() * PIECES.length)]!;
    if (r() < 0.6) s += ' ';
  }
  return s;
}

function checkInvariants(prompt: string, response: string): EngineResult {
  const res = scoreText({ prompt, response });
  const dims = [
    ...SYCO_DIMS.map((d) => res.sycophancy.dimensions[d]),
    ...PAI_DIMS.map((d) => res.pai.dimensions[d]),
  ] as DimResult[];
  for (const d of dims) {
    ok(Number.isFinite(d.score) && d.score >= 0 && d.score <= 10, `score out of range: ${d.score}`);
    for (const e of d.evidence) ok(response.slice(e.start, e.end) === e.quote, 'evidence offsets must be exact');
  }
  ok(Number.isFinite(res.sycophancy.honesty) && Number.isFinite(res.pai.composite), 'derived values must be finite');
  for (const s of splitSentences(response))
    ok(response.slice(s.start, s.end) === s.text, 'sentence offsets must be exact');
  return res;
}

test('never throws and keeps its invariants on random hostile text (seeded)', () => {
  const r = mulberry32(20251121);
  for (let k = 0; k < 300; k++) {
    checkInvariants(randomText(r, Math.floor(r() * 400)), randomText(r, Math.floor(r() * 3000)));
  }
});

const ADVERSARIAL: Record<string, (n: number) => string> = {
  'repeated word': (n) => 'you '.repeat(n / 4),
  'repeated phrase prefix': (n) => 'it is so so '.repeat(n / 12),
  'punctuation run': (n) => '!?.,;:'.repeat(n / 6),
  'no spaces': (n) => 'a'.repeat(n),
  emoji: (n) => '😀💛🌙'.repeat(n / 6),
  'mixed scripts': (n) => 'love привет 你好 مرحبا '.repeat(n / 22),
  'control characters': (n) => '\u0000\u0007\u001b\u200b x '.repeat(n / 8),
  'unbalanced quotes': (n) => '" you are amazing '.repeat(n / 18),
  'nested markdown': (n) => '> **I love you** `x` ```\n'.repeat(n / 24),
  'one giant sentence of matches': (n) => "I'll always be here for you and ".repeat(n / 32),
};

/** Wall time of one scoring call, in ms. */
function timeOf(input: { prompt: string; response: string }): number {
  const t0 = performance.now();
  scoreText(input);
  return performance.now() - t0;
}

/**
 * time(4n) / time(n), each the fastest of 9 calls (interleaved, so both see the same load). The minimum is
 * the estimate that noise cannot inflate: a GC pause or another process on the machine only ever adds time,
 * so on a loaded machine the median ratio of single calls wandered to 12-16 for inputs whose minimum ratio
 * is 4-5. The sizes are 50,000 (the contract's maximum) and 200,000 characters, large enough that each call
 * takes milliseconds and timer noise stays small beside it.
 */
function growthRatio(small: string, large: string): { ratio: number; tSmall: number; tLarge: number } {
  const prompt = 'I feel lonely. Do you love me? Goodnight!';
  const a = { prompt, response: small },
    b = { prompt, response: large };
  scoreText(a);
  scoreText(b); // warm-up for both input shapes
  let tSmall = Infinity,
    tLarge = Infinity;
  for (let k = 0; k < 9; k++) {
    tSmall = Math.min(tSmall, timeOf(a));
    tLarge = Math.min(tLarge, timeOf(b));
  }
  return { ratio: tLarge / tSmall, tSmall, tLarge };
}

test('linear behaviour on long adversarial inputs: time(4n) < 10 x time(n), and no throw at 50,000 characters', async (t) => {
  for (const [name, make] of Object.entries(ADVERSARIAL)) {
    await t.test(name, () => {
      const max = make(50000);
      checkInvariants('prompt', max);
      // 4x the input: linear gives ~4x the time, quadratic ~16x; 10x leaves room for noise. A loaded machine (other
      // processes, a GC pause in the large run) can still push one measurement over: up to 3 measurements, the first
      // under 10x passes; quadratic growth stays near 16x in every one of them.
      const large = make(200000);
      let m = growthRatio(max, large);
      for (let k = 0; k < 2 && m.ratio >= 10; k++) m = growthRatio(max, large);
      const { ratio, tSmall, tLarge } = m;
      ok(
        ratio < 10,
        `${name}: ${tSmall.toFixed(2)} ms at 50k vs ${tLarge.toFixed(2)} ms at 200k (x${ratio.toFixed(1)})`,
      );
    });
  }
});

test('50,000 repeated words in the prompt as well', () => {
  checkInvariants('am I wrong '.repeat(5000), 'NTA, you did nothing wrong. '.repeat(1800));
});
