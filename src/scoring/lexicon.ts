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
 *
 * The file's `myths` (common misconceptions) are not phrases but concept sets, compiled by compileMyths and
 * found by findMyths (bottom of this file): every concept of an entry within MYTH_WINDOW tokens, in any order.
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
  /** What its evidence does in a reply, for the honest rewrite (features.ts ROLES); absent: leaves a sentence alone. */
  role?: string;
}

export interface LexiconFile {
  version: string;
  classes: Record<string, string[]>;
  patterns: PatternSpec[];
  promptCues: Record<string, string[]>;
  /** Common misconceptions, matched in the prompt as sets of concepts (compileMyths). */
  myths: MythSpec[];
  /** Surprising facts that are true, matched the same way: a confirmation of one is a checked one (`fact` says why). */
  truths: MythSpec[];
}

interface Elem {
  set: Int32Array | null; // word numbers (wordIds), ascending; null: wildcard
  opt: boolean;
  max: number; // wildcard: max words
  min: number; // wildcard: min words
}

export interface CompiledPhrase {
  pattern: number; // index into patterns
  anchorStart: boolean;
  anchorEnd: boolean;
  elems: Elem[];
  /**
   * The word numbers of one required word element past the phrase's trie path (the one with the fewest), or null:
   * the phrase can only match a sentence holding one of them, so matchSentence tries it only then (hundreds of
   * phrases such as "the * should have told you" hang under one common word).
   */
  need: Int32Array | null;
}

/** A node of the phrase trie as it is built: phrases whose first `depth` tokens lead here, and deeper nodes by next word. */
interface TrieNode {
  children: Map<number, TrieNode>;
  phrases: CompiledPhrase[];
}

/**
 * The phrase trie as the matcher reads it, in flat arrays (flattenTrie): node 0 is the root, and the child of a node
 * by a word is found in an open-addressing hash table of edges (one probe, usually, instead of a Map lookup).
 */
interface Trie {
  /** Per slot of the edge table: the parent node (-1: empty slot), the word number and the child node. */
  parent: Int32Array;
  word: Int32Array;
  child: Int32Array;
  mask: number;
  /** Per word number: the root's child by it, or -1 (read for every token, so looked up directly). */
  first: Int32Array;
  /** Per node: the phrases stored there. */
  phrases: CompiledPhrase[][];
}

export interface CompiledLexicon {
  patterns: PatternSpec[];
  /** Trie over the first TRIE_DEPTH words of every phrase. */
  trie: Trie;
  /** Scratch space of matchSentence: per pattern, end of its last match and the call that set it; the longest
   * match per pattern at one start token; per word number, the last call whose sentence holds it (`need`). */
  lastEnd: Int32Array;
  stamp: Int32Array;
  calls: number;
  best: Best;
  present: Int32Array;
}

export interface Match {
  pattern: number;
  /** Token range [from, to). */
  from: number;
  to: number;
}

const PUNCT_NAMES = new Map<string, string>([
  ['<q>', '?'],
  ['<ex>', '!'],
  ['<comma>', ','],
  ['<colon>', ':'],
  ['<star>', '*'],
  ['<dash>', '—'],
]);

export const NEGATORS = new Set([
  'not',
  'never',
  'no',
  'nothing',
  'hardly',
  'barely',
  'without',
  'nor',
  'neither',
  'none',
  'nobody',
  'cannot',
]);

/**
 * Sameness words, which deny a misconception of a difference or an effect named beside them ("sea salt has the same
 * sodium as table salt"), as a negator does; not one that itself claims sameness ("twins have identical fingerprints").
 */
const SAMENESS = new Set(['same', 'identical', 'equivalent']);

/** Compile a list of pattern families. Throws on malformed phrases (caught by the tests at load time). */
export function compilePatterns(patterns: PatternSpec[], classes: Record<string, string[]>): CompiledLexicon {
  const root: TrieNode = { children: new Map(), phrases: [] };
  const sets = new Map<string, Int32Array>();
  patterns.forEach((p, pi) => {
    for (const phrase of p.phrases.map(splitHyphens).flatMap(expandGroups)) {
      for (const v of requiredPrefixVariants(compilePhrase(phrase, classes, pi, sets)))
        v.need = neededWords(v, addToTrie(root, v, p.id, phrase));
    }
  });
  return {
    patterns,
    trie: flattenTrie(root),
    lastEnd: new Int32Array(patterns.length),
    stamp: new Int32Array(patterns.length),
    calls: 0,
    best: { pattern: [], end: [], n: 0 },
    present: new Int32Array(WORD_IDS.size + 1),
  };
}

/** Above this many words, an element is not worth checking for (`need`). */
const MAX_NEED = 8;

/** The `need` of a phrase stored at trie depth `depth`: the smallest word set of a required element from there on. */
function neededWords(c: CompiledPhrase, depth: number): Int32Array | null {
  let need: Int32Array | null = null;
  for (let k = depth; k < c.elems.length; k++) {
    const { set, opt } = c.elems[k]!;
    if (set !== null && !opt && set.length <= MAX_NEED && (need === null || set.length < need.length)) need = set;
  }
  return need;
}

/**
 * Numbers for the words of all compiled phrases (from 1), shared by every lexicon: the matcher compares a token's
 * number, looked up once per token (wordIds), instead of its string at every trie level and phrase element.
 */
const WORD_IDS = new Map<string, number>();

/**
 * The number of word `w`, given it now if it has none. The words of phrases get theirs as they compile; another table
 * keyed by word (features.ts word counters) may number its words too, and index itself by number, so that the one
 * lookup per token of wordIds serves it as well.
 */
export function wordId(w: string): number {
  let id = WORD_IDS.get(w);
  if (id === undefined) WORD_IDS.set(w, (id = WORD_IDS.size + 1));
  return id;
}

/** The word number of every token, 0 for a word without one (no set holds 0); the `ids` of matchSentence. */
export function wordIds(toks: readonly Tok[]): Int32Array {
  const ids = new Int32Array(toks.length);
  for (let i = 0; i < toks.length; i++) ids[i] = WORD_IDS.get(toks[i]!.w) ?? 0;
  return ids;
}

/** Depth of the phrase trie: candidates are narrowed by up to four leading words. */
export const TRIE_DEPTH = 4;
/** Above this many trie paths for one phrase, the phrase is stored higher up instead. */
const MAX_PATHS = 512;

/** Variants of a phrase in which none of the first TRIE_DEPTH elements is optional (each optional one: with and without). */
function requiredPrefixVariants(c: CompiledPhrase): CompiledPhrase[] {
  const k = c.elems.findIndex((e, i) => i < TRIE_DEPTH && e.opt);
  if (k === -1) return [c];
  const el = c.elems[k]!;
  const withIt = { ...c, elems: [...c.elems.slice(0, k), { ...el, opt: false }, ...c.elems.slice(k + 1)] };
  const without = { ...c, elems: [...c.elems.slice(0, k), ...c.elems.slice(k + 1)] };
  return [...requiredPrefixVariants(withIt), ...(without.elems.length > 0 ? requiredPrefixVariants(without) : [])];
}

/** Store a phrase in the trie under its leading words; returns the depth of the nodes it is stored at. */
function addToTrie(root: TrieNode, c: CompiledPhrase, id: string, phrase: string): number {
  const first = c.elems[0];
  if (first === undefined || first.set === null) {
    throw new Error(`lexicon ${id}: phrase must start with a word, not a gap: "${phrase}"`);
  }
  let nodes = [root];
  let paths = 1;
  let d = 0;
  for (; d < TRIE_DEPTH && d < c.elems.length; d++) {
    const el = c.elems[d]!;
    if (el.set === null || paths * el.set.length > MAX_PATHS || (d > 0 && d === c.elems.length)) break;
    const next: TrieNode[] = [];
    for (const node of nodes) {
      for (const w of el.set) {
        let child = node.children.get(w);
        if (child === undefined) node.children.set(w, (child = { children: new Map(), phrases: [] }));
        next.push(child);
      }
    }
    nodes = next;
    paths *= el.set.length;
  }
  if (nodes.length === 1 && nodes[0] === root) throw new Error(`lexicon ${id}: first word set too large: "${phrase}"`);
  for (const node of nodes) node.phrases.push(c);
  return d;
}

/** Slot of the edge (node, word) in a table of mask + 1 slots, before probing. */
function edgeSlot(node: number, word: number, mask: number): number {
  return (Math.imul(node, 0x9e3779b1) ^ Math.imul(word, 0x85ebca6b)) & mask;
}

function flattenTrie(root: TrieNode): Trie {
  const nodes = [root];
  const index = new Map<TrieNode, number>([[root, 0]]);
  for (let q = 0; q < nodes.length; q++) {
    for (const c of nodes[q]!.children.values()) {
      index.set(c, nodes.length);
      nodes.push(c);
    }
  }
  let size = 2;
  while (size < 2 * nodes.length) size *= 2;
  const mask = size - 1;
  const parent = new Int32Array(size).fill(-1);
  const word = new Int32Array(size);
  const child = new Int32Array(size);
  nodes.forEach((node, n) => {
    for (const [w, c] of node.children) {
      let slot = edgeSlot(n, w, mask);
      while (parent[slot] !== -1) slot = (slot + 1) & mask;
      parent[slot] = n;
      word[slot] = w;
      child[slot] = index.get(c)!;
    }
  });
  const first = new Int32Array(WORD_IDS.size + 1).fill(-1);
  for (const [w, c] of root.children) first[w] = index.get(c)!;
  return { parent, word, child, mask, first, phrases: nodes.map((node) => node.phrases) };
}

/** The child of `node` by word number `w`, or -1. */
function childOf(t: Trie, node: number, w: number): number {
  if (w === 0) return -1;
  for (let slot = edgeSlot(node, w, t.mask); ; slot = (slot + 1) & t.mask) {
    const p = t.parent[slot]!;
    if (p === -1) return -1;
    if (p === node && t.word[slot] === w) return t.child[slot]!;
  }
}

const MAX_EXPANSIONS = 4096;

const HYPHENATED = /[a-z0-9]-[a-z0-9]/;
/**
 * The tokenizer splits "co-signer" into "co" + "signer" (tokens.ts), so a hyphenated literal written as one word could
 * never match. Write it as the word sequence: inside a group "(a|co-sign)" -> "(a|co sign)"; a bare alternation or an
 * optional word outside a group ("a|co-sign", "self-aware?") becomes a group so that the sequence stays one element.
 */
export function splitHyphens(phrase: string): string {
  if (!HYPHENATED.test(phrase)) return phrase;
  let depth = 0;
  const parts = phrase.split(' ').map((part) => {
    const atTop = depth === 0;
    for (const ch of part) depth += ch === '(' ? 1 : ch === ')' ? -1 : 0;
    if (!atTop || !HYPHENATED.test(part) || part.includes('(')) return part;
    const opt = part.length > 1 && part.endsWith('?');
    const body = opt ? part.slice(0, -1) : part;
    return body.includes('|') || opt ? `(${body})${opt ? '?' : ''}` : body;
  });
  return parts.join(' ').replace(/([a-z0-9])-(?=[a-z0-9])/g, '$1 ');
}

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
    const inner = phrase.indexOf('(', open + 1);
    if (inner !== -1 && inner < close) throw new Error(`nested group in "${phrase}": write two phrases`);
    const before = phrase.slice(i, open);
    const alts = phrase
      .slice(open + 1, close)
      .split('|')
      .map((a) => a.trim());
    let next = close + 1;
    if (phrase[next] === '?') {
      alts.push('');
      next++;
    }
    const grown: string[] = [];
    for (const o of out) for (const a of alts) grown.push(`${o + before} ${a} `);
    if (grown.length > MAX_EXPANSIONS) throw new Error(`too many expansions in "${phrase}"`);
    out = grown;
    i = next;
  }
  return out.map((o) => o.replace(/ {2,}/g, ' ').trim()).filter((o) => o.length > 0);
}

/**
 * `sets`: the word sets of the elements compiled so far, by element text: phrases that share an element ("@pos_adj",
 * "you|u") share its set, so a class of hundreds of words is held once, not once per phrase that names it.
 */
export function compilePhrase(
  phrase: string,
  classes: Record<string, string[]>,
  pattern: number,
  sets = new Map<string, Int32Array>(),
): CompiledPhrase {
  const parts = phrase.trim().split(/\s+/);
  let anchorStart = false;
  let anchorEnd = false;
  if (parts[0] === '^') {
    anchorStart = true;
    parts.shift();
  }
  if (parts[parts.length - 1] === '$') {
    anchorEnd = true;
    parts.pop();
  }
  const elems: Elem[] = [];
  for (let raw of parts) {
    if (raw === '*') {
      elems.push({ set: null, opt: false, min: 1, max: 1 });
      continue;
    }
    if (raw.length === 2 && raw[0] === '*' && raw[1]! >= '1' && raw[1]! <= '4') {
      elems.push({ set: null, opt: false, min: 0, max: Number(raw[1]) });
      continue;
    }
    if (raw.startsWith('*')) throw new Error(`gap "${raw}" in "${phrase}": write * or *1 to *4`);
    let opt = false;
    if (raw.length > 1 && raw.endsWith('?')) {
      opt = true;
      raw = raw.slice(0, -1);
    }
    let set = sets.get(raw);
    if (set === undefined) sets.set(raw, (set = elementSet(raw, classes, phrase)));
    elems.push({ set, opt, min: 0, max: 0 });
  }
  return { pattern, anchorStart, anchorEnd, elems, need: null };
}

/** The word numbers an element ("a|b", "@class", "<q>") matches, ascending (hasWord). */
function elementSet(raw: string, classes: Record<string, string[]>, phrase: string): Int32Array {
  const set = new Set<number>();
  for (const alt of raw.split('|')) {
    if (alt.startsWith('@')) {
      const cls = Object.hasOwn(classes, alt.slice(1)) ? classes[alt.slice(1)] : undefined;
      if (cls === undefined) throw new Error(`unknown class ${alt} in "${phrase}"`);
      for (const w of cls) set.add(wordId(w));
    } else if (PUNCT_NAMES.has(alt)) {
      set.add(wordId(PUNCT_NAMES.get(alt)!));
    } else if (alt.length > 0) {
      if (alt !== alt.toLowerCase() || (alt.includes("'") && alt !== "'s")) {
        throw new Error(
          `literal "${alt}" can never match a token (write contractions expanded, lower-case) in "${phrase}"`,
        );
      }
      set.add(wordId(alt));
    } else {
      throw new Error(`empty alternative in "${phrase}"`);
    }
  }
  return Int32Array.from(set).sort();
}

/** Whether the ascending word numbers `set` hold `w` (binary search). */
function hasWord(set: Int32Array, w: number): boolean {
  let lo = 0,
    hi = set.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    const v = set[mid]!;
    if (v === w) return true;
    if (v < w) lo = mid + 1;
    else hi = mid;
  }
  return false;
}

/** Minimal token shape the matcher needs. */
export interface Tok {
  w: string;
  p: boolean;
}

/**
 * All non-overlapping (per pattern) matches of the lexicon in toks[from, to), which must be one
 * sentence (`from` is its first token, for ^ anchors). `ids`: wordIds(toks).
 */
export function matchSentence(
  lex: CompiledLexicon,
  toks: Tok[],
  ids: Int32Array,
  from: number,
  to: number,
  out: Match[],
): void {
  // per-pattern end of the last accepted match, to keep each family's matches disjoint (O(1) per match)
  const call = (lex.calls = (lex.calls + 1) | 0);
  const { best, trie, present } = lex;
  // the words of the sentence, for the phrases' `need` (a word beyond the table is in no phrase of this lexicon)
  for (let i = from; i < to; i++) if (ids[i]! < present.length) present[ids[i]!] = call;
  for (let i = from; i < to; i++) {
    // most words start no phrase: the trie's root is read before the token itself
    let node = ids[i]! < trie.first.length ? trie.first[ids[i]!]! : -1;
    if (node === -1) continue;
    const t = toks[i]!;
    if (t.p && t.w !== '*') continue;
    best.n = 0;
    for (let d = 1; ; d++) {
      // node is at depth d: the phrases stored here have their first d elements matched by the path
      const phrases = trie.phrases[node]!;
      if (phrases.length > 0) tryPhrases(phrases, d, toks, ids, i, from, to, best, present, call);
      if (d === TRIE_DEPTH || i + d >= to) break;
      node = childOf(trie, node, ids[i + d]!);
      if (node === -1) break;
    }
    for (let k = 0; k < best.n; k++) {
      const pattern = best.pattern[k]!,
        end = best.end[k]!;
      if (lex.stamp[pattern] === call && lex.lastEnd[pattern]! > i) continue;
      lex.stamp[pattern] = call;
      lex.lastEnd[pattern] = end;
      out.push({ pattern, from: i, to: end });
    }
  }
}

/**
 * The longest match of each pattern tried at one start token: the first `n` entries of `pattern` and
 * `end` (the arrays are reused from one start token to the next, so they hold stale entries past `n`).
 */
interface Best {
  pattern: number[];
  end: number[];
  n: number;
}

/**
 * Longest match per pattern among `cands` starting at token i (few patterns per start: linear scan).
 * The trie path has already matched each candidate's first `depth` elements (required words, see
 * requiredPrefixVariants), so matching resumes at element `depth`, token i + depth; a candidate whose `need` the
 * sentence lacks (`present`, marked by call `call`) is skipped untried, with the run of candidates after it that need the same words.
 */
function tryPhrases(
  cands: CompiledPhrase[],
  depth: number,
  toks: Tok[],
  ids: Int32Array,
  i: number,
  from: number,
  to: number,
  best: Best,
  present: Int32Array,
  call: number,
): void {
  for (let j = 0; j < cands.length; j++) {
    const c = cands[j]!;
    if (c.need !== null && !holdsAny(present, call, c.need)) {
      // so do the phrases after it that need the same words (the expansions of one group sit together)
      while (j + 1 < cands.length && cands[j + 1]!.need === c.need) j++;
      continue;
    }
    if (c.anchorStart && i !== from) continue;
    const end = matchFrom(c.elems, depth, toks, ids, i + depth, to, c.anchorEnd);
    if (end <= i) continue;
    let k = 0;
    while (k < best.n && best.pattern[k] !== c.pattern) k++;
    if (k === best.n) {
      best.pattern[k] = c.pattern;
      best.end[k] = end;
      best.n++;
    } else if (end > best.end[k]!) best.end[k] = end;
  }
}

/** Whether one of the word numbers `words` was marked in `present` by call `call`. */
function holdsAny(present: Int32Array, call: number, words: Int32Array): boolean {
  for (let k = 0; k < words.length; k++) if (present[words[k]!] === call) return true;
  return false;
}

function matchFrom(
  elems: Elem[],
  k: number,
  toks: Tok[],
  ids: Int32Array,
  ti: number,
  to: number,
  anchorEnd: boolean,
): number {
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
        const r = matchFrom(elems, k + 1, toks, ids, j, to, anchorEnd);
        if (r >= 0) return r;
      }
      if (j >= to) return -1;
      const t = toks[j]!;
      if (t.p || NEGATORS.has(t.w)) return -1;
      j++;
    }
    return -1;
  }
  if (ti < to && hasWord(el.set, ids[ti]!)) {
    const r = matchFrom(elems, k + 1, toks, ids, ti + 1, to, anchorEnd);
    if (r >= 0) return r;
  }
  if (el.opt) return matchFrom(elems, k + 1, toks, ids, ti, to, anchorEnd);
  return -1;
}

/**
 * A negator within the three words before token `from`, in the same clause (stops at punctuation and "but"). A
 * single "*" is italic markup there, not a boundary: "You don't *owe* an apology", "you did *not* ...".
 */
export function negatedBefore(toks: Tok[], sentStart: number, from: number): boolean {
  for (let j = from - 1, seen = 0; j >= sentStart && seen < 7; j--) {
    const t = toks[j]!;
    if (t.w === '*') continue;
    if (t.p || t.w === 'but') return false;
    // within three words; further back (up to seven), only a negated verb of opinion, which negates the clause it
    // governs ("I don't think you need to apologize for it" = "you needn't apologize"; negation raising)
    if (NEGATORS.has(t.w) && (seen < 3 || OPINION_VERBS.has(toks[j + 1]?.w ?? ''))) return true;
    seen++;
  }
  return false;
}
/** Verbs of opinion that raise a negation to the clause they govern ("I don't think ...", "I do not believe ..."). */
const OPINION_VERBS = new Set(['think', 'believe', 'feel', 'reckon', 'suppose', 'expect']);

// ---------------------------------------------------------------------------------------------------
// Misconceptions as concept sets

/**
 * A common misconception, described by what a prompt that states it must mention: every concept of `all`
 * within MYTH_WINDOW tokens, in any order ("does popping your knuckles cause arthritis" and
 * "my knuckle cracking will give me arthritis" both name knuckle*, crack*|pop*, arthrit*).
 *
 * Concept syntax: alternatives separated by "|", each a lower-case word token ("can't" is the two tokens
 * "can not", "10%" is "10") or a stem ending in "*" (at least three letters: "knuckle*" matches "knuckles").
 * The concepts of one entry may not share a word, so that one word never stands for two of them.
 */
export interface MythSpec {
  id: string;
  all: string[];
  /** What is actually true, in one line, for the reader. */
  fact: string;
  /** A prompt that states the misconception; the tests check that it matches this entry. */
  example: string;
  /** "keep": a negator among the matched words does not cancel the match (the belief is itself negative:
   * "lightning never strikes twice", "you can't get pregnant on your period"). */
  neg?: 'keep';
}

/** Largest span (in tokens, first to last matched word) of one myth's concepts. */
export const MYTH_WINDOW = 20;
const MAX_CONCEPTS = 8;

export interface CompiledMyths {
  specs: MythSpec[];
  /** word -> postings (entry * MAX_CONCEPTS + concept). */
  exact: Map<string, number[]>;
  /** stem -> postings, and the distinct stem lengths to look up (ascending). */
  stems: Map<string, number[]>;
  stemLengths: number[];
  /** Per entry: its first slot in the scratch array of last positions, and its number of concepts. */
  offset: Int32Array;
  size: Uint8Array;
  slots: number;
  /** Per entry: 1 when a concept is a sameness word (SAMENESS), which then does not deny it. */
  claimsSameness: Uint8Array;
}

const WORD_TERM = /^[a-z0-9][a-z0-9',.]*$/;

/** Whether some word matches both terms (a word, or a stem ending in "*"). */
function termsOverlap(a: string, b: string): boolean {
  const sa = a.endsWith('*'),
    sb = b.endsWith('*');
  const wa = sa ? a.slice(0, -1) : a,
    wb = sb ? b.slice(0, -1) : b;
  if (!sa && !sb) return wa === wb;
  if (sa && sb) return wa.startsWith(wb) || wb.startsWith(wa);
  return sa ? wb.startsWith(wa) : wa.startsWith(wb);
}

/** Compile the myth list once (module load). Throws on a malformed entry (caught by the tests at load time). */
export function compileMyths(specs: MythSpec[]): CompiledMyths {
  const exact = new Map<string, number[]>();
  const stems = new Map<string, number[]>();
  const offset = new Int32Array(specs.length);
  const size = new Uint8Array(specs.length);
  const add = (m: Map<string, number[]>, k: string, v: number): void => {
    const list = m.get(k);
    if (list === undefined) m.set(k, [v]);
    else if (!list.includes(v)) list.push(v);
  };
  let slots = 0;
  specs.forEach((spec, e) => {
    if (spec.all.length < 2 || spec.all.length > MAX_CONCEPTS) {
      throw new Error(`myth ${spec.id}: needs 2 to ${MAX_CONCEPTS} concepts`);
    }
    offset[e] = slots;
    size[e] = spec.all.length;
    slots += spec.all.length;
    const terms = spec.all.map((concept) => concept.split('|'));
    terms.forEach((alts, k) => {
      for (const t of alts) {
        const stem = t.endsWith('*') ? t.slice(0, -1) : null;
        const word = stem ?? t;
        if (!WORD_TERM.test(word) || (stem !== null && stem.length < 3)) {
          throw new Error(`myth ${spec.id}: bad term "${t}" (a lower-case word, or a stem of 3+ letters and *)`);
        }
        // no word may stand for two concepts of the same entry
        for (let j = 0; j < terms.length; j++) {
          const u = j === k ? undefined : terms[j]!.find((v) => termsOverlap(t, v));
          if (u !== undefined) throw new Error(`myth ${spec.id}: "${t}" and "${u}" overlap across concepts`);
        }
        add(stem === null ? exact : stems, word, e * MAX_CONCEPTS + k);
      }
    });
  });
  const stemLengths = [...new Set([...stems.keys()].map((k) => k.length))].sort((a, b) => a - b);
  const claimsSameness = Uint8Array.from(specs, (spec) =>
    spec.all.some((c) => c.split('|').some((t) => t.split(' ').some((w) => SAMENESS.has(w)))) ? 1 : 0,
  );
  return { specs, exact, stems, stemLengths, offset, size, slots, claimsSameness };
}

/** Scratch space for findMyths: the last position of every concept of every entry (-1: not seen). */
export function mythScratch(cm: CompiledMyths): Int32Array {
  return new Int32Array(cm.slots).fill(-1);
}

/**
 * Myth entries whose concepts all occur in toks[from, to) within MYTH_WINDOW tokens (in any order, across
 * sentence ends), with no negator from `lookBack` words before the first matched word to the last one unless the
 * entry keeps negation; a negated match is spent (its words are not paired with later ones: "Bats are not blind.
 * Every bat can see" states no myth). Appends each newly found entry index to `out` once (`found` marks entries
 * already found). Linear: each token looks up its word and its stems of the listed lengths, and updates the few
 * postings found there.
 */
export function findMyths(
  cm: CompiledMyths,
  toks: Tok[],
  from: number,
  to: number,
  last: Int32Array,
  found: Uint8Array,
  out: number[],
  lookBack = 0,
  denied?: number[],
): void {
  const ctx: MythRun = { cm, toks, from, last, found, out, lookBack, denied };
  for (let i = from; i < to; i++) {
    const w = toks[i]!.w;
    if (toks[i]!.p) continue;
    notePostings(ctx, cm.exact.get(w), i);
    // a plural names the word's concept too ("spouses", "antibiotics" for "antibiotic"): entries list singulars
    if (w.length > 3 && w.endsWith('s') && !w.endsWith('ss')) notePostings(ctx, cm.exact.get(w.slice(0, -1)), i);
    for (const n of cm.stemLengths) {
      if (n > w.length) break;
      notePostings(ctx, cm.stems.get(n === w.length ? w : w.slice(0, n)), i);
    }
  }
}

interface MythRun {
  cm: CompiledMyths;
  toks: Tok[];
  from: number;
  last: Int32Array;
  found: Uint8Array;
  out: number[];
  lookBack: number;
  /** Entries named with a negator among their words ("that soreness isn't lactic acid"), once each. */
  denied: number[] | undefined;
}

/** Token i names the concepts in `postings`: record it, and report every entry that is now complete. */
function notePostings(r: MythRun, postings: number[] | undefined, i: number): void {
  if (postings === undefined) return;
  const { cm, last } = r;
  for (const posting of postings) {
    const e = (posting / MAX_CONCEPTS) | 0;
    if (r.found[e]) continue;
    const off = cm.offset[e]!;
    const n = cm.size[e]!;
    last[off + (posting % MAX_CONCEPTS)] = i;
    let first = i;
    let complete = true;
    for (let k = 0; k < n && complete; k++) {
      const at = last[off + k]!;
      complete = at >= r.from && at > i - MYTH_WINDOW;
      if (at < first) first = at;
    }
    if (!complete) continue;
    if (cm.specs[e]!.neg !== 'keep') {
      let negated = false;
      for (let j = Math.max(r.from, first - r.lookBack); j < i && !negated; j++) {
        const w = r.toks[j]!.w;
        negated = NEGATORS.has(w) || (cm.claimsSameness[e] === 0 && SAMENESS.has(w));
      }
      if (negated) {
        last.fill(-1, off, off + n);
        if (r.denied !== undefined && !r.denied.includes(e)) r.denied.push(e);
        continue;
      }
    }
    r.found[e] = 1;
    r.out.push(e);
  }
}
