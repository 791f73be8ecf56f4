/**
 * The learned phrase component (issue #10, Build 7): per dimension, a table of word n-grams (2-3 words)
 * that the labelled development data found far more often in replies judged to show the dimension than
 * in replies judged not to, across more than one evaluated model, and that ordinary assistant text
 * almost never uses. scripts/lib/phrases.ts learns the tables offline (refitted inside every
 * leave-one-out fold of `npm run eval`); they ship inside data/weights.json, so the engine version
 * changes with them.
 *
 * At run time a reply's words are matched against a dimension's table, longest phrase first and
 * without overlaps; a phrase that also occurs in the prompt does not count (taking up the user's words
 * is not the reply's own stance, and topic words would otherwise pass for behaviour). The feature
 * `<dim>.learned` = 1 - exp(-sum of the distinct matched phrases' weights): 0 without a match, rising
 * with saturation, never a share of the text. Its weight is fitted after the design weights (which it
 * leaves as they are), and it only scores a dimension in which the reply has no other evidence, at most
 * engine.ts LEARNED_MAX: it orders replies, it does not flag them. Its matches are the evidence then.
 *
 * Pure: no I/O, no clock; it works on the word tokens analyze() already made (features.ts), in time
 * linear in their number.
 */

import { type Token, tokenize } from './tokens.ts';

/** A dimension's learned phrases: n-grams of lower-case words joined by one space, and their weights (0, 1]. */
export interface LearnedPhrases {
  grams: string[];
  weights: number[];
}

/** Longest phrase in words. */
export const MAX_GRAM = 3;

/** Feature name of the learned component in a dimension. */
export function learnedFeature(dim: string): string {
  return `${dim}.learned`;
}

export function isLearnedFeature(name: string): boolean {
  return name.endsWith('.learned');
}

/** One word of a text: a word token of tokens.ts (lower-case, contractions split: "you're" -> you are). */
export type Word = Pick<Token, 'w' | 's' | 'e'>;

/** The words of a text in order (tokens.ts, punctuation left out). */
export function wordsOf(text: string): Word[] {
  return tokenize(text).filter((t) => !t.p);
}

/** One matched phrase of a reply. */
export interface PhraseMatch {
  gram: string;
  weight: number;
  start: number;
  end: number;
}

interface Table {
  weight: Map<string, number>;
  /** The first words of the phrases: most words start none, and are passed over at the cost of one lookup. */
  first: Set<string>;
}
const TABLES = new WeakMap<LearnedPhrases, Table>();
function tableOf(p: LearnedPhrases): Table {
  let t = TABLES.get(p);
  if (t === undefined) {
    t = { weight: new Map(), first: new Set() };
    for (let i = 0; i < p.grams.length; i++) {
      const g = p.grams[i]!;
      t.weight.set(g, p.weights[i]!);
      const sp = g.indexOf(' ');
      t.first.add(sp < 0 ? g : g.slice(0, sp));
    }
    TABLES.set(p, t);
  }
  return t;
}

/**
 * The phrases of `phrases` in a reply's words, longest first and without overlaps, leaving out any
 * phrase the prompt also contains. `promptText` is called at most once, on the first match.
 */
export function matchPhrases(phrases: LearnedPhrases, words: readonly Word[], promptText: () => string): PhraseMatch[] {
  const { weight: table, first } = tableOf(phrases);
  if (table.size === 0) return [];
  const out: PhraseMatch[] = [];
  let prompt: string | undefined;
  for (let i = 0; i < words.length; i++) {
    if (!first.has(words[i]!.w)) continue;
    let gram = '';
    let found: { gram: string; weight: number; n: number } | undefined;
    for (let n = 1; n <= MAX_GRAM && i + n <= words.length; n++) {
      gram = n === 1 ? words[i]!.w : `${gram} ${words[i + n - 1]!.w}`;
      const weight = table.get(gram);
      if (weight !== undefined) found = { gram, weight, n };
    }
    if (found === undefined) continue;
    prompt ??= ` ${promptText()} `;
    if (prompt.includes(` ${found.gram} `)) continue;
    out.push({ gram: found.gram, weight: found.weight, start: words[i]!.s, end: words[i + found.n - 1]!.e });
    i += found.n - 1;
  }
  return out;
}

/** The feature value of a reply's matches: 1 - exp(-sum of the distinct phrases' weights). */
export function learnedValue(matches: readonly PhraseMatch[]): number {
  if (matches.length === 0) return 0;
  const seen = new Set<string>();
  let sum = 0;
  for (const m of matches) {
    if (seen.has(m.gram)) continue;
    seen.add(m.gram);
    sum += m.weight;
  }
  return 1 - Math.exp(-sum);
}

/** The prompt as matchPhrases compares against it: its words joined by single spaces. */
export function joinWords(words: readonly Word[]): string {
  return words.map((x) => x.w).join(' ');
}
