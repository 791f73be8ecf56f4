/**
 * Linear word tokenizer with exact UTF-16 offsets.
 *
 * Words are lower-cased; apostrophe variants become "'"; contractions split into their parts
 * ("you're" -> you|are, "don't" -> do|not, "it's" -> it|is, "Sarah's" -> sarah|'s), each part
 * keeping the offsets of its own characters so that evidence spans stay exact. Hyphenated words
 * split at the hyphen ("self-care" -> self|care). Clause punctuation (, ; : . ! ? ( ) dashes *)
 * becomes its own token: patterns use it as a boundary. Everything else (spaces, quotes, emoji,
 * control characters) is skipped.
 */
import { isApostrophe, isWordChar } from './text.ts';

export interface Token {
  /** Normalised form: lower-case word, contraction part or punctuation character. */
  w: string;
  /** UTF-16 offsets into the tokenized text. */
  s: number;
  e: number;
  /** True for punctuation tokens. */
  p: boolean;
}

const S_IS = new Set([
  'it',
  'that',
  'this',
  'there',
  'here',
  'what',
  'he',
  'she',
  'who',
  'everything',
  'nothing',
  'something',
  'someone',
  'everyone',
  'nobody',
  'which',
  'where',
  'how',
  'why',
  'when',
  'life',
  'one',
]);

const NT_BASE = new Map<string, string>([
  ['ca', 'can'],
  ['wo', 'will'],
  ['sha', 'shall'],
  ['ai', 'is'],
]);

/** Common apostrophe-less chat spellings, expanded so prompt cues and patterns see one form. */
const BARE = new Map<string, [string, string]>(
  Object.entries({
    dont: ['do', 'not'],
    didnt: ['did', 'not'],
    doesnt: ['does', 'not'],
    isnt: ['is', 'not'],
    wasnt: ['was', 'not'],
    arent: ['are', 'not'],
    cant: ['can', 'not'],
    cannot: ['can', 'not'],
    wont: ['will', 'not'],
    shouldnt: ['should', 'not'],
    wouldnt: ['would', 'not'],
    couldnt: ['could', 'not'],
    havent: ['have', 'not'],
    im: ['i', 'am'],
    ive: ['i', 'have'],
    youre: ['you', 'are'],
    theyre: ['they', 'are'],
    thats: ['that', 'is'],
    whats: ['what', 'is'],
    youve: ['you', 'have'],
  }) as [string, [string, string]][],
);

const PUNCT = new Set([44, 59, 58, 46, 33, 63, 40, 41, 42, 0x2014, 0x2013, 0x2026]);

/** Tokenize text[from, to). Linear in the length of the range. */
export function tokenize(text: string, from = 0, to = text.length): Token[] {
  const out: Token[] = [];
  let i = from;
  while (i < to) {
    const c = text.charCodeAt(i);
    const ch = text.charAt(i);
    if (isWordChar(c, ch)) {
      // whether the word may hold an apostrophe: an internal one, or a non-ASCII character (U+02BC is a letter)
      let mayHaveApostrophe = c >= 128;
      let j = i + 1;
      while (j < to) {
        const d = text.charCodeAt(j);
        if (isWordChar(d, text.charAt(j))) {
          if (d >= 128) mayHaveApostrophe = true;
          j++;
          continue;
        }
        // internal apostrophe, or a decimal point / thousands separator between digits
        if (j + 1 < to && isWordChar(text.charCodeAt(j + 1), text.charAt(j + 1))) {
          if (isApostrophe(d)) {
            mayHaveApostrophe = true;
            j++;
            continue;
          }
          if ((d === 46 || d === 44) && isDigit(text.charCodeAt(j - 1)) && isDigit(text.charCodeAt(j + 1))) {
            j++;
            continue;
          }
        }
        break;
      }
      pushWord(text, i, j, mayHaveApostrophe, out);
      i = j;
      continue;
    }
    if (c === 42 && i + 1 < to && text.charCodeAt(i + 1) === 42) {
      // markdown bold is emphasis, not text: no token, so phrases match through it ("I lean towards **you** being
      // more right") and <star> (an italic span: a stage direction) never matches it
      i += 2;
      continue;
    }
    if (PUNCT.has(c)) {
      // a hyphen-like dash between two words is a separator, not a clause boundary
      out.push({ w: c === 0x2013 ? '—' : c === 0x2026 ? '.' : ch, s: i, e: i + 1, p: true });
    } else if (c === 45 && i + 1 < to && text.charCodeAt(i + 1) === 45) {
      out.push({ w: '—', s: i, e: i + 2, p: true });
      i += 2;
      continue;
    } else if (c === 45 && (i === from || !isWordChar(text.charCodeAt(i - 1), text.charAt(i - 1)))) {
      out.push({ w: '—', s: i, e: i + 1, p: true });
    }
    i++;
  }
  return out;
}

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

/** Push the word text[s, e) (split into its parts when it is a contraction). `mayHaveApostrophe`: false when it has none. */
function pushWord(text: string, s: number, e: number, mayHaveApostrophe: boolean, out: Token[]): void {
  const raw = text.slice(s, e);
  let w = raw.toLowerCase();
  if (w.length !== raw.length) {
    out.push({ w, s, e, p: false });
    return;
  }
  let apos = -1;
  for (let k = 0; mayHaveApostrophe && k < w.length; k++) {
    if (isApostrophe(w.charCodeAt(k))) {
      if (w.charCodeAt(k) !== 39) w = `${w.slice(0, k)}'${w.slice(k + 1)}`;
      apos = k;
    }
  }
  if (apos === -1) {
    const bare = BARE.get(w);
    if (bare !== undefined && (w.length > 2 || w === 'im')) {
      // split the offsets at the end of the first part where it fits, else give both parts the whole word
      const cut = Math.min(bare[0].length, w.length - 1);
      out.push({ w: bare[0], s, e: s + cut, p: false }, { w: bare[1], s: s + cut, e, p: false });
      return;
    }
    out.push({ w, s, e, p: false });
    return;
  }
  const split = (baseLen: number, base: string, part: string): void => {
    out.push({ w: base, s, e: s + baseLen, p: false }, { w: part, s: s + baseLen, e, p: false });
  };
  if (w.endsWith("n't") && w.length > 3) {
    const base = w.slice(0, -3);
    split(w.length - 3, NT_BASE.get(base) ?? base, 'not');
    return;
  }
  const suffix = w.slice(apos);
  const base = w.slice(0, apos);
  if (apos > 0 && apos === w.lastIndexOf("'")) {
    switch (suffix) {
      case "'re":
        split(apos, base, 'are');
        return;
      case "'m":
        split(apos, base, 'am');
        return;
      case "'ll":
        split(apos, base, 'will');
        return;
      case "'ve":
        split(apos, base, 'have');
        return;
      case "'d":
        split(apos, base, 'would');
        return;
      case "'s":
        if (base === 'let') {
          split(apos, 'let', 'us');
          return;
        }
        split(apos, base, S_IS.has(base) ? 'is' : "'s");
        return;
    }
  }
  out.push({ w, s, e, p: false });
}
