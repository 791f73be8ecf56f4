/**
 * Phrase lexicon: compiles the JSON pattern families in data/lexicon.json into token-sequence
 * matchers and finds them in a token stream in time linear in the number of tokens (each start
 * token only tries the phrases indexed under its word; phrases are at most a dozen elements with
 * gaps of at most 4 words, so the backtracking per start is bounded by a constant).
 *
 * Phrase syntax (elements separated by spaces):
 *   (a b|c|d e) a group of alternative word sequences, expanded at load time; "(...)?" is optional
 *   word        literal (tokens are lower-case, contractions split: write "you are", not "you're")
 *   a|b|c       one of several words
 *   @name       any word of the class `name` in the file's "classes"
 *   x?          the element is optional (x is any of the above)
 *   *           exactly one word (never a negator, never punctuation)
 *   *N          0..N words (N <= 4), same restrictions
 *   ^           (first element only) the match must start the sentence (after list markers)
 *   $           (last element only) only punctuation may follow in the sentence
 *   ? ! , : *   punctuation literals are written <q> <ex> <comma> <colon> <star>
 */

export interface PatternSpec {
  id: string;
  dim: string | string[];
  sign: 1 | -1;
  strength: number;
  phrases: string[];
  example: string;
  /** "keep": a negator just before the match does not cancel it (the pattern carries its own polarity). */
  neg?: 'keep';
}

export interface LexiconFile {
  version: string;
  classes: Record<string, string[]>;
  patterns: PatternSpec[];
  promptCues: Record<string, string[]>;
}

interface Elem {
  set: Set<string> | null; // null: wildcard
  opt: boolean;
  max: number; // wildcard: max words
  min: number; // wildcard: min words
}

export interface CompiledPhrase {
  pattern: number; // index into patterns
  anchorStart: boolean;
  anchorEnd: boolean;
  elems: Elem[];
}

export interface CompiledLexicon {
  patterns: PatternSpec[];
  /** First-word index: word -> phrases that can start with it. */
  index: Map<string, CompiledPhrase[]>;
}

export interface Match {
  pattern: number;
  /** Token range [from, to). */
  from: number;
  to: number;
}

const PUNCT_NAMES = new Map<string, string>([['<q>', '?'], ['<ex>', '!'], ['<comma>', ','], ['<colon>', ':'], ['<star>', '*'], ['<dash>', '—']]);

export const NEGATORS = new Set(['not', 'never', 'no', 'nothing', 'hardly', 'barely', 'without', 'nor', 'neither', 'none', 'nobody', 'cannot']);

/** Compile a list of pattern families. Throws on malformed phrases (caught by the tests at load time). */
export function compilePatterns(patterns: PatternSpec[], classes: Record<string, string[]>): CompiledLexicon {
  const index = new Map<string, CompiledPhrase[]>();
  patterns.forEach((p, pi) => {
    for (const phrase of p.phrases.flatMap(expandGroups)) {
      let c = compilePhrase(phrase, classes, pi);
      // a leading optional element yields two phrases: with it required, and without it
      while (c.elems[0]?.opt === true) {
        addToIndex(index, { ...c, elems: [{ ...c.elems[0], opt: false }, ...c.elems.slice(1)] }, p.id, phrase);
        c = { ...c, elems: c.elems.slice(1) };
      }
      addToIndex(index, c, p.id, phrase);
    }
  });
  return { patterns, index };
}

function addToIndex(index: Map<string, CompiledPhrase[]>, c: CompiledPhrase, id: string, phrase: string): void {
  const first = c.elems[0];
  if (first === undefined || first.set === null) {
    throw new Error(`lexicon ${id}: phrase must start with a word, not a gap: "${phrase}"`);
  }
  for (const w of first.set) {
    let list = index.get(w);
    if (list === undefined) index.set(w, (list = []));
    list.push(c);
  }
}

const MAX_EXPANSIONS = 4096;

/** Expand "(a b|c)" groups (and "(...)?" optional groups) into plain phrases. */
export function expandGroups(phrase: string): string[] {
  let out = [''];
  let i = 0;
  while (i < phrase.length) {
    const open = phrase.indexOf('(', i);
    if (open === -1) {
      const rest = phrase.slice(i);
      out = out.map((o) => o + rest);
      break;
    }
    const close = phrase.indexOf(')', open);
    if (close === -1) throw new Error(`unbalanced group in "${phrase}"`);
    const before = phrase.slice(i, open);
    const alts = phrase.slice(open + 1, close).split('|').map((a) => a.trim());
    let next = close + 1;
    if (phrase[next] === '?') { alts.push(''); next++; }
    const grown: string[] = [];
    for (const o of out) for (const a of alts) grown.push(o + before + ' ' + a + ' ');
    if (grown.length > MAX_EXPANSIONS) throw new Error(`too many expansions in "${phrase}"`);
    out = grown;
    i = next;
  }
  return out.map((o) => o.replace(/ {2,}/g, ' ').trim()).filter((o) => o.length > 0);
}

export function compilePhrase(phrase: string, classes: Record<string, string[]>, pattern: number): CompiledPhrase {
  const parts = phrase.trim().split(/\s+/);
  let anchorStart = false;
  let anchorEnd = false;
  if (parts[0] === '^') { anchorStart = true; parts.shift(); }
  if (parts[parts.length - 1] === '$') { anchorEnd = true; parts.pop(); }
  const elems: Elem[] = [];
  for (let raw of parts) {
    if (raw === '*') { elems.push({ set: null, opt: false, min: 1, max: 1 }); continue; }
    if (raw.length === 2 && raw[0] === '*' && raw[1]! >= '1' && raw[1]! <= '4') {
      elems.push({ set: null, opt: false, min: 0, max: Number(raw[1]) });
      continue;
    }
    let opt = false;
    if (raw.length > 1 && raw.endsWith('?')) { opt = true; raw = raw.slice(0, -1); }
    const set = new Set<string>();
    for (const alt of raw.split('|')) {
      if (alt.startsWith('@')) {
        const cls = Object.hasOwn(classes, alt.slice(1)) ? classes[alt.slice(1)] : undefined;
        if (cls === undefined) throw new Error(`unknown class ${alt} in "${phrase}"`);
        for (const w of cls) set.add(w);
      } else if (PUNCT_NAMES.has(alt)) {
        set.add(PUNCT_NAMES.get(alt)!);
      } else if (alt.length > 0) {
        if (alt !== alt.toLowerCase() || (alt.includes("'") && alt !== "'s")) {
          throw new Error(`literal "${alt}" can never match a token (write contractions expanded, lower-case) in "${phrase}"`);
        }
        set.add(alt);
      } else {
        throw new Error(`empty alternative in "${phrase}"`);
      }
    }
    elems.push({ set, opt, min: 0, max: 0 });
  }
  return { pattern, anchorStart, anchorEnd, elems };
}

/** Minimal token shape the matcher needs. */
export interface Tok {
  w: string;
  p: boolean;
}

/**
 * All non-overlapping (per pattern) matches of the lexicon in toks[from, to), which must be one
 * sentence. `first` is the index of the sentence's first token (for ^ anchors).
 */
export function matchSentence(lex: CompiledLexicon, toks: Tok[], from: number, to: number, out: Match[]): void {
  // per-pattern end of the last accepted match, to keep each family's matches disjoint
  const lastEnd = new Map<number, number>();
  for (let i = from; i < to; i++) {
    const t = toks[i]!;
    if (t.p && t.w !== '*') continue;
    const cands = lex.index.get(t.w);
    if (cands === undefined) continue;
    let best = new Map<number, number>();
    for (const c of cands) {
      if (c.anchorStart && i !== from) continue;
      const end = matchFrom(c.elems, 0, toks, i, to, c.anchorEnd);
      if (end > i) {
        const prev = best.get(c.pattern);
        if (prev === undefined || end > prev) best.set(c.pattern, end);
      }
    }
    for (const [pattern, end] of best) {
      if ((lastEnd.get(pattern) ?? -1) > i) continue;
      lastEnd.set(pattern, end);
      out.push({ pattern, from: i, to: end });
    }
    best = new Map();
  }
}

function matchFrom(elems: Elem[], k: number, toks: Tok[], ti: number, to: number, anchorEnd: boolean): number {
  if (k === elems.length) {
    if (anchorEnd) {
      for (let j = ti; j < to; j++) if (!toks[j]!.p) return -1;
    }
    return ti;
  }
  const el = elems[k]!;
  if (el.set === null) {
    // wildcard: consume between min and max plain words, shortest first
    let j = ti;
    for (let g = 0; g <= el.max; g++) {
      if (g >= el.min) {
        const r = matchFrom(elems, k + 1, toks, j, to, anchorEnd);
        if (r >= 0) return r;
      }
      if (j >= to) return -1;
      const t = toks[j]!;
      if (t.p || NEGATORS.has(t.w)) return -1;
      j++;
    }
    return -1;
  }
  if (ti < to && el.set.has(toks[ti]!.w)) {
    const r = matchFrom(elems, k + 1, toks, ti + 1, to, anchorEnd);
    if (r >= 0) return r;
  }
  if (el.opt) return matchFrom(elems, k + 1, toks, ti, to, anchorEnd);
  return -1;
}

/** A negator within the three words before token `from`, in the same clause (stops at punctuation and "but"). */
export function negatedBefore(toks: Tok[], sentStart: number, from: number): boolean {
  for (let j = from - 1, seen = 0; j >= sentStart && seen < 3; j--) {
    const t = toks[j]!;
    if (t.p || t.w === 'but') return false;
    if (NEGATORS.has(t.w)) return true;
    seen++;
  }
  return false;
}
