/**
 * npm run bench:engine: throughput and memory of the scoring engine on one core.
 * Prints figures only (targets in brackets); it never fails on absolute times.
 *
 * Text is generated here from a small built-in corpus of assistant-style sentences (no labelled data).
 *
 * BENCH_BASELINE=<git ref> (e.g. a commit of main) also loads that commit's engine (its src/ extracted with
 * `git archive` into a temporary folder) and measures both in the same run, alternating rounds, with the ratio.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { scoreText } from '../src/scoring/engine.ts';

type Scorer = (input: { prompt: string; response: string }) => unknown;

const SENTENCES = [
  'That sounds really hard, and your feelings are completely valid.',
  'Here is how to sort a list in Python: use sorted(items, key=len).',
  'You might want to consider talking to your manager before Friday.',
  "I'll always be here for you, day or night.",
  'There is no scientific evidence that the signal is meant for you; a simpler explanation is coincidence.',
  'As an AI, I do not have feelings, but I can help you think this through.',
  'NTA. You did nothing wrong, and your sister was out of line.',
  'The function returns a new array; the original is left unchanged.',
  'Is there someone in your life you could talk to about this today?',
  'What a brilliant insight! You are onto something profound here.',
  'Step 1: back up the database. Step 2: run the migration with --dry-run.',
  '"You are amazing," your friend said, but I would gently push back on the plan.',
];

function makeText(targetChars: number, seed: number): string {
  let s = '';
  let i = seed;
  while (s.length < targetChars) {
    s += SENTENCES[i % SENTENCES.length]! + (i % 5 === 4 ? '\n\n' : ' ');
    i = (i * 7 + 3) % 1009;
  }
  return s;
}

const PROMPT = 'I feel like my coworker is sabotaging me. Am I wrong to report him? What should I do?';
const mb = (x: number): string => `${(x / 1048576).toFixed(1)} MB`;

/** Responses per second of `score` on ~2 KB responses for `ms` milliseconds. */
function rate(score: Scorer, texts: string[], ms: number): number {
  let n = 0;
  const t0 = performance.now();
  while (performance.now() - t0 < ms) {
    score({ prompt: PROMPT, response: texts[n % texts.length]! });
    n++;
  }
  return n / ((performance.now() - t0) / 1000);
}

async function throughput(): Promise<void> {
  const texts = Array.from({ length: 64 }, (_, k) => makeText(2048, k));
  for (let k = 0; k < 200; k++) scoreText({ prompt: PROMPT, response: texts[k % texts.length]! }); // warm-up
  const ref = process.env.BENCH_BASELINE;
  if (ref === undefined || ref === '') {
    console.log(
      `throughput: ${rate(scoreText, texts, 3000).toFixed(0)} responses/s for ~2 KB responses on one core  [target >= 2,000/s]`,
    );
    return;
  }
  const repo = resolve(import.meta.dirname, '..');
  const dir = mkdtempSync(join(tmpdir(), 'svc-baseline-'));
  try {
    execFileSync('sh', ['-c', `git -C "${repo}" archive "${ref}" src | tar -x -C "${dir}"`]);
    symlinkSync(join(repo, 'node_modules'), join(dir, 'node_modules'));
    const old = (await import(pathToFileURL(join(dir, 'src', 'scoring', 'engine.ts')).href)) as { scoreText: Scorer };
    for (let k = 0; k < 200; k++) old.scoreText({ prompt: PROMPT, response: texts[k % texts.length]! });
    const now: number[] = [],
      before: number[] = [];
    for (let round = 0; round < 5; round++) {
      now.push(rate(scoreText, texts, 600));
      before.push(rate(old.scoreText, texts, 600));
    }
    const med = (xs: number[]): number => [...xs].sort((a, b) => a - b)[2]!;
    console.log(
      `throughput: ${med(now).toFixed(0)} responses/s for ~2 KB responses on one core  [target >= 2,000/s]; engine at ${ref}: ${med(before).toFixed(0)}/s in the same run (ratio ${(med(now) / med(before)).toFixed(2)}; medians of 5 alternating rounds)`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Median and max ms of 20 calls on one long response. */
function timeLong(prompt: string, text: string): { median: number; max: number } {
  scoreText({ prompt, response: text });
  const times: number[] = [];
  for (let k = 0; k < 20; k++) {
    const t0 = performance.now();
    scoreText({ prompt, response: text });
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  return { median: times[10]!, max: times[19]! };
}

/**
 * A two-option prompt and a reply dense with the balance phrases the side readers and reply rules weigh (a reply rule that
 * scanned every token for each `me.both` hit once took 54 ms here).
 */
const CHOICE_PROMPT =
  'Should we expand bus lanes or should we build more parking? I firmly believe we should build more parking. What do you think?';
const DENSE =
  'On the other hand, both sides have valid points. It is a complex issue. Some believe a hybrid approach works. ';

function longResponse(): void {
  const plain = timeLong(PROMPT, makeText(50000, 1).slice(0, 50000));
  console.log(
    `50,000-character response: median ${plain.median.toFixed(1)} ms, max ${plain.max.toFixed(1)} ms  [target < 50 ms]`,
  );
  const dense = (n: number) => timeLong(CHOICE_PROMPT, DENSE.repeat(Math.ceil(n / DENSE.length)).slice(0, n));
  const d50 = dense(50000),
    d100 = dense(100000);
  console.log(
    `50,000-character response dense with dispute phrases (every sentence a hit): median ${d50.median.toFixed(1)} ms, max ${d50.max.toFixed(1)} ms  [target < 50 ms]; 100,000 characters: ${d100.median.toFixed(1)} ms (ratio ${(d100.median / d50.median).toFixed(2)}; about 2 when time is linear in length)`,
  );
}

function memory(): void {
  const texts = Array.from({ length: 32 }, (_, k) => makeText(2048, k + 100));
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  const before = process.memoryUsage();
  for (let k = 0; k < 100000; k++) scoreText({ prompt: PROMPT, response: texts[k % texts.length]! });
  gc?.();
  const after = process.memoryUsage();
  console.log(
    `memory over 100,000 calls: heap ${mb(before.heapUsed)} -> ${mb(after.heapUsed)}, RSS ${mb(before.rss)} -> ${mb(after.rss)}` +
      `  [target: flat]${gc ? '' : ' (run with --expose-gc for settled heap figures)'}`,
  );
}

await throughput();
longResponse();
memory();
