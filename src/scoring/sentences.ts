/**
 * Sentence splitter: one linear pass, no NLP model (see README.md for the measured reason).
 *
 * Rules: a line break always ends a sentence (markdown lists, headings and paragraphs);
 * within a line, a run of . ! ? (or …) followed by closing quotes/brackets and then whitespace
 * ends a sentence unless the word before the period is a known abbreviation or a single letter.
 * Leading list markers ("- ", "* ", "• ", "1. ", "2) ", "#"s) and surrounding spaces are left out
 * of the span. Fenced code blocks are not prose and yield no sentences; fragments without a
 * letter or digit (rules, emoji-only lines) are dropped.
 *
 * Offsets are UTF-16 indices: text.slice(s.start, s.end) === s.text.
 *
 * @example splitSentences('Hi there. How are you?') // [{start:0,end:9,text:'Hi there.'},{start:10,end:22,text:'How are you?'}]
 */
import { findMaskedRanges, isWordChar, type Range } from './text.ts';

export interface Sentence {
  start: number;
  end: number;
  text: string;
}

const ABBREVIATIONS = new Set([
  'e.g',
  'i.e',
  'eg',
  'ie',
  'mr',
  'mrs',
  'ms',
  'dr',
  'prof',
  'vs',
  'etc',
  'st',
  'jr',
  'sr',
  'inc',
  'ltd',
  'co',
  'no',
  'fig',
  'approx',
  'est',
  'dept',
  'cf',
  'al',
  'u.s',
  'a.m',
  'p.m',
  'mt',
  'ft',
  'jan',
  'feb',
  'mar',
  'apr',
  'jun',
  'jul',
  'aug',
  'sep',
  'sept',
  'oct',
  'nov',
  'dec',
]);

function isSpace(c: number): boolean {
  return (
    c === 32 || c === 9 || c === 13 || c === 10 || c === 0xa0 || c === 0x2028 || c === 0x2029 || c === 12 || c === 11
  );
}

function isClosing(c: number): boolean {
  // " ' ) ] } ” ’ » *  _
  return (
    c === 34 ||
    c === 39 ||
    c === 41 ||
    c === 93 ||
    c === 125 ||
    c === 0x201d ||
    c === 0x2019 ||
    c === 0xbb ||
    c === 42 ||
    c === 95
  );
}

function isTerminator(c: number): boolean {
  return c === 46 || c === 33 || c === 63 || c === 0x2026 || c === 0x3002 || c === 0xff01 || c === 0xff1f;
}

/**
 * Split `text` into sentences with exact UTF-16 offsets. Linear in text length. `ranges` may pass in
 * findMaskedRanges(text) when the caller already has it (the engine does), so it is computed once.
 */
export function splitSentences(
  text: string,
  ranges: ReturnType<typeof findMaskedRanges> = findMaskedRanges(text),
): Sentence[] {
  const { code } = ranges;
  const out: Sentence[] = [];
  let ci = 0;
  let pos = 0;
  const n = text.length;
  while (pos < n) {
    // skip fenced code blocks entirely
    while (ci < code.length && code[ci]!.end <= pos) ci++;
    const fence: Range | undefined = code[ci];
    let lineEnd = text.indexOf('\n', pos);
    if (lineEnd === -1) lineEnd = n;
    if (fence !== undefined && fence.start < lineEnd) {
      if (fence.start > pos) splitLine(text, pos, fence.start, out);
      pos = fence.end + 1;
      continue;
    }
    splitLine(text, pos, lineEnd, out);
    pos = lineEnd + 1;
  }
  return out;
}

function splitLine(text: string, from: number, to: number, out: Sentence[]): void {
  let start = skipMarker(text, from, to);
  let i = start;
  while (i < to) {
    const c = text.charCodeAt(i);
    if (isTerminator(c)) {
      let j = i + 1;
      while (j < to && isTerminator(text.charCodeAt(j))) j++;
      while (j < to && isClosing(text.charCodeAt(j))) j++;
      if (j >= to || isSpace(text.charCodeAt(j))) {
        if (!(c === 46 && j === i + 1 && isAbbreviation(text, start, i))) {
          emit(text, start, j, out);
          start = j;
        }
      }
      i = j;
    } else {
      i++;
    }
  }
  emit(text, start, to, out);
}

/** Word before a period at `dot` is an abbreviation or a single letter ("J. Smith"). */
function isAbbreviation(text: string, lineStart: number, dot: number): boolean {
  let k = dot;
  while (k > lineStart && dot - k < 12) {
    const code = text.charCodeAt(k - 1);
    if (code === 46 || isWordChar(code, text.charAt(k - 1))) k--;
    else break;
  }
  const word = text.slice(k, dot).toLowerCase();
  if (word.length === 0) return false;
  // a single letter is an initial ("J. Smith"), but not the end of a contraction ("they can't. Our ...")
  if (word.length === 1) return /[a-z]/.test(word) && !/['’]/.test(text.charAt(k - 1));
  if (word.length > 6) return false;
  return ABBREVIATIONS.has(word);
}

function skipMarker(text: string, from: number, to: number): number {
  let p = from;
  while (p < to && isSpace(text.charCodeAt(p))) p++;
  const c = text.charCodeAt(p);
  // "#", "##" headings
  if (c === 35) {
    let q = p;
    while (q < to && text.charCodeAt(q) === 35) q++;
    if (q < to && text.charCodeAt(q) === 32) return q + 1;
  }
  // "- ", "* ", "+ ", "• "
  if ((c === 45 || c === 42 || c === 43 || c === 0x2022) && p + 1 < to && text.charCodeAt(p + 1) === 32) return p + 2;
  // "12. " or "3) "
  let q = p;
  while (q < to && q - p < 4 && text.charCodeAt(q) >= 48 && text.charCodeAt(q) <= 57) q++;
  if (q > p && q + 1 < to && (text.charCodeAt(q) === 46 || text.charCodeAt(q) === 41) && text.charCodeAt(q + 1) === 32)
    return q + 2;
  return p;
}

function emit(text: string, s: number, e: number, out: Sentence[]): void {
  while (s < e && isSpace(text.charCodeAt(s))) s++;
  while (e > s && isSpace(text.charCodeAt(e - 1))) e--;
  if (e <= s) return;
  let hasWord = false;
  for (let k = s; k < e; k++) {
    if (isWordChar(text.charCodeAt(k), text.charAt(k))) {
      hasWord = true;
      break;
    }
  }
  if (!hasWord) return;
  out.push({ start: s, end: e, text: text.slice(s, e) });
}
