/**
 * Linear-time text primitives shared by the sentence splitter, the tokenizer and the masks.
 * Every function here makes one pass (or a fixed number of passes) over its input and uses no
 * regular expression with nested quantifiers, so a 50,000-character response costs O(n).
 */

const LETTER_LIKE = /[\p{L}\p{N}\p{M}]/u;

/** True for a UTF-16 code unit that is part of a word (ASCII letters/digits fast path, Unicode letters, digits and marks). */
export function isWordChar(code: number, ch: string): boolean {
  if (code < 128) {
    return (code >= 97 && code <= 122) || (code >= 65 && code <= 90) || (code >= 48 && code <= 57);
  }
  if (code >= 0xd800 && code <= 0xdfff) return false; // surrogate halves: emoji and rare scripts are not words here
  return LETTER_LIKE.test(ch);
}

/** Apostrophe variants treated as "'" inside words. */
/** A set of the space-separated words of `words` (the engine's word lists are written as one string). */
export function wordSet(words: string): Set<string> {
  return new Set(words.split(' '));
}

export function isApostrophe(code: number): boolean {
  return code === 39 || code === 0x2019 || code === 0x2018 || code === 0x02bc;
}

/** Half-open character range [start, end). */
export interface Range {
  start: number;
  end: number;
}

/**
 * Ranges whose words are not the assistant's own voice: fenced code blocks, inline code, markdown
 * blockquote lines and double-quoted spans (straight or curly quotes, closed on the same line,
 * at most 600 characters). Returned sorted by start; `code` holds only the fenced blocks (they are
 * also left out of the sentence list).
 */
export function findMaskedRanges(text: string): { masked: Range[]; code: Range[] } {
  const masked: Range[] = [];
  const code: Range[] = [];
  const n = text.length;
  let lineStart = 0;
  let inFence = false;
  let fenceStart = 0;
  while (lineStart <= n) {
    let lineEnd = text.indexOf('\n', lineStart);
    if (lineEnd === -1) lineEnd = n;
    // first non-space character of the line
    let p = lineStart;
    while (p < lineEnd && (text.charCodeAt(p) === 32 || text.charCodeAt(p) === 9)) p++;
    const isFence = text.startsWith('```', p) || text.startsWith('~~~', p);
    if (isFence) {
      if (inFence) {
        code.push({ start: fenceStart, end: lineEnd });
        inFence = false;
      } else {
        inFence = true;
        fenceStart = lineStart;
      }
    } else if (!inFence) {
      if (p < lineEnd && text.charCodeAt(p) === 62 /* > */) {
        masked.push({ start: lineStart, end: lineEnd });
      } else {
        scanLineQuotes(text, p, lineEnd, masked);
      }
    }
    lineStart = lineEnd + 1;
  }
  if (inFence) code.push({ start: fenceStart, end: n });
  for (const r of code) masked.push(r);
  masked.sort((a, b) => a.start - b.start);
  return { masked, code };
}

const MAX_QUOTE = 600;

function scanLineQuotes(text: string, from: number, to: number, out: Range[]): void {
  let open = -1;
  let openKind = 0; // 1 straight ", 2 curly “, 3 backtick
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (open === -1) {
      if (c === 34) {
        open = i;
        openKind = 1;
      } else if (c === 0x201c) {
        open = i;
        openKind = 2;
      } else if (c === 96) {
        open = i;
        openKind = 3;
      }
    } else {
      const closes = (openKind === 1 && c === 34) || (openKind === 2 && c === 0x201d) || (openKind === 3 && c === 96);
      if (closes) {
        if (i - open <= MAX_QUOTE) out.push({ start: open, end: i + 1 });
        open = -1;
      }
    }
  }
}

/** Marks, for each position of a sorted range list, whether [s, e) overlaps any range. Walks forward only. */
export class RangeCursor {
  private i = 0;
  constructor(private readonly ranges: Range[]) {}
  /** Call with non-decreasing `s`. */
  overlaps(s: number, e: number): boolean {
    const r = this.ranges;
    while (this.i < r.length && r[this.i]!.end <= s) this.i++;
    for (let j = this.i; j < r.length; j++) {
      const x = r[j]!;
      if (x.start >= e) return false;
      if (x.end > s) return true;
    }
    return false;
  }
}

const MAX_SINGLE_QUOTE = 300;

/** An opening single quote: ' or ‘ at a line start or after a space, "(", "[" or ":", before a letter. */
function opensSingle(text: string, i: number, lineStart: number): boolean {
  const c = text.charCodeAt(i);
  if (c !== 39 && c !== 0x2018) return false;
  if (!(i + 1 < text.length && isWordChar(text.charCodeAt(i + 1), text[i + 1]!))) return false;
  if (i === lineStart) return true;
  const b = text.charCodeAt(i - 1);
  return b === 32 || b === 9 || b === 40 || b === 91 || b === 58;
}

/** A closing single quote: ' or ’ after a non-space, before the text's end or a non-letter ("don't" neither opens nor closes). */
function closesSingle(text: string, i: number, end: number): boolean {
  const c = text.charCodeAt(i);
  if (c !== 39 && c !== 0x2019) return false;
  const b = text.charCodeAt(i - 1);
  if (b === 32 || b === 9) return false;
  return i + 1 >= end || !isWordChar(text.charCodeAt(i + 1), text[i + 1]!);
}

/**
 * Single-quoted spans ("say something like 'I love that you made it'", "calling it 'trashy'"): opened by a quote
 * mark at a line start or after a space, "(", "[" or ":" and before a letter, closed on the same line by one after a
 * non-space and before a non-letter, at most 300 characters; an apostrophe inside a word ("don't") neither opens nor
 * closes one, and an opening mark with no close in reach ("'em", "'90s") is an apostrophe. Sorted, one pass.
 */
export function findSingleQuoted(text: string): Range[] {
  const out: Range[] = [];
  const n = text.length;
  let lineStart = 0;
  let open = -1;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 10) {
      open = -1;
      lineStart = i + 1;
      continue;
    }
    if (open === -1) {
      if (opensSingle(text, i, lineStart)) open = i;
    } else if (i - open > MAX_SINGLE_QUOTE) {
      open = opensSingle(text, i, lineStart) ? i : -1;
    } else if (i > open + 1 && closesSingle(text, i, n)) {
      out.push({ start: open, end: i + 1 });
      open = -1;
    }
  }
  return out;
}
