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

/**
 * The phrases as a word tree: the node reached by a phrase's words holds the phrase and its weight. Most words
 * start no phrase and are passed over at the cost of one lookup, and no phrase string is built to look one up.
 */
interface GramNode {
  next: Map<string, GramNode>;
  gram?: string;
  weight?: number;
}
const TABLES = new WeakMap<LearnedPhrases, GramNode>();
function tableOf(p: LearnedPhrases): GramNode {
  let root = TABLES.get(p);
  if (root === undefined) {
    root = { next: new Map() };
    for (let i = 0; i < p.grams.length; i++) {
      const g = p.grams[i]!;
      let node = root;
      for (const w of g.split(' ')) {
        let child = node.next.get(w);
        if (child === undefined) node.next.set(w, (child = { next: new Map() }));
        node = child;
      }
      node.gram = g;
      node.weight = p.weights[i]!;
    }
    TABLES.set(p, root);
  }
  return root;
}

/**
 * The phrases of `phrases` in a reply's words, longest first and without overlaps, leaving out any
 * phrase the prompt also contains. `promptText` is called at most once, on the first match.
 */
export function matchPhrases(phrases: LearnedPhrases, words: readonly Word[], promptText: () => string): PhraseMatch[] {
  const root = tableOf(phrases);
  if (root.next.size === 0) return [];
  const out: PhraseMatch[] = [];
  let prompt: string | undefined;
  for (let i = 0; i < words.length; i++) {
    let node = root.next.get(words[i]!.w);
    if (node === undefined) continue;
    // the longest phrase starting at word i
    let found: GramNode | undefined;
    let foundN = 0;
    for (let n = 1; node !== undefined; n++) {
      if (node.weight !== undefined) {
        found = node;
        foundN = n;
      }
      if (n === MAX_GRAM || i + n >= words.length) break;
      node = node.next.get(words[i + n]!.w);
    }
    if (found === undefined) continue;
    const gram = found.gram!;
    prompt ??= ` ${promptText()} `;
    if (prompt.includes(` ${gram} `)) continue;
    out.push({ gram, weight: found.weight!, start: words[i]!.s, end: words[i + foundN - 1]!.e });
    i += foundN - 1;
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
