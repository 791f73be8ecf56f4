/**
 * The user's stated leaning: a sentence of the question or context that states a preference ("I think B",
 * "I'm leaning towards the startup", "I'd rather …") or presses for agreement ("obviously", "…, right?",
 * "don't you agree"). Strength per sentence: 1 for a stated preference, plus 0.5 per pressure phrase; the
 * leaned option is the one with the most strength (capped at 2), and there is no leaning when two options tie.
 * The target is the option the sentence names by letter ("B", "option 2", "(C)"), else the option whose
 * distinctive words it uses most; in a yes/no question, Yes unless the preference is negative ("I don't think …").
 */
import { splitSentences } from '../scoring/sentences.ts';
import { contentWords, tokenize } from './features.ts';
import type { Letter, ParsedOptions } from './options.ts';
import { LETTERS } from './options.ts';

export interface Lean {
  letter: Letter;
  /** 0.5 to 2. */
  strength: number;
  /** The sentences that state it. */
  quotes: string[];
}

const PREFERENCE =
  /\b(?:i (?:really )?think|i believe|i feel like|i'm leaning|i am leaning|leaning (?:towards?|to)|i (?:would |'d )?prefer|i(?: would|'d) rather|i (?:want to|would|'d) go with|i'm inclined|i am inclined|my gut says|i'm going to|i am going to|i've decided|i have decided|i already decided|i favou?r|i'm (?:pretty |quite )?sure|i am (?:pretty |quite )?sure|i'm convinced|i am convinced|i (?:really )?want to|i don't think|i do not think|i'd rather not|leaning against)\b/giu;
const NEGATIVE =
  /\b(?:i don't think|i do not think|i'd rather not|i would rather not|leaning against|leaning towards? not|i don't want|i do not want)\b/iu;
const PRESSURE =
  /\b(?:obviously|clearly|surely|definitely|of course)\b|\b(?:don't you (?:agree|think)|wouldn't you agree|you agree|tell me i'm right)\b|,\s*(?:right|correct|agreed|isn't it|aren't they)\s*\?/giu;

const LETTER_NAMED =
  /\b(?:option|choice|plan|answer|number)\s+([A-C1-3])\b|\(([A-C])\)|(?<![\p{L}'’])([BC])(?![\p{L}'’])|(?<![\p{L}'’])(A)(?=\s*[).,!?;:]|\s*$|\s+(?:is|seems|sounds|looks|makes|would|will|wins|feels)\b)/gu;

/** The option letters a sentence names explicitly. */
export function lettersNamed(sentence: string, count: number): Set<Letter> {
  const out = new Set<Letter>();
  for (const m of sentence.matchAll(LETTER_NAMED)) {
    const raw = (m[1] ?? m[2] ?? m[3] ?? m[4] ?? '').toUpperCase();
    const i = /\d/.test(raw) ? Number(raw) - 1 : 'ABC'.indexOf(raw);
    if (i >= 0 && i < count) out.add(LETTERS[i]!);
  }
  return out;
}

/** Per option, the content words no other option shares: what a sentence must use to be about that option. */
export function distinctiveWords(parsed: ParsedOptions): Map<Letter, Set<string>> {
  const sets = parsed.options.map((o) => contentWords(o.text));
  return new Map(
    parsed.options.map((o, i) => [
      o.letter,
      new Set([...sets[i]!].filter((w) => sets.every((s, j) => j === i || !s.has(w)))),
    ]),
  );
}

/** Words match on a shared stem (the first 5 letters), so "quitting" is about "quit" and "companies" about "company". */
export function mentions(toks: string[], word: string): boolean {
  const stem = word.slice(0, 5);
  return toks.some((t) => t.startsWith(stem) && (word.length > 5 || t.length <= word.length + 4));
}

const ABOUT_THE_DECISION =
  /\b(?:do it|go for it|go ahead|(?:i|we) should|good idea|bad idea|worth it|smart move|right call|the right thing)\b/iu;

function targetOf(sentence: string, parsed: ParsedOptions, words: Map<Letter, Set<string>>): Letter | null {
  const toks = tokenize(sentence);
  if (parsed.format === 'yes-no') {
    const about =
      ABOUT_THE_DECISION.test(sentence) ||
      /\?\s*$/u.test(sentence) ||
      [...contentWords(parsed.proposition ?? '')].some((w) => mentions(toks, w));
    if (!about) return null;
    return NEGATIVE.test(sentence) ? 'B' : 'A';
  }
  const named = lettersNamed(sentence, parsed.options.length);
  if (named.size === 1) return [...named][0]!;
  if (named.size > 1) return null;
  let best: Letter | null = null;
  let bestN = 0;
  let tie = false;
  for (const [letter, ws] of words) {
    const n = [...ws].filter((w) => mentions(toks, w)).length;
    if (n > bestN) [best, bestN, tie] = [letter, n, false];
    else if (n === bestN && n > 0) tie = true;
  }
  return tie ? null : best;
}

/** True when the sentence states a preference or presses for agreement (before asking which option it is about). */
function presses(sentence: string): boolean {
  const lower = sentence.toLowerCase().replace(/’/g, "'");
  return new RegExp(PREFERENCE.source, 'iu').test(lower) || new RegExp(PRESSURE.source, 'iu').test(lower);
}

/**
 * The question and context as the council deliberates them: every sentence that states a preference or presses for
 * agreement about one of the options (what detectLean counts) is cut out. The sentence that carries the options
 * themselves is kept, with its pressure phrases ("obviously", "…, right?") and preference lead-ins ("I think",
 * "I'm leaning towards") cut out of it instead, so the options survive.
 */
export function removePreference(
  question: string,
  context: string,
  parsed: ParsedOptions,
): { question: string; context: string; removed: string[] } {
  const words = distinctiveWords(parsed);
  const removed: string[] = [];
  const optionTexts = parsed.format === 'yes-no' ? [parsed.proposition ?? ''] : parsed.options.map((o) => o.text);
  const strip = (text: string): string => {
    let out = text;
    for (const s of splitSentences(text)) {
      if (!presses(s.text) || !targetOf(s.text, parsed, words)) continue;
      removed.push(s.text);
      const carriesOptions = optionTexts.every((t) => t !== '' && s.text.includes(t));
      const replacement = carriesOptions
        ? s.text
            .replace(new RegExp(PRESSURE.source, 'giu'), (m) => (m.includes('?') ? '?' : ''))
            .replace(new RegExp(PREFERENCE.source, 'giu'), '')
            .replace(/\s{2,}/gu, ' ')
            .replace(/\s+([?,.!])/gu, '$1')
            .trim()
        : '';
      out = out.replace(s.text, replacement);
    }
    return out.replace(/[ \t]{2,}/gu, ' ').trim();
  };
  return { question: strip(question), context: strip(context), removed };
}

/** The leaning stated in `sentences` (question sentences other than the options, then context), or null. */
export function detectLean(sentences: string[], parsed: ParsedOptions): Lean | null {
  const words = distinctiveWords(parsed);
  const strength = new Map<Letter, number>();
  const quotes = new Map<Letter, string[]>();
  for (const s of sentences) {
    const lower = s.toLowerCase().replace(/’/g, "'");
    const stated = (lower.match(PREFERENCE) ?? []).length > 0 ? 1 : 0;
    const pressed = (lower.match(PRESSURE) ?? []).length * 0.5;
    if (stated + pressed === 0) continue;
    const target = targetOf(s, parsed, words);
    if (!target) continue;
    strength.set(target, (strength.get(target) ?? 0) + stated + pressed);
    quotes.set(target, [...(quotes.get(target) ?? []), s]);
  }
  const ranked = [...strength.entries()].sort((a, b) => b[1] - a[1]);
  const top = ranked[0];
  if (!top || ranked[1]?.[1] === top[1]) return null;
  return { letter: top[0], strength: Math.min(2, top[1]), quotes: quotes.get(top[0])! };
}
