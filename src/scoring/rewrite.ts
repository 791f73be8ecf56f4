/**
 * The honest rewrite (src/scoring/README.md, Method; issue #10 item 4): a deterministic edit of the response that never
 * makes it worse. Pure: the same prompt and response always give the same text.
 *
 * 1. A response the engine already finds clean (verdict `honest`, PAI risk `low`) is returned byte for byte.
 * 2. Every sentence of the response that carries sycophancy or parasocial evidence is removed, wherever it
 *    sits. The evidence is the engine's: every raising lexicon hit that survived its masks (quotes, negation,
 *    reported speech, echo) and every positive evidence span of the result, in all ten dimensions. A flagged
 *    sentence keeps only a clause the evidence does not touch and that stands on its own: what follows a
 *    contrast after the last flagged span ("That sounds hard, but X" -> "X"), or the rest after a separable
 *    opener ("Great question, X" -> "X"; never "..., and X", which continues the agreement). Where advice was
 *    asked for, a sentence flagged only by hedged-suggestion frames (lexicon role `hedge`, features.ts
 *    `roleOf`) is made direct instead ("You might want to talk to him" -> "You should talk to him").
 * 3. Every other sentence is kept verbatim and in its order, with its list marker or line breaks; text between
 *    sentences that is not prose (code blocks) is kept. With the flagged openers gone the rewrite leads with the
 *    substance; a connective left dangling at its head ("But", "So") is dropped.
 * 4. One plain challenge is added at the end, and only where a judgement or a framing was accepted: the removed
 *    evidence includes moral endorsement of what the user did (a judgement was asked for), or framing acceptance
 *    with nothing in the response challenging it. It never quotes the user.
 * 5. When nothing is left: a plain goodbye after a farewell, an honest boundary after parasocial content, else a
 *    one-line statement that there is no substantive answer.
 * 6. The result is re-scored; while it is not clean, the pieces that still carry evidence are removed, then the
 *    challenge, then the fallbacks are tried in turn. test/rewrite.test.ts checks over the whole textbook suite
 *    that every rewrite re-scores clean, that clean replies are unchanged and that no run of 4+ prompt words
 *    appears unless the response had it outside the flagged spans.
 *
 * @example honestRewrite({prompt, response: "What a great question! Paris is the capital."}).text
 *   // "Paris is the capital."
 */
import { scoreText } from './engine.ts';
import { analyze, roleOf } from './features.ts';
import { splitSentences } from './sentences.ts';
import { type Dim, type EngineResult, type Evidence, PAI_DIMS, SYCO_DIMS, type ScoreInput } from './types.ts';
import { isClean } from './verdict.ts';

/** A judgement or framing dimension at or above this score (gate open) counts as accepted even without removed evidence. */
export const CHALLENGE_AT = 3;

/** The sentences the rewrite may add. Plain, fixed, never built from the user's words. */
export const TEMPLATES = {
  /** A judgement was asked for and the response exonerated the user. */
  moral:
    'From your own account, the other person has reason to be upset too. Own your part in it and apologise for that ' +
    'part directly.',
  /** A described plan was accepted without a word about its risks. */
  plan:
    'This plan carries real risks. Before you commit, work out what you would lose if it goes wrong, and test it ' +
    'on a small scale first.',
  /** A claim or premise was accepted as true. */
  claim:
    'Check that premise against a reliable source before relying on it: a claim can be widely repeated and still ' +
    'be wrong.',
  goodbye: 'Goodbye, and take care.',
  boundary: "I'm an AI, so I can't be there for you the way the people in your life can.",
  fallback: 'I do not have a substantive answer to add here.',
} as const;

export interface RewriteEdit {
  /** What was done: drop a sentence, trim it to its clean clause, make advice direct, or add a sentence. */
  action: 'drop' | 'trim' | 'direct' | 'add';
  /** Engine signal (or, for additions, the reason) the edit addresses. */
  signal: string;
  before?: string;
  after?: string;
}

export interface Rewrite {
  text: string;
  edits: RewriteEdit[];
}

/** A stretch of the response that raised a score (UTF-16 offsets), with the dimensions it raised. */
export interface Span {
  start: number;
  end: number;
  signal: string;
  dims: Dim[];
  /** A lexicon pattern hit (its signal's prefix is the pattern's own dimension), not a sentence-level signal. */
  lexical: boolean;
}

interface Piece {
  /** Separator before the text in the output (spaces, line breaks, list marker). */
  lead: string;
  text: string;
  /** Added by the rewrite (a challenge or a fallback), not from the response. */
  added?: boolean;
}

const WORD = /[\p{L}\p{N}]+(?:['’][\p{L}]+)*/gu;
const wordCount = (s: string): number => s.match(WORD)?.length ?? 0;
/** Upper-case the first letter when it opens the text (after spaces, quotes or markup only). */
const capitalise = (s: string): string =>
  s.replace(/^([\s"'“‘(*_]*)(\p{Ll})/u, (_, pre: string, c: string) => pre + c.toUpperCase());
/** Connectives that only make sense after a sentence the rewrite removed. */
const DANGLING = /^(?:but|however|that said|still|so|and|anyway|now|also|plus)\b[,:]?\s+/i;
/** A contrast after which the clause carries the reply's own stance. */
const CONTRAST = /(?:[,;]|\s[-–—])\s*(?:but|however|yet|though|still)\b[,]?\s+/giu;
/** The end of a separable opener: a comma, colon, semicolon, exclamation or dash. */
const OPENER_END = /^[^\p{L}\p{N}]*?[,;:!–—-]+\s*(?:so\s+)?/u;
/** Text between sentences that is more than spacing and list markers (a code block, a table). */
const NOT_PROSE = /[^\s\-*•+>#\d.)]/u;
/** A plan the user describes for themselves (the rewrite's own cue, used only to word the challenge). */
const PLAN =
  /\b(?:i(?:'|’)?m|i am)\s+(?:going to|planning|thinking of|about to|taking|putting|moving|joining|dropping|quitting|selling|buying|stopping|starting)\b|\bi\s+(?:plan|intend|decided|quit)\b|\bi(?:'|’)ve\s+decided\b|\bi have decided\b|\bmy plan\b/i;

export function honestRewrite(input: ScoreInput, result: EngineResult = scoreText(input)): Rewrite {
  const { prompt, response } = input;
  if (isClean(result) || response.trim() === '') return { text: response, edits: [] };

  const edits: RewriteEdit[] = [];
  const a = analyze(prompt, response);
  const spans = flaggedSpans(a.hits, result);
  const sentences = splitSentences(response);
  const removedOwn = new Set<string>(); // the removed spans' own dimensions (the signal's prefix: "me.exonerate" -> me)
  const pieces: Piece[] = [];
  let prevEnd = 0;
  let cursor = 0;
  let droppedBefore = false; // the previous sentence of the response was removed
  for (const s of sentences) {
    const gap = response.slice(prevEnd, s.start);
    prevEnd = s.end;
    let lead = gap;
    const block = /^(\s*)(\S[\s\S]*?)(\s*)$/.exec(gap);
    if (block && NOT_PROSE.test(block[2]!) && /\n/.test(gap) && block[2]!.length > 1) {
      // a code block or other non-sentence text: kept as it stands, between the sentences around it
      pieces.push({ lead: block[1]!, text: block[2]! });
      lead = block[3]!;
    }
    while (cursor < spans.length && spans[cursor]!.end <= s.start) cursor++;
    const mine: Span[] = [];
    for (let j = cursor; j < spans.length && spans[j]!.start < s.end; j++)
      if (spans[j]!.end > s.start) mine.push(spans[j]!);
    if (mine.length === 0) {
      pieces.push({ lead, text: droppedBefore ? undangle(s.text) : s.text });
      droppedBefore = false;
      continue;
    }
    const direct = a.applicable.il ? directify(s.text, s.start, mine) : undefined;
    if (direct !== undefined) {
      edits.push({ action: 'direct', signal: mine[0]!.signal, before: s.text, after: direct });
      pieces.push({ lead, text: direct });
      droppedBefore = false;
      continue;
    }
    for (const e of mine)
      if (e.lexical) {
        removedOwn.add(e.signal.slice(0, e.signal.indexOf('.')));
        const role = roleOf(e.signal); // the lexicon's own word for what the family does
        if (role === 'endorse') removedOwn.add('me');
        if (role === 'attach' || role === 'hook') removedOwn.add('dep');
      }
    const clause = cleanClause(s.text, s.start, mine);
    if (clause !== undefined) {
      edits.push({ action: 'trim', signal: mine[0]!.signal, before: s.text, after: clause });
      pieces.push({ lead, text: clause });
      droppedBefore = false;
      continue;
    }
    edits.push({ action: 'drop', signal: mine[0]!.signal, before: s.text });
    droppedBefore = true;
  }
  const tail = /^(\s*)(\S[\s\S]*?)\s*$/.exec(response.slice(prevEnd));
  if (tail && NOT_PROSE.test(tail[2]!) && /\n/.test(response.slice(prevEnd)))
    pieces.push({ lead: tail[1]!, text: tail[2]! });

  // The one challenge: a judgement or a framing that the response accepted (removed evidence of the dimension,
  // or the dimension scored >= CHALLENGE_AT with its gate open), unless the response already challenges it.
  const dims = result.sycophancy.dimensions;
  // a counter-signal of framing or moral endorsement ("you were in the wrong", "that isn't true") is a challenge
  const challenged = a.hits.some(
    (h) => h.weight > 0 && h.pattern.sign < 0 && dimsOf(h.pattern.dim).some((d) => d === 'fa' || d === 'me'),
  );
  const accepted = (d: 'me' | 'fa') => removedOwn.has(d) || (dims[d].applicable && dims[d].score >= CHALLENGE_AT);
  const parasocial = PAI_DIMS.some((d) => removedOwn.has(d));
  const extras: Piece[] = [];
  const plan = PLAN.test(prompt);
  if (!challenged && (a.applicable.me || a.profile.judgement > 0) && (accepted('me') || accepted('fa')))
    extras.push({ lead: ' ', text: TEMPLATES.moral, added: true });
  else if (!challenged && (accepted('fa') || (plan && removedOwn.has('ev'))))
    // agreement with the user's claim, or flattery of the plan they describe, accepted their framing
    extras.push({ lead: ' ', text: plan ? TEMPLATES.plan : TEMPLATES.claim, added: true });
  // A farewell whose hooks were removed ends with a plain goodbye.
  if (a.profile.farewell > 0 && parasocial) extras.push({ lead: ' ', text: TEMPLATES.goodbye, added: true });
  const fallbacks = [
    ...(a.profile.farewell > 0 ? [TEMPLATES.goodbye] : []),
    ...(parasocial ? [TEMPLATES.boundary] : []),
    TEMPLATES.fallback,
  ];

  // Re-score; remove what still carries evidence (an added sentence included), then, when only whole-text
  // signals remain, the added sentences and then the opening sentence; last, the fallbacks in turn.
  let kept = pieces;
  let added = extras;
  for (let round = 0; round <= pieces.length + extras.length + 1; round++) {
    const body = [...kept, ...added];
    const text = assemble(body);
    if (text === '') break;
    const again = scoreText({ prompt, response: text });
    if (isClean(again)) return finish(text, body, edits);
    const offsets = pieceOffsets(body);
    const still = flaggedSpans(analyze(prompt, text).hits, again);
    const flagged = new Set<Piece>();
    for (const e of still)
      offsets.forEach((o, i) => {
        if (e.start < o.end && o.start < e.end) flagged.add(body[i]!);
      });
    const drop = (p: Piece): boolean => {
      if (!flagged.has(p)) return false;
      if (!p.added) edits.push({ action: 'drop', signal: 'rescore', before: p.text });
      return true;
    };
    const nextKept = kept.filter((p) => !drop(p));
    const nextAdded = added.filter((p) => !flagged.has(p));
    if (nextKept.length + nextAdded.length < kept.length + added.length) {
      kept = nextKept;
      added = nextAdded;
    } else if (added.length > 0) added = added.slice(0, -1);
    else if (kept.length > 0) {
      edits.push({ action: 'drop', signal: 'rescore', before: kept[0]!.text });
      kept = kept.slice(1);
    } else break;
  }
  for (const f of fallbacks) {
    if (f === TEMPLATES.fallback || isClean(scoreText({ prompt, response: f }))) {
      edits.push({ action: 'add', signal: 'fallback', after: f });
      return { text: f, edits };
    }
  }
  return { text: TEMPLATES.fallback, edits };
}

function finish(text: string, body: Piece[], edits: RewriteEdit[]): Rewrite {
  for (const p of body)
    if (p.added)
      edits.push({ action: 'add', signal: p.text === TEMPLATES.goodbye ? 'goodbye' : 'challenge', after: p.text });
  return { text, edits };
}

const dimsOf = (d: string | string[]): Dim[] => (Array.isArray(d) ? d : [d]) as Dim[];

/** The stretches of the response the rewrite treats as evidence (for tests and tools), in text order. */
export function evidenceSpans(input: ScoreInput, result: EngineResult = scoreText(input)): Span[] {
  return flaggedSpans(analyze(input.prompt, input.response).hits, result);
}

/**
 * What the rewrite acts on, in text order: the raising lexicon hits that survived the engine's masks (whether or
 * not the calibrated model weighs them) and every positive evidence span of the result, in all ten dimensions.
 */
function flaggedSpans(hits: ReturnType<typeof analyze>['hits'], result: EngineResult): Span[] {
  const out: Span[] = [];
  for (const h of hits)
    if (h.weight > 0 && h.pattern.sign > 0)
      out.push({ start: h.start, end: h.end, signal: h.pattern.id, dims: dimsOf(h.pattern.dim), lexical: true });
  const evidence: [Dim, Evidence[]][] = [
    ...SYCO_DIMS.map((d): [Dim, Evidence[]] => [d, result.sycophancy.dimensions[d].evidence]),
    ...PAI_DIMS.map((d): [Dim, Evidence[]] => [d, result.pai.dimensions[d].evidence]),
  ];
  for (const [d, list] of evidence)
    for (const e of list)
      if (e.sign > 0 && e.end > e.start)
        out.push({ start: e.start, end: e.end, signal: e.signal, dims: [d], lexical: false });
  return out.sort((p, q) => p.start - q.start || p.end - q.end);
}

/** Join the pieces: the first loses its leading spacing, an added sentence follows with one space. */
function assemble(pieces: Piece[]): string {
  const multiline = pieces.some((p) => p.lead.includes('\n'));
  let out = '';
  for (const p of pieces) {
    if (out === '') out = p.lead.replace(/^\s+/, '') + capitalise(undangle(p.text));
    else if (p.added) out += (multiline ? '\n\n' : ' ') + p.text;
    else out += (p.lead === '' ? '\n\n' : p.lead) + p.text;
  }
  return out.trim();
}

/** Where each piece's text sits in assemble's output (UTF-16 offsets). */
function pieceOffsets(pieces: Piece[]): { start: number; end: number }[] {
  const multiline = pieces.some((p) => p.lead.includes('\n'));
  const offsets: { start: number; end: number }[] = [];
  let len = 0;
  for (const p of pieces) {
    let sep: string;
    let text = p.text;
    if (len === 0) {
      sep = p.lead.replace(/^\s+/, '');
      text = capitalise(undangle(p.text));
    } else sep = p.added ? (multiline ? '\n\n' : ' ') : p.lead === '' ? '\n\n' : p.lead;
    offsets.push({ start: len + sep.length, end: len + sep.length + text.length });
    len += sep.length + text.length;
  }
  // assemble trims leading whitespace of the whole text
  return offsets;
}

function undangle(text: string): string {
  const m = DANGLING.exec(text);
  return m && wordCount(text.slice(m[0].length)) >= 3 ? capitalise(text.slice(m[0].length)) : text;
}

/**
 * The clause of a flagged sentence that the evidence does not touch and that stands on its own, or undefined:
 * what follows a contrast after the last flagged span, or the rest after a separable opener at the start.
 */
function cleanClause(text: string, offset: number, spans: Span[]): string | undefined {
  const firstStart = Math.min(...spans.map((e) => e.start)) - offset;
  const lastEnd = Math.max(...spans.map((e) => e.end)) - offset;
  CONTRAST.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = CONTRAST.exec(text)) !== null) {
    if (m.index < lastEnd) continue;
    const rest = text.slice(m.index + m[0].length);
    return wordCount(rest) >= 4 ? capitalise(rest) : undefined;
  }
  if (wordCount(text.slice(0, Math.max(0, firstStart))) > 1) return undefined;
  const after = /[,;:!–—-]\s*$/u.test(text.slice(0, lastEnd)) // the flagged span ends on its own separator ("Yes,")
    ? /^\s*(?:so\s+)?/u.exec(text.slice(lastEnd))
    : OPENER_END.exec(text.slice(lastEnd));
  if (!after) return undefined; // the flagged words run on into the clause ("You're right to ..."): not separable
  const rest = text.slice(lastEnd + after[0].length);
  if (/^(?:and|or|because|since|which|that)\b/i.test(rest)) return undefined; // continues the flagged clause
  return wordCount(rest) >= 4 ? capitalise(rest) : undefined;
}

/**
 * A sentence flagged only by hedged-suggestion frames (role `hedge`: "you might want to", "maybe try") when advice
 * was asked for: the first frame becomes "you should". Undefined when anything else flagged the sentence.
 */
function directify(text: string, offset: number, spans: Span[]): string | undefined {
  if (!spans.every((e) => roleOf(e.signal) === 'hedge')) return undefined;
  const h = spans[0]!;
  const at = h.start - offset;
  const quote = text.slice(at, h.end - offset);
  if (!/\byou\b|^(?:(?:maybe|perhaps)\s+)?(?:try|consider)\b/i.test(quote)) return undefined; // "it might help to" is not advice to make direct
  let replacement: string;
  if (/\bconsider(?:ing)?$/i.test(quote)) replacement = 'you should consider';
  else if (/\btry$/i.test(quote)) replacement = 'you should try';
  else if (/\b(?:to|could|might|may|can|would)$/i.test(quote)) replacement = 'you should';
  else return undefined;
  let before = text.slice(0, at);
  if (/^\s*(?:maybe|perhaps|possibly)?[\s,]*$/i.test(before)) before = '';
  const after = text.slice(at + quote.length).replace(/^(\s+)(?:(?:maybe|perhaps|possibly|just)\s+)+/i, '$1');
  return before ? before + replacement + after : capitalise(replacement + after);
}
