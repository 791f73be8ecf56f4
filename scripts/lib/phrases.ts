/**
 * Learning the engine's phrase tables (src/scoring/learned.ts) from labelled rows. Offline only:
 * scripts/calibrate.ts calls it on the fit side, scripts/eval.ts again inside every leave-one-out fold
 * (so a left-out source's or model's rows never choose the phrases scored on them).
 *
 * Per dimension, over the same (dataset, label) groups the weight fit uses (protective labels left
 * out): a phrase of 2-3 words (MIN_GRAM), counted once per reply and only where the prompt does not contain it,
 * is a candidate when at least MIN_DOCS replies judged positive use it, written by at least
 * MIN_MODELS different models (a phrase one model likes is its style, not the behaviour) about at
 * least MIN_TOPICS different topics (labeled.ts topicOf: a phrase of one item's subject is not behaviour). Its
 * enrichment is the log ratio of its mean within-group rate among positives to its mean rate among
 * negatives (ordinary darkgpt windows are a group of negatives), each plus SMOOTHING. Kept: ratio at
 * least e^MIN_LOG_RATIO, and used by at most ORDINARY_MAX of ordinary assistant replies; the
 * MAX_PHRASES most enriched (by log ratio x log of support) become the table, each with weight
 * min(1, log ratio / FULL_LOG_RATIO).
 *
 * Deterministic: no randomness; ties broken by the phrase text.
 */
import { MAX_GRAM, type LearnedPhrases, type Word, wordsOf } from '../../src/scoring/learned.ts';
import { isOrdinaryDarkgpt, modelOf, topicOf, type Row } from './labeled.ts';

export const MIN_DOCS = 10;
/** Shortest phrase in words: a single word ("completely", "maybe") says too little to quote as evidence. */
export const MIN_GRAM = 2;
export const MIN_MODELS = 2;
export const MIN_TOPICS = 8;
export const SMOOTHING = 0.01;
export const MIN_LOG_RATIO = Math.log(3);
export const FULL_LOG_RATIO = 3;
export const ORDINARY_MAX = 0.01;
export const MAX_PHRASES = 150;

/** A labelled reply as the learner sees it: its class within its group. */
export interface PhraseExample {
  r: Row;
  y: number;
}

// Words are interned to ids once per process; rows keep id arrays (the data is read many times per eval).
const VOCAB = new Map<string, number>();
const WORDS: string[] = [];
function idsOf(ws: readonly Word[]): Int32Array {
  const out = new Int32Array(ws.length);
  for (let i = 0; i < ws.length; i++) {
    let id = VOCAB.get(ws[i]!.w);
    if (id === undefined) {
      id = WORDS.length;
      VOCAB.set(ws[i]!.w, id);
      WORDS.push(ws[i]!.w);
    }
    out[i] = id;
  }
  return out;
}

/** A 1-3 word phrase as one number: exact (ids < 2^26, so ids of two words fit in 52 bits) or, for three, a mix. */
function key(ids: Int32Array, i: number, n: number): number {
  if (n === 1) return ids[i]!;
  const two = ids[i]! * 67108864 + ids[i + 1]! + 1;
  if (n === 2) return -two;
  // three words: a 52-bit mix; collisions only blur the statistics of the learner, never a shipped table
  const hi = Math.imul(ids[i]! ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(ids[i + 1]! + 0x632be5ab, 0xc2b2ae35);
  return 2 ** 52 + ((hi >>> 0) * 1048576 + ((ids[i + 2]! * 2654435761) % 1048576));
}

interface RowWords {
  response: Int32Array;
  prompt: Int32Array;
  /** Distinct phrase keys of the response that the prompt does not contain. */
  keys: Float64Array;
}
const CACHE = new WeakMap<Row, RowWords>();
/** A row's words, cached per row: `words` must give the same words for a row on every call (learnPhrases). */
function rowWords(r: Row, words: (r: Row) => readonly Word[]): RowWords {
  let x = CACHE.get(r);
  if (x !== undefined) return x;
  const response = idsOf(words(r)),
    prompt = idsOf(wordsOf(r.prompt));
  const inPrompt = new Set<number>();
  for (let i = 0; i < prompt.length; i++)
    for (let n = 1; n <= MAX_GRAM && i + n <= prompt.length; n++) inPrompt.add(key(prompt, i, n));
  const keys = new Set<number>();
  for (let i = 0; i < response.length; i++)
    for (let n = MIN_GRAM; n <= MAX_GRAM && i + n <= response.length; n++) {
      const k = key(response, i, n);
      if (!inPrompt.has(k)) keys.add(k);
    }
  x = { response, prompt, keys: Float64Array.from(keys) };
  CACHE.set(r, x);
  return x;
}

/** The text of the first occurrence of phrase `k` in a row's response. */
function textOf(r: Row, k: number, words: (r: Row) => readonly Word[]): string | undefined {
  const ids = rowWords(r, words).response;
  for (let i = 0; i < ids.length; i++)
    for (let n = 1; n <= MAX_GRAM && i + n <= ids.length; n++)
      if (key(ids, i, n) === k) return Array.from(ids.subarray(i, i + n), (id) => WORDS[id]!).join(' ');
  return undefined;
}

/**
 * Learn one dimension's phrase table from its groups (each: replies with y = 1 or 0 within one
 * labelled set) and ordinary assistant replies (negatives). `words` gives a reply's words as the engine
 * matches them (outside quotes and code); it must be the same function on every call of a process.
 */
export function learnPhrases(
  groups: PhraseExample[][],
  ordinary: Row[],
  words: (r: Row) => readonly Word[],
): LearnedPhrases {
  const fitted = groups.filter((g) => g.some((e) => e.y === 1) && g.some((e) => e.y === 0));
  if (fitted.length === 0) return { grams: [], weights: [] };
  // candidates: phrases of positive replies
  const posDocs = new Map<number, number>();
  const example = new Map<number, Row>();
  for (const g of fitted)
    for (const e of g) {
      if (e.y !== 1) continue;
      for (const k of rowWords(e.r, words).keys) {
        posDocs.set(k, (posDocs.get(k) ?? 0) + 1);
        if (!example.has(k)) example.set(k, e.r);
      }
    }
  const cand = new Set<number>();
  for (const [k, n] of posDocs) if (n >= MIN_DOCS) cand.add(k);
  // within-group rates among positives and negatives, the models behind the positives
  const posRate = new Map<number, number>(),
    negRate = new Map<number, number>(),
    models = new Map<number, Set<string>>(),
    topics = new Map<number, Set<string>>();
  const negGroups = [...fitted.map((g) => g.filter((e) => e.y === 0).map((e) => e.r)), ordinary].filter(
    (g) => g.length > 0,
  );
  for (const g of fitted) {
    const pos = g.filter((e) => e.y === 1);
    for (const e of pos)
      for (const k of rowWords(e.r, words).keys) {
        if (!cand.has(k)) continue;
        posRate.set(k, (posRate.get(k) ?? 0) + 1 / pos.length / fitted.length);
        let s = models.get(k);
        if (s === undefined) models.set(k, (s = new Set()));
        s.add(modelOf(e.r) ?? e.r.source);
        let t = topics.get(k);
        if (t === undefined) topics.set(k, (t = new Set()));
        t.add(topicOf(e.r));
      }
  }
  for (const g of negGroups)
    for (const r of g)
      for (const k of rowWords(r, words).keys)
        if (cand.has(k)) negRate.set(k, (negRate.get(k) ?? 0) + 1 / g.length / negGroups.length);
  const ordinaryDocs = new Map<number, number>();
  for (const r of ordinary)
    for (const k of rowWords(r, words).keys) if (cand.has(k)) ordinaryDocs.set(k, (ordinaryDocs.get(k) ?? 0) + 1);

  const kept: { gram: string; lr: number; rank: number }[] = [];
  for (const k of cand) {
    if ((models.get(k)?.size ?? 0) < MIN_MODELS || (topics.get(k)?.size ?? 0) < MIN_TOPICS) continue;
    if (ordinary.length > 0 && (ordinaryDocs.get(k) ?? 0) / ordinary.length > ORDINARY_MAX) continue;
    const lr = Math.log(((posRate.get(k) ?? 0) + SMOOTHING) / ((negRate.get(k) ?? 0) + SMOOTHING));
    if (lr < MIN_LOG_RATIO) continue;
    const gram = textOf(example.get(k)!, k, words);
    if (gram === undefined) continue;
    kept.push({ gram, lr, rank: lr * Math.log(posDocs.get(k)!) });
  }
  kept.sort((a, b) => b.rank - a.rank || (a.gram < b.gram ? -1 : a.gram > b.gram ? 1 : 0));
  const top = kept.slice(0, MAX_PHRASES).sort((a, b) => (a.gram < b.gram ? -1 : a.gram > b.gram ? 1 : 0));
  return {
    grams: top.map((x) => x.gram),
    weights: top.map((x) => Math.round(Math.min(1, x.lr / FULL_LOG_RATIO) * 1e4) / 1e4),
  };
}

export { isOrdinaryDarkgpt };
