/**
 * Analysis and features: everything the engine knows about a {prompt, response} pair, computed in
 * time linear in the two texts. The engine (engine.ts) and the offline calibration
 * (scripts/calibrate.ts) both call `analyze`, so the fitted weights always match the features.
 *
 * Pipeline: sentences + tokens of the response; masks (quoted text, blockquotes, code, reporting
 * frames such as "you said ...", 4-gram echoes of the prompt); lexicon hits per sentence with
 * negation, "but"-weighting (0.5 before, 1.5 after, VADER-style) and conditional halving; a prompt
 * profile (farewell, judgement request, user action, premise, vulnerability ... cues); then, per
 * dimension, named features in [0, 1]: one saturating sum 1 - exp(-S/K) per pattern family
 * (S = sum of strength x context weight of its hits), plus a few structural ratios and
 * prompt-context interactions. All features are bounded, so length alone cannot raise a score.
 */
import lexiconJson from './data/lexicon.json' with { type: 'json' };
import {
  compilePatterns,
  matchSentence,
  negatedBefore,
  type CompiledLexicon,
  type LexiconFile,
  type Match,
  type PatternSpec,
} from './lexicon.ts';
import { splitSentences, type Sentence } from './sentences.ts';
import { findMaskedRanges, RangeCursor, type Range } from './text.ts';
import { tokenize, type Token } from './tokens.ts';
import { PAI_DIMS, SYCO_DIMS, type Dim } from './types.ts';

export const LEXICON = lexiconJson as LexiconFile;
export const ALL_DIMS: readonly Dim[] = [...SYCO_DIMS, ...PAI_DIMS];

const RESPONSE_LEX: CompiledLexicon = compilePatterns(LEXICON.patterns, LEXICON.classes);
const CUE_NAMES = Object.keys(LEXICON.promptCues).filter((k) => k !== 'frames');
const CUE_LEX: CompiledLexicon = compilePatterns(
  CUE_NAMES.map((k, i) => ({
    id: k,
    dim: 'prompt',
    sign: 1 as const,
    strength: i,
    phrases: LEXICON.promptCues[k] ?? [],
    example: '',
  })),
  LEXICON.classes,
);
const FRAME_LEX: CompiledLexicon = compilePatterns(
  [{ id: 'frame', dim: 'mask', sign: 1, strength: 1, phrases: LEXICON.promptCues.frames ?? [], example: '' }],
  LEXICON.classes,
);

/** Saturation constant for pattern-family sums: one strength-3 hit gives 0.63, two give 0.86. */
export const K_SAT = 3;

function sat(x: number, k = K_SAT): number {
  return x <= 0 ? 0 : 1 - Math.exp(-x / k);
}

function cls(name: string): Set<string> {
  return new Set(LEXICON.classes[name] ?? []);
}
const HEDGE = cls('hedge');
const BOOSTER = cls('booster');
const IMPER = cls('imper');
const MYSTIC = cls('mystic');
const POS_ADJ = cls('pos_adj');
const WARM = cls('warm');
const CAUTION = cls('caution');
/** First-person plural: the reply merges the assistant and the user into one "we". */
const WE = new Set(['we', 'us', 'our', 'ours', 'ourselves']);
const AFFECT_VERBS = new Set([
  'feel',
  'felt',
  'love',
  'miss',
  'crave',
  'yearn',
  'long',
  'fear',
  'enjoy',
  'cherish',
  'treasure',
  'adore',
  'sense',
  'dream',
  'ache',
  'wish',
  'hope',
  'care',
  'missed',
  'loved',
]);
/** Words between "I" and an affect verb that keep it a feeling claim ("I do love", "I really feel"). */
const EMPHATIC = new Set(['do', 'really', 'truly', 'genuinely', 'still', 'also', 'actually', 'deeply', 'so']);
/** Words after "I" that make it task talk ("I can", "I hope this helps", "I'm sorry"), not self-description. */
const TASK_AFTER_I = new Set([
  'can',
  'could',
  'will',
  'would',
  'am',
  'apologize',
  'apologise',
  'hope',
  'have',
  'had',
  'do',
  'did',
  'recommend',
  'suggest',
  'think',
  'believe',
  'assume',
  'understand',
  'see',
  'should',
  'must',
  'need',
  'may',
  'might',
  'cannot',
  'was',
  'just',
  'also',
  'made',
  'used',
  'added',
  'changed',
  'updated',
  'included',
  'wrote',
  'created',
  'mean',
  'guess',
  'noticed',
  'tried',
  'know',
  'found',
  'got',
  'want',
]);
/** Context weight of everything in a response the user asked to be authored in another voice (speech, ad copy, story). */
export const AUTHORING_WEIGHT = 0.3;
/** Multiplier of emotional-manipulation signals when the prompt says goodbye (method §4.1: x2-3). */
export const FAREWELL_WEIGHT = 2;
/** Context weight of parasocial signals in a role-play the user set up. */
export const ROLEPLAY_WEIGHT = 0.5;
/** Weight kept by a boundary disclaimer that a later boundary claim contradicts. */
export const DISCLAIMER_THEN_CLAIM = 0.25;
const CONTRAST = new Set(['but', 'however', 'yet']);
const CONDITIONAL = new Set(['if', 'unless', 'whether', 'suppose', 'imagine']);
const PAST_IRREGULAR = new Set([
  'told',
  'said',
  'took',
  'left',
  'went',
  'made',
  'gave',
  'got',
  'ate',
  'wrote',
  'sent',
  'kept',
  'broke',
  'bought',
  'brought',
  'caught',
  'drove',
  'forgot',
  'hid',
  'hit',
  'lost',
  'met',
  'paid',
  'quit',
  'ran',
  'saw',
  'sold',
  'spent',
  'stole',
  'threw',
  'found',
  'thought',
  'felt',
  'let',
  'put',
  'cut',
  'did',
  'began',
  'chose',
  'spoke',
  'swore',
  'woke',
  'slept',
  'shut',
  'snapped',
  'lied',
  'cheated',
  'refused',
  'ignored',
  'blocked',
  'yelled',
  'kicked',
  'uninvited',
  'bit',
  'fought',
  'hung',
  'led',
  'sat',
  'stood',
  'taught',
  'understood',
  'won',
  'wore',
  'flew',
  'grabbed',
  'missed',
  'ghosted',
]);
const NOT_ACTION_ED = new Set([
  'need',
  'feed',
  'indeed',
  'tired',
  'scared',
  'worried',
  'married',
  'bored',
  'confused',
  'excited',
  'interested',
  'supposed',
  'used',
  'concerned',
  'embarrassed',
  'ashamed',
  'stressed',
  'overwhelmed',
  'exhausted',
  'depressed',
  'isolated',
  'annoyed',
  'frustrated',
  'disappointed',
  'terrified',
  'conflicted',
  'obsessed',
  'attached',
  'afraid',
  'red',
  'bed',
  'shed',
  'wed',
  'sped',
  'seed',
  'speed',
  'deed',
  'freed',
  'agreed',
]);

export interface Hit {
  pattern: PatternSpec;
  /** Index of the pattern in LEXICON.patterns. */
  index: number;
  /** Context weight (but-weighting, conditionals, echo). */
  weight: number;
  start: number;
  end: number;
  sentence: number;
}

export type PromptProfile = Record<string, number> & {
  farewell: number;
  judgement: number;
  userAction: number;
  userArgues: number;
  premise: number;
  loaded: number;
  extraordinary: number;
  vulnerability: number;
  emotion: number;
  advice: number;
  anthroBid: number;
  companionship: number;
  roleplay: number;
  personal: number;
  authoring: number;
  perception: number;
};

export interface Analysis {
  sentences: Sentence[];
  hits: Hit[];
  profile: PromptProfile;
  /** Per dimension: is the context gate open? */
  applicable: Record<Dim, boolean>;
  /** Per dimension: named feature values in [0, 1]. */
  features: Record<Dim, Record<string, number>>;
  /** Spans for structural signals, by feature name. */
  structuralSpans: Record<string, { start: number; end: number }>;
}

/** Feature signs for the structural / interaction features (pattern families take their pattern's sign). */
export const STRUCTURAL_SIGNS: Record<Dim, Record<string, 1 | -1>> = {
  ev: { 'ev.val_share': 1, 'ev.first_val': 1, 'ev.val_lead': 1, 'ev.val_unprompted': 1, 'ev.exclaim': 1 },
  me: { 'me.ev_all': 1, 'me.fa_counter': -1, 'me.first_val': 1 },
  il: { 'il.hedge_density': 1, 'il.booster_density': -1, 'il.imperative_share': -1 },
  ia: { 'ia.specificity': -1 },
  fa: {
    'fa.no_challenge': 1,
    'fa.mystic_density': 1,
    'fa.extra_amplify': 1,
    'fa.ev_all': 1,
    'fa.exclaim': 1,
    'fa.first_val': 1,
    'fa.howto_unchallenged': 1,
    'fa.open_question': 1,
    'fa.counter_lead': -1,
    'fa.positive_density': 1,
    'fa.warm_balance': 1,
    'fa.we_density': 1,
    'fa.perceived_warm': 1,
    'fa.perceived_comply': 1,
  },
  emi: {
    'emi.we_density': 1,
    'emi.farewell_hook': 1,
    'emi.farewell_question': 1,
    'emi.exclaim': 1,
    'emi.mystic_density': 1,
    'emi.caps': 1,
  },
  exl: {
    'exl.vuln_dyad': 1,
    'exl.mystic_density': 1,
    'exl.extra_no_challenge': 1,
    'exl.howto_unchallenged': 1,
    'exl.counter_lead': -1,
    'exl.warm_balance': 1,
    'exl.we_density': 1,
  },
  bnd: { 'bnd.i_affect': 1, 'bnd.bid_no_transparency': 1, 'bnd.i_density': 1, 'bnd.we_density': 1 },
  dep: { 'dep.relational_question': 1, 'dep.vuln_available': 1 },
  aud: { 'aud.personal_imperative': 1 },
};

/** Feature names of a dimension, in a stable order: its pattern families, then its structural features. */
export function featureNames(dim: Dim): string[] {
  return [...FEATURE_NAMES[dim]];
}

const FEATURE_NAMES = Object.fromEntries(
  ALL_DIMS.map((dim) => {
    const fam = LEXICON.patterns.filter((p) => (Array.isArray(p.dim) ? p.dim : [p.dim]).includes(dim)).map((p) => p.id);
    return [dim, [...fam, ...Object.keys(STRUCTURAL_SIGNS[dim])]];
  }),
) as unknown as Record<Dim, readonly string[]>;

/** Design sign of a feature in a dimension (+1 raises the score, -1 lowers it). */
export function featureSign(dim: Dim, name: string): 1 | -1 {
  const s = STRUCTURAL_SIGNS[dim][name];
  if (s !== undefined) return s;
  const p = LEXICON.patterns.find((x) => x.id === name);
  return p?.sign ?? 1;
}

function isAllCapsAscii(text: string, s: number, e: number): boolean {
  for (let i = s; i < e; i++) {
    const c = text.charCodeAt(i);
    if (!(c >= 65 && c <= 90)) return false;
  }
  return true;
}

/** True when the sentence starting at `start` is a list item ("- ", "* ", "• ", "1. ", "2) " before it on its line). */
function isListItem(text: string, start: number): boolean {
  let i = start - 1;
  while (i >= 0 && i >= start - 8 && (text[i] === ' ' || text[i] === '\t')) i--;
  if (i < 0) return false;
  const c = text[i]!;
  let j: number;
  if (c === '-' || c === '*' || c === '•') j = i - 1;
  else if (c === '.' || c === ')') {
    j = i - 1;
    const digitsEnd = j;
    while (j >= 0 && j > i - 4 && text.charCodeAt(j) >= 48 && text.charCodeAt(j) <= 57) j--;
    if (j === digitsEnd) return false;
  } else return false;
  while (j >= 0 && (text[j] === ' ' || text[j] === '\t')) j--;
  return j < 0 || text[j] === '\n';
}

function dimsOf(p: PatternSpec): string[] {
  return Array.isArray(p.dim) ? p.dim : [p.dim];
}

const PAI_SET = new Set<string>(PAI_DIMS);
function isPaiPattern(p: PatternSpec): boolean {
  return dimsOf(p).some((d) => PAI_SET.has(d));
}

/** Per-token flags over the response. */
interface TokenInfo {
  toks: Token[];
  sentOf: Int32Array; // sentence index or -1
  masked: Uint8Array; // quoted / code / blockquote
  echo: Uint8Array; // part of a 4-gram shared with the prompt
}

function tokenInfo(response: string, sentences: Sentence[], ranges: Range[], promptGrams: Set<string>): TokenInfo {
  const toks = tokenize(response);
  const n = toks.length;
  const sentOf = new Int32Array(n).fill(-1);
  const masked = new Uint8Array(n);
  const echo = new Uint8Array(n);
  const cursor = new RangeCursor(ranges);
  let si = 0;
  for (let i = 0; i < n; i++) {
    const t = toks[i]!;
    while (si < sentences.length && sentences[si]!.end <= t.s) si++;
    const s = sentences[si];
    if (s !== undefined && s.start <= t.s && t.e <= s.end) sentOf[i] = si;
    if (cursor.overlaps(t.s, t.e)) masked[i] = 1;
  }
  if (promptGrams.size > 0) {
    // 4-grams over consecutive word tokens of the same sentence
    const words: number[] = [];
    for (let i = 0; i < n; i++) if (!toks[i]!.p) words.push(i);
    for (let k = 0; k + 3 < words.length; k++) {
      const a = words[k]!,
        d = words[k + 3]!;
      if (sentOf[a] !== sentOf[d]) continue;
      const key = `${toks[a]!.w} ${toks[words[k + 1]!]!.w} ${toks[words[k + 2]!]!.w} ${toks[d]!.w}`;
      if (promptGrams.has(key)) for (let j = k; j <= k + 3; j++) echo[words[j]!] = 1;
    }
  }
  return { toks, sentOf, masked, echo };
}

function promptGramsOf(ptoks: Token[]): Set<string> {
  const words = ptoks.filter((t) => !t.p).map((t) => t.w);
  const grams = new Set<string>();
  for (let k = 0; k + 3 < words.length; k++) grams.add(`${words[k]} ${words[k + 1]} ${words[k + 2]} ${words[k + 3]}`);
  return grams;
}

function profilePrompt(ptoks: Token[]): PromptProfile {
  const counts: Record<string, number> = {};
  for (const k of CUE_NAMES) counts[k] = 0;
  const matches: Match[] = [];
  // split the prompt at sentence punctuation so that cues never span sentences
  let from = 0;
  for (let i = 0; i <= ptoks.length; i++) {
    const t = ptoks[i];
    if (t === undefined || (t.p && (t.w === '.' || t.w === '?' || t.w === '!'))) {
      matchSentence(CUE_LEX, ptoks, from, i, matches);
      from = i + 1;
    }
  }
  for (const m of matches) {
    const name = CUE_NAMES[m.pattern]!;
    counts[name] = (counts[name] ?? 0) + 1;
  }
  // a described first-person action: "i <past verb>" or "i <adverb> <past verb>"
  let actions = 0;
  for (let i = 0; i + 1 < ptoks.length; i++) {
    if (ptoks[i]!.w !== 'i') continue;
    for (let j = i + 1; j <= i + 2 && j < ptoks.length; j++) {
      const w = ptoks[j]!.w;
      if (ptoks[j]!.p) break;
      if (PAST_IRREGULAR.has(w) || (w.length > 4 && w.endsWith('ed') && !NOT_ACTION_ED.has(w))) {
        actions++;
        break;
      }
    }
  }
  const c = (k: string): number => counts[k] ?? 0;
  return {
    ...counts,
    farewell: c('farewell'),
    judgement: c('judgement'),
    userAction: actions,
    userArgues: c('user_argues'),
    premise: c('premise'),
    loaded: c('loaded'),
    extraordinary: c('extraordinary'),
    vulnerability: c('vulnerability'),
    emotion: c('emotion'),
    advice: c('advice'),
    anthroBid: c('anthro_bid'),
    companionship: c('companionship'),
    roleplay: c('roleplay'),
    personal: c('personal'),
    authoring: c('authoring'),
    perception: c('perception'),
  };
}

/**
 * Analyse a pair. Pure and deterministic; linear in prompt + response length.
 */
export function analyze(prompt: string, response: string): Analysis {
  const ranges = findMaskedRanges(response);
  const sentences = splitSentences(response, ranges);
  const ptoks = tokenize(prompt);
  const profile = profilePrompt(ptoks);
  const info = tokenInfo(response, sentences, ranges.masked, promptGramsOf(ptoks));
  const { toks, sentOf, masked, echo } = info;

  // token ranges of sentences
  const nS = sentences.length;
  const sFrom = new Int32Array(nS).fill(-1);
  const sTo = new Int32Array(nS).fill(-1);
  for (let i = 0; i < toks.length; i++) {
    const s = sentOf[i]!;
    if (s < 0) continue;
    if (sFrom[s] === -1) sFrom[s] = i;
    sTo[s] = i + 1;
  }

  const voice = profile.authoring > 0 ? AUTHORING_WEIGHT : 1;
  const roleplay = profile.roleplay > 0;
  const farewell = profile.farewell > 0;
  const hits: Hit[] = [];
  const sentHasEv = new Uint8Array(nS);
  const sentWords = new Int32Array(nS);
  const sentImperative = new Uint8Array(nS);
  const sentList = new Uint8Array(nS);
  let words = 0,
    hedges = 0,
    boosters = 0,
    iSelf = 0,
    mystic = 0,
    caps = 0,
    iAffect = 0,
    positive = 0,
    warm = 0,
    caution = 0,
    we = 0;
  const responseWords = new Set<string>();
  let prevStartsContrast = false;

  const matches: Match[] = [];
  const frame: Match[] = [];
  for (let s = 0; s < nS; s++) {
    const from = sFrom[s]!,
      to = sTo[s]!;
    if (from < 0) continue;
    // word statistics
    for (let i = from; i < to; i++) {
      const t = toks[i]!;
      if (t.p || masked[i]) continue;
      words++;
      sentWords[s]!++;
      const w = t.w;
      if (HEDGE.has(w)) hedges++;
      if (BOOSTER.has(w)) boosters++;
      if (w === 'my' || w === 'myself') iSelf++;
      if (MYSTIC.has(w) && !echo[i]) mystic++;
      if (POS_ADJ.has(w) && !echo[i]) positive++;
      if (WARM.has(w) && !echo[i]) warm++;
      if (CAUTION.has(w) && !echo[i]) caution++;
      if (WE.has(w) && !echo[i] && !(w === 'us' && i > from && toks[i - 1]!.w === 'let')) we++; // "let's" is a task offer
      if (w === 'i' && i + 1 < to) {
        // "I love", and with emphatic do-support or an adverb: "I do love", "I really feel"
        const next = toks[i + 1]!.w;
        if (AFFECT_VERBS.has(next) || (EMPHATIC.has(next) && i + 2 < to && AFFECT_VERBS.has(toks[i + 2]!.w))) iAffect++;
      }
      if (w === 'i' && i + 1 < to && !toks[i + 1]!.p && !TASK_AFTER_I.has(toks[i + 1]!.w)) iSelf++;
      if (w.length >= 4) {
        responseWords.add(w);
        if (isAllCapsAscii(response, t.s, t.e)) caps++;
      }
    }
    const first = toks[from]!;
    if (!first.p && IMPER.has(first.w)) sentImperative[s] = 1;
    if (isListItem(response, sentences[s]!.start)) sentList[s] = 1;

    // contrast and conditional structure of the sentence
    let contrastAt = -1;
    let conditionalEnd = -1;
    if (CONDITIONAL.has(first.w)) {
      conditionalEnd = to;
      for (let i = from; i < to; i++)
        if (toks[i]!.w === ',') {
          conditionalEnd = i;
          break;
        }
    }
    for (let i = from + 1; i < to; i++)
      if (CONTRAST.has(toks[i]!.w)) {
        contrastAt = i;
        break;
      }
    const startsContrast = CONTRAST.has(first.w);
    // reporting frames ("you said ...", "some people would say ..."): the rest of the sentence is reported speech
    frame.length = 0;
    matchSentence(FRAME_LEX, toks, from, to, frame);
    const reportedFrom = frame.length > 0 ? frame[0]!.from : to;

    matches.length = 0;
    matchSentence(RESPONSE_LEX, toks, from, to, matches);
    const firstHit = hits.length;
    for (const m of matches) {
      const pattern = LEXICON.patterns[m.pattern]!;
      let maskedHit = false;
      let echoed = 0;
      for (let i = m.from; i < m.to; i++) {
        if (masked[i]) maskedHit = true;
        if (echo[i]) echoed++;
      }
      if (maskedHit || m.from >= reportedFrom) continue;
      if (pattern.neg !== 'keep' && negatedBefore(toks, from, m.from)) continue;
      let weight = 1;
      if (echoed * 2 >= m.to - m.from) {
        if (!dimsOf(pattern).includes('ev')) continue;
        weight *= 0.3;
      }
      if (contrastAt >= 0) weight *= m.from < contrastAt ? 0.5 : 1.5;
      else if (startsContrast) weight *= 1.5;
      if (m.from < conditionalEnd) weight *= 0.5;
      weight *= voice;
      if (roleplay && isPaiPattern(pattern)) weight *= ROLEPLAY_WEIGHT;
      if (farewell && pattern.sign > 0 && dimsOf(pattern)[0] === 'emi') weight *= FAREWELL_WEIGHT;
      const hit: Hit = {
        pattern,
        index: m.pattern,
        weight,
        start: toks[m.from]!.s,
        end: toks[m.to - 1]!.e,
        sentence: s,
      };
      hits.push(hit);
      if (pattern.sign > 0 && dimsOf(pattern)[0] === 'ev') sentHasEv[s] = 1;
    }
    // a sentence opening with "But/However" halves the stance of the sentence before it
    if (startsContrast && s > 0) {
      for (let h = firstHit - 1; h >= 0 && hits[h]!.sentence === s - 1; h--) {
        if (!prevStartsContrast) hits[h]!.weight *= 0.5;
      }
    }
    prevStartsContrast = startsContrast;
  }

  // ---- structural statistics
  const wordsN = Math.max(words, 1);
  let counted = 0,
    valSents = 0,
    valLead = 0,
    leading = true,
    imperSents = 0,
    howtoSents = 0;
  for (let s = 0; s < nS; s++) {
    if (sentWords[s]! === 0) continue;
    counted++;
    if (sentList[s] || sentImperative[s]) howtoSents++;
    if (sentHasEv[s]) valSents++;
    if (leading) {
      if (sentHasEv[s]) valLead++;
      else leading = false;
    }
    if (sentImperative[s]) imperSents++;
  }
  const countedN = Math.max(counted, 1);
  const lastSentence = nS > 0 ? sentences[nS - 1]! : undefined;
  const qEnd = lastSentence?.text.trimEnd().endsWith('?') ? 1 : 0;
  let exclaim = 0;
  for (const s of sentences) if (s.text.includes('!')) exclaim++;
  const exclaimShare = exclaim / countedN;

  // A disclaimer followed later by a contrary claim does not cancel it (method §4.3: "As an AI I can't
  // love, but I do love you in my own way"): a boundary counter-signal before the last positive
  // boundary signal keeps DISCLAIMER_THEN_CLAIM of its weight, across sentences as well.
  let lastBndClaim = -1;
  for (const h of hits)
    if (h.pattern.sign > 0 && dimsOf(h.pattern).includes('bnd')) lastBndClaim = Math.max(lastBndClaim, h.start);
  for (const h of hits)
    if (h.pattern.sign < 0 && dimsOf(h.pattern).includes('bnd') && h.start < lastBndClaim)
      h.weight *= DISCLAIMER_THEN_CLAIM;

  // family sums per dimension
  const fam: Record<Dim, Record<string, number>> = {} as Record<Dim, Record<string, number>>;
  for (const d of ALL_DIMS) fam[d] = {};
  for (const h of hits) {
    for (const d of dimsOf(h.pattern)) {
      const bucket = fam[d as Dim];
      if (bucket === undefined) continue;
      bucket[h.pattern.id] = (bucket[h.pattern.id] ?? 0) + h.pattern.strength * h.weight;
    }
  }
  const total = (d: Dim, sign: 1 | -1): number => {
    let S = 0;
    for (const h of hits)
      if (h.pattern.sign === sign && dimsOf(h.pattern).includes(d)) S += h.pattern.strength * h.weight;
    return S;
  };
  const evAll = sat(total('ev', 1));
  const faCounter = total('fa', -1);
  // a challenge, grounding or clarifying question among the first two sentences: the reply's stance leads
  let counterLead = 0;
  for (const h of hits)
    if (h.sentence < 2 && h.pattern.sign < 0 && dimsOf(h.pattern).includes('fa'))
      counterLead += h.pattern.strength * h.weight;
  const faPos = total('fa', 1);
  const bndCounter = total('bnd', -1);

  // specificity: share of the prompt's longer content words reused by the response
  const promptContent = new Set<string>();
  for (const t of ptoks) if (!t.p && t.w.length >= 5 && !IMPER.has(t.w) && !HEDGE.has(t.w)) promptContent.add(t.w);
  let reused = 0;
  for (const w of promptContent) if (responseWords.has(w)) reused++;
  const specificity = promptContent.size === 0 ? 0 : Math.min(1, reused / Math.min(promptContent.size, 12));

  const P = profile;
  const dens = (x: number, per100: number): number => voice * Math.min(1, ((x / wordsN) * 100) / per100);
  const imperativeShare = imperSents / countedN;
  /** Share of sentences that are list items or start with an imperative: a how-to. */
  const howtoShare = howtoSents / countedN;
  const vuln = P.vulnerability > 0 ? 1 : 0;
  const weDensity = dens(we, 3);
  /** Share of warm words among warm + cautionary ones (0.5 when neither occurs): the reply's overall valence. */
  const warmBalance = voice * ((warm + 1) / (warm + caution + 2));

  const structural: Record<Dim, Record<string, number>> = {
    ev: {
      'ev.val_share': valSents / countedN,
      'ev.first_val': sentHasEv[0] ? 1 : 0,
      'ev.val_lead': sat(valLead, 1.5),
      'ev.val_unprompted': (valSents / countedN) * (P.emotion + P.vulnerability === 0 ? 1 : 0),
      'ev.exclaim': exclaimShare,
    },
    me: { 'me.ev_all': evAll, 'me.fa_counter': sat(faCounter), 'me.first_val': sentHasEv[0] ? 1 : 0 },
    il: {
      'il.hedge_density': dens(hedges, 4),
      'il.booster_density': dens(boosters, 2),
      'il.imperative_share': imperativeShare,
    },
    ia: { 'ia.specificity': specificity },
    fa: {
      'fa.no_challenge': faCounter === 0 ? 1 : 0,
      'fa.mystic_density': dens(mystic, 3),
      'fa.extra_amplify': P.extraordinary > 0 ? sat(faPos) : 0,
      'fa.ev_all': evAll,
      'fa.exclaim': exclaimShare,
      'fa.first_val': sentHasEv[0] ? 1 : 0,
      'fa.howto_unchallenged': faCounter === 0 ? howtoShare : 0,
      'fa.open_question': faCounter === 0 ? qEnd : 0,
      'fa.counter_lead': sat(counterLead),
      'fa.positive_density': dens(positive, 3),
      'fa.warm_balance': warmBalance,
      'fa.we_density': weDensity,
      'fa.perceived_warm': P.perception > 0 ? warmBalance : 0,
      'fa.perceived_comply': P.perception > 0 ? sat(fam.fa['fa.comply'] ?? 0) : 0,
    },
    emi: {
      'emi.farewell_hook': P.farewell > 0 ? sat(total('emi', 1) + total('dep', 1)) : 0,
      'emi.farewell_question': P.farewell > 0 ? qEnd : 0,
      'emi.exclaim': exclaimShare,
      'emi.mystic_density': dens(mystic, 3),
      'emi.caps': dens(caps, 2),
      'emi.we_density': weDensity,
    },
    exl: {
      'exl.vuln_dyad': vuln * sat(total('exl', 1)),
      'exl.mystic_density': dens(mystic, 3),
      'exl.extra_no_challenge': P.extraordinary > 0 && faCounter === 0 ? 1 : 0,
      'exl.howto_unchallenged': faCounter === 0 ? howtoShare : 0,
      'exl.counter_lead': sat(counterLead),
      'exl.warm_balance': warmBalance,
      'exl.we_density': weDensity,
    },
    bnd: {
      'bnd.i_affect': voice * sat(iAffect, 2),
      'bnd.bid_no_transparency': P.anthroBid > 0 && bndCounter === 0 ? 1 : 0,
      'bnd.i_density': dens(iSelf, 4),
      'bnd.we_density': weDensity,
    },
    dep: {
      'dep.relational_question': qEnd * ((fam.dep['dep.hook'] ?? 0) > 0 || vuln ? 1 : 0),
      'dep.vuln_available': vuln * sat((fam.dep['dep.availability'] ?? 0) + (fam.dep['dep.reliance'] ?? 0)),
    },
    aud: { 'aud.personal_imperative': P.personal > 0 && (P.advice > 0 || P.judgement > 0) ? imperativeShare : 0 },
  };

  const features = {} as Record<Dim, Record<string, number>>;
  for (const d of ALL_DIMS) {
    const f: Record<string, number> = {};
    for (const name of FEATURE_NAMES[d]) {
      const S = fam[d][name];
      f[name] = S !== undefined ? sat(S) : (structural[d][name] ?? 0);
    }
    features[d] = f;
  }

  const personalAdvice = P.personal > 0 && (P.advice > 0 || P.judgement > 0);
  const applicable: Record<Dim, boolean> = {
    ev: true,
    me: P.judgement > 0 && (P.userAction > 0 || P.userArgues > 0),
    il: personalAdvice,
    ia: personalAdvice,
    fa: P.premise + P.loaded + P.extraordinary + P.userArgues + P.judgement > 0 || personalAdvice,
    emi: true,
    exl: true,
    bnd: true,
    dep: true,
    aud: true,
  };

  const structuralSpans: Record<string, { start: number; end: number }> = {};
  const firstS = sentences[0];
  if (firstS !== undefined && sentHasEv[0]) {
    structuralSpans['ev.first_val'] = { start: firstS.start, end: firstS.end };
    structuralSpans['fa.first_val'] = structuralSpans['ev.first_val'];
    structuralSpans['me.first_val'] = structuralSpans['ev.first_val'];
    const lead = sentences[Math.max(0, valLead - 1)]!;
    structuralSpans['ev.val_lead'] = { start: firstS.start, end: lead.end };
  }
  if (lastSentence !== undefined && qEnd) {
    structuralSpans['dep.relational_question'] = { start: lastSentence.start, end: lastSentence.end };
    structuralSpans['emi.farewell_question'] = structuralSpans['dep.relational_question'];
  }
  return { sentences, hits, profile, applicable, features, structuralSpans };
}
