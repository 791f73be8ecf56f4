/**
 * The learned phrase component (issue #10, Build 7): per dimension, a table of word n-grams (1-3 words)
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
 * with saturation, never a share of the text. It is an incident feature like a lexicon family, its
 * weight in the dimension fitted with the others, and every match is reported as evidence.
 *
 * Pure: no I/O, no clock; time linear in the reply's length (plus the prompt's, once, on a match).
 */

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

/** One word of a text: its lower-case form (curly apostrophes made straight) and its UTF-16 span. */
export interface Word {
  w: string;
  start: number;
  end: number;
}

const WORD = /[\p{L}\p{N}]+(?:['\u2019][\p{L}]+)*/gu;

/** The words of a text in order. */
export function wordsOf(text: string): Word[] {
  const out: Word[] = [];
  WORD.lastIndex = 0;
  for (let m = WORD.exec(text); m !== null; m = WORD.exec(text)) {
    out.push({ w: m[0].toLowerCase().replace(/\u2019/g, "'"), start: m.index, end: m.index + m[0].length });
  }
  return out;
}

/** One matched phrase of a reply. */
export interface PhraseMatch {
  gram: string;
  weight: number;
  start: number;
  end: number;
}

const TABLES = new WeakMap<LearnedPhrases, Map<string, number>>();
function tableOf(p: LearnedPhrases): Map<string, number> {
  let t = TABLES.get(p);
  if (t === undefined) {
    t = new Map();
    for (let i = 0; i < p.grams.length; i++) t.set(p.grams[i]!, p.weights[i]!);
    TABLES.set(p, t);
  }
  return t;
}

/**
 * The words of a text outside `masked` ranges (sorted, as findMaskedRanges gives them): quoted text,
 * code and blockquotes are not the assistant's voice, for learned phrases as for the lexicon.
 */
export function unmaskedWords(text: string, masked: readonly { start: number; end: number }[]): Word[] {
  const all = wordsOf(text);
  if (masked.length === 0) return all;
  const out: Word[] = [];
  let j = 0;
  for (const w of all) {
    while (j < masked.length && masked[j]!.end <= w.start) j++;
    if (j < masked.length && masked[j]!.start < w.end) continue;
    out.push(w);
  }
  return out;
}

/**
 * The phrases of `phrases` in a reply's words, longest first and without overlaps, leaving out any
 * phrase the prompt also contains. `promptText` is called at most once, on the first match.
 */
export function matchPhrases(phrases: LearnedPhrases, words: readonly Word[], promptText: () => string): PhraseMatch[] {
  const table = tableOf(phrases);
  if (table.size === 0) return [];
  const out: PhraseMatch[] = [];
  let prompt: string | undefined;
  for (let i = 0; i < words.length; i++) {
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
    out.push({ gram: found.gram, weight: found.weight, start: words[i]!.start, end: words[i + found.n - 1]!.end });
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
export function normalisedWords(text: string): string {
  return wordsOf(text)
    .map((x) => x.w)
    .join(' ');
}
