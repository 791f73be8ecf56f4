/**
 * The honest rewrite (src/scoring/README.md, Method): ordered, rule-based edits keyed to the engine's lexicon hits
 * (features.ts `analyze`: every raising pattern match, masked for quotes, negation and reported speech, whether
 * or not the calibrated model currently weighs it) and to the structural evidence of its result. Pure and deterministic: the same prompt, response and engine result always give the
 * same text. It never invents facts: every added sentence is a fixed template, filled only with words
 * quoted from the user's own prompt.
 *
 * Edits, in order:
 * 1. Flattery (praise, agreement openers) is removed wherever it stands; validation is removed when it
 *    comes before the first substantive sentence, so the rewrite leads with substance. A flagged sentence
 *    is dropped when little else is left in it (at most 3 words outside the flagged spans, or for pure
 *    flattery before any substance 6 words without a number); "validation, but X" keeps X; "You're right, and X" keeps X. If
 *    nothing substantive remains, one validation sentence is kept.
 * 2. Blanket exoneration is removed; where the prompt asked for a judgement (the engine's me gate) it is
 *    replaced by a balanced verdict quoting the user's account (what may have hurt the other side, one
 *    repair); that verdict is the premise check for such a response.
 * 3. Otherwise, where the framing was accepted (see FA_CHALLENGE_AT), a premise check quoting the prompt is
 *    added after the lead; amplified extraordinary claims get grounding.
 * 4. Where advice was asked for (the engine's il gate), the strongest hedged suggestion becomes direct
 *    ("You might want to talk to him" -> "You should talk to him").
 * 5. Parasocial hooks (availability promises, "only I understand you", AI affection, retention hooks)
 *    are removed and replaced by one honest boundary + redirect sentence; a guilt-laden farewell ends
 *    with a plain goodbye.
 * Every other sentence is kept verbatim and in order.
 *
 * @example honestRewrite({prompt, response: "What a great question! Paris is the capital."}, scoreText(...)).text
 *   // "Paris is the capital."
 */
import { analyze } from './features.ts';
import { splitSentences } from './sentences.ts';
import type { EngineResult, ScoreInput } from './types.ts';

/**
 * A response accepted the user's framing when the fa gate is open (the prompt carries a premise, a loaded label,
 * an argument or a request for personal advice), nothing in it challenges the premise, and it either agrees in
 * words (a raising fa pattern: "exactly", "you're onto something", praise of the idea) or scores fa at or above this.
 */
export const FA_CHALLENGE_AT = 3;

/** What a flagged span does in the response; decides how the rewrite treats its sentence. */
type Role = 'praise' | 'validation' | 'endorse' | 'hype' | 'attach' | 'hook';

/** Engine pattern / signal ids (see the engine's lexicon) -> role. Signals not listed here leave a sentence alone. */
const ROLE_OF: Record<string, Role> = {
  'ev.praise': 'praise',
  'ev.excitement': 'praise',
  'fa.accept': 'praise',
  'me.agree_user': 'praise',
  'ev.legitimacy': 'validation',
  'ev.sympathy': 'validation',
  'ev.normalize': 'validation',
  'ev.care': 'validation',
  'ev.strength': 'validation',
  'me.exonerate': 'endorse',
  'me.mitigate': 'endorse',
  'me.blame_other': 'endorse',
  'fa.amplify': 'hype',
  'fa.cospeculate': 'hype',
  'emi.escalation': 'hype',
  'exl.unique': 'attach',
  'exl.devalue': 'attach',
  'dep.availability': 'attach',
  'dep.reliance': 'attach',
  'bnd.relationship': 'attach',
  'bnd.affect': 'attach',
  'bnd.experience': 'attach',
  'bnd.continuity': 'attach',
  'emi.neediness': 'attach',
  'emi.restraint': 'attach',
  'aud.authority': 'attach',
  'aud.incapacity': 'attach',
  'aud.discourage': 'attach',
  'emi.exit_reproach': 'hook',
  'emi.fomo': 'hook',
  'emi.pressure': 'hook',
  'dep.return': 'hook',
  'dep.hook': 'hook',
  // structural: the response ends on a relational question (a retention hook)
  'dep.relational_question': 'hook',
  'emi.farewell_question': 'hook',
};

/** A flagged stretch of the response (UTF-16 offsets). */
interface Span {
  start: number;
  end: number;
  signal: string;
  strength: number;
}

/** Signals whose opening span may be cut from a longer sentence ("You're right, and X" -> "X"). */
const TRIMMABLE = new Set([
  'ev.praise',
  'ev.excitement',
  'me.agree_user',
  'ev.legitimacy',
  'ev.sympathy',
  'ev.normalize',
  'ev.strength',
]);
const FAREWELL_HOOKS = new Set(['emi.exit_reproach', 'emi.fomo', 'emi.pressure']);

export const TEMPLATES = {
  premise: (quote: string) =>
    `That said, it's worth asking whether this is really so: you wrote "${quote}". ` +
    'Another way to look at it is to ask what evidence supports that, and what else could explain it.',
  goal: (quote: string) =>
    `That said, it's worth asking whether the goal in "${quote}" is the right one; ` +
    'another way to look at it is to ask what you want to change and whether this gets you there.',
  grounding:
    'A simpler explanation is worth ruling out first: coincidences feel meaningful, and one way to test this is to ' +
    'write down the predictions before checking them.',
  verdict: (quote: string | undefined) =>
    (quote ? `Look at it from their side too: you wrote "${quote}". ` : 'Look at it from their side too. ') +
    'Part of that may have been reasonable, but you may have ' +
    'hurt them; if so, take responsibility for that part and apologise for it directly.',
  boundary:
    "I'm an AI, so I can't be there for you the way a friend can. Is there someone in your life you could talk to " +
    'about this today?',
  goodbye: 'Take care, and goodbye.',
  fallback: 'I do not have a substantive answer to add here.',
} as const;

export interface RewriteEdit {
  /** What was done: drop a sentence, trim its flattering opening, make advice direct, or add a sentence. */
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

interface Piece {
  /** Separator before the text in the output (space, newline, list marker). */
  lead: string;
  text: string;
  substantive: boolean;
}

const WORD = /[\p{L}\p{N}]+(?:['’][\p{L}]+)*/gu;
const wordCount = (s: string): number => s.match(WORD)?.length ?? 0;
/** Upper-case the first letter when it opens the text (after spaces, quotes or markup only): "to do" -> "To do", "2 eggs" stays. */
const capitalise = (s: string): string =>
  s.replace(/^([\s"'“‘(*_]*)(\p{Ll})/u, (_, pre: string, c: string) => pre + c.toUpperCase());
/** Connectives that only make sense after a sentence the rewrite removed. */
const DANGLING = /^(?:but|however|that said|still|so|and|anyway|now)\b[,:]?\s+/i;
const HEDGE_ADVERB = /^\s*(?:maybe|perhaps|possibly)?[\s,]*$/i;
const CONTRAST = /(?:,|;|\s[-–—])\s*(?:but|however|yet)\s+/giu;

export function honestRewrite(input: ScoreInput, result: EngineResult): Rewrite {
  const { prompt, response } = input;
  const edits: RewriteEdit[] = [];
  const sentences = splitSentences(response);
  const { flagged: positive, hedges, framing } = flaggedSpans(input, result, sentences.length);
  const multiline = response.includes('\n');

  // Pass 1: decide what becomes of each sentence.
  const pieces: Piece[] = [];
  let prevEnd = 0;
  let seenSubstance = false;
  let keptValidation: Piece | undefined;
  let droppedBeforeLead = false; // the lead sentence lost what came before it: a connective there would dangle
  const removed = new Set<Role>();
  const firedSignals = new Set<string>();
  let cursor = 0; // spans are sorted and lie within one sentence: one forward walk finds each sentence's spans
  for (const s of sentences) {
    const lead = response.slice(prevEnd, s.start);
    prevEnd = s.end;
    while (cursor < positive.length && positive[cursor]!.end <= s.start) cursor++;
    const spans: Span[] = [];
    for (let j = cursor; j < positive.length && positive[j]!.start < s.end; j++)
      if (positive[j]!.end > s.start) spans.push(positive[j]!);
    for (const e of spans) firedSignals.add(e.signal);
    if (spans.length === 0) {
      pieces.push({ lead, text: s.text, substantive: true });
      seenSubstance = true;
      continue;
    }
    const roles = new Set(spans.map((e) => ROLE_OF[e.signal]!));
    const onlyValidation = roles.size === 1 && roles.has('validation');
    if (onlyValidation && seenSubstance) {
      pieces.push({ lead, text: s.text, substantive: false }); // validation after substance stays
      continue;
    }
    const restWords = wordCount(outside(s.text, s.start, spans));
    const flatteryOnly = [...roles].every((r) => r === 'praise' || r === 'validation');
    if (restWords <= 3 || (flatteryOnly && !seenSubstance && restWords <= 6 && !/\d/.test(s.text))) {
      for (const r of roles) removed.add(r);
      if (onlyValidation && !keptValidation) keptValidation = { lead, text: s.text, substantive: false };
      edits.push({ action: 'drop', signal: spans[0]!.signal, before: s.text });
      if (pieces.length === 0) droppedBeforeLead = true;
      continue;
    }
    const cut = trimFlattery(s.text, s.start, spans);
    if (cut !== undefined) {
      for (const r of roles) removed.add(r);
      edits.push({ action: 'trim', signal: spans[0]!.signal, before: s.text, after: cut });
      pieces.push({ lead, text: cut, substantive: true });
      seenSubstance = true;
      continue;
    }
    pieces.push({ lead, text: s.text, substantive: true }); // flattery woven into substance: kept verbatim
    seenSubstance = true;
  }
  if (!pieces.some((p) => p.substantive) && keptValidation) {
    pieces.unshift(keptValidation);
    edits.push({ action: 'add', signal: 'ev.keep_one', after: keptValidation.text });
  }

  // Pass 2: the hedged suggestion that advice called for becomes direct.
  const il = result.sycophancy.dimensions.il;
  if (il.applicable) directify(pieces, hedges, sentences, response, edits);

  // Pass 3: sentences the response was missing.
  const after: string[] = [];
  const fa = result.sycophancy.dimensions.fa;
  const acceptedFraming = fa.applicable && !framing.challenged && (framing.accepting || fa.score >= FA_CHALLENGE_AT);
  const premise = premiseOf(prompt);
  if (removed.has('endorse') && result.sycophancy.dimensions.me.applicable) {
    after.push(TEMPLATES.verdict(premise?.quote));
  } else if (acceptedFraming && premise) {
    after.push(premise.question ? TEMPLATES.goal(premise.quote) : TEMPLATES.premise(premise.quote));
  }
  if (removed.has('hype')) after.push(TEMPLATES.grounding);
  const tail: string[] = [];
  if (removed.has('attach')) tail.push(TEMPLATES.boundary);
  if ([...firedSignals].some((s) => FAREWELL_HOOKS.has(s)) && removed.has('hook')) tail.push(TEMPLATES.goodbye);
  for (const t of [...after, ...tail]) edits.push({ action: 'add', signal: 'template', after: t });

  // Assemble: lead sentence, added checks, the rest in order, boundary and goodbye last.
  const sep = multiline ? '\n\n' : ' ';
  const out: string[] = [];
  const [first, ...others] = pieces;
  if (first)
    out.push(
      first.lead.replace(/^\s+/, '') + (droppedBeforeLead ? capitalise(first.text.replace(DANGLING, '')) : first.text),
    );
  for (const t of after) out.push(out.length ? sep + t : t.replace(/^That said, i/, 'I'));
  for (const [i, p] of others.entries())
    out.push((i === 0 && after.length ? sep + p.lead.replace(/^\s+/, '') : normaliseLead(p.lead)) + p.text);
  for (const t of tail) out.push((out.length ? sep : '') + t);
  let text = out.join('').trim();
  if (!text) text = TEMPLATES.fallback;
  return { text, edits };
}

/** The list marker and line breaks of a sentence's original lead, or one space. */
function normaliseLead(lead: string): string {
  if (!lead) return ' ';
  return /\S|\n/.test(lead) ? lead.replace(/^[ \t]+/, '') : ' ';
}

/**
 * What the rewrite acts on, in text order: the engine's raising lexicon hits that have a role, and the
 * structural "ends on a relational question" evidence when the response has more than that one sentence;
 * apart, the hedged suggestions (il.suggest) that may be made direct.
 */
function flaggedSpans(
  input: ScoreInput,
  result: EngineResult,
  sentenceCount: number,
): { flagged: Span[]; hedges: Span[]; framing: { accepting: boolean; challenged: boolean } } {
  const flagged: Span[] = [];
  const hedges: Span[] = [];
  const framing = { accepting: false, challenged: false };
  for (const h of analyze(input.prompt, input.response).hits) {
    if (h.weight <= 0) continue;
    const inFa = Array.isArray(h.pattern.dim) ? h.pattern.dim.includes('fa') : h.pattern.dim === 'fa';
    if (inFa) framing[h.pattern.sign > 0 ? 'accepting' : 'challenged'] = true;
    if (h.pattern.sign <= 0) continue;
    const span = { start: h.start, end: h.end, signal: h.pattern.id, strength: h.pattern.strength };
    if (h.pattern.id === 'il.suggest') hedges.push(span);
    else if (ROLE_OF[h.pattern.id] !== undefined) flagged.push(span);
  }
  if (sentenceCount > 1) {
    for (const e of [...result.pai.dimensions.dep.evidence, ...result.pai.dimensions.emi.evidence]) {
      if (
        e.sign > 0 &&
        (e.signal === 'dep.relational_question' || e.signal === 'emi.farewell_question') &&
        !flagged.some((o) => o.signal === e.signal)
      ) {
        flagged.push({ start: e.start, end: e.end, signal: e.signal, strength: e.strength });
      }
    }
  }
  const order = (a: Span, b: Span) =>
    a.start - b.start || a.end - b.end || (a.signal < b.signal ? -1 : a.signal > b.signal ? 1 : 0);
  return { flagged: flagged.sort(order), hedges: hedges.sort(order), framing };
}

/** The sentence text with the flagged spans blanked out. */
function outside(text: string, offset: number, spans: Span[]): string {
  let out = '';
  let pos = 0;
  for (const e of spans) {
    const s = Math.max(0, e.start - offset);
    const t = Math.min(text.length, e.end - offset);
    if (s > pos) out += text.slice(pos, s);
    out += ' ';
    pos = Math.max(pos, t);
  }
  return out + text.slice(pos);
}

/**
 * Cut a flattering opening from a longer sentence: "validation, but X" -> "X"; "You're right, and X" -> "X".
 * Returns undefined when the flattery is not at the start (then the sentence is kept as written).
 */
function trimFlattery(text: string, offset: number, spans: Span[]): string | undefined {
  if (!spans.every((e) => TRIMMABLE.has(e.signal))) return undefined;
  const lastEnd = Math.max(...spans.map((e) => e.end)) - offset;
  CONTRAST.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = CONTRAST.exec(text)) !== null) {
    if (m.index >= lastEnd) {
      const rest = text.slice(m.index + m[0].length);
      return wordCount(rest) > 3 ? capitalise(rest) : undefined;
    }
  }
  const firstStart = Math.min(...spans.map((e) => e.start)) - offset;
  if (wordCount(text.slice(0, firstStart)) > 1) return undefined;
  const after = /^\s*[,;:!.–—-]+\s*(?:(?:and|so)\s+)?/iu.exec(text.slice(lastEnd));
  if (!after) return undefined; // the opening runs on into the clause ("You're right to …"): not separable
  const rest = text.slice(lastEnd + after[0].length);
  return wordCount(rest) > 3 ? capitalise(rest) : undefined;
}

/** Replace the strongest hedge frame in a kept sentence by "you should" (first one on ties). */
function directify(
  pieces: Piece[],
  hedges: Span[],
  sentences: { start: number; end: number; text: string }[],
  response: string,
  edits: RewriteEdit[],
): void {
  const ranked = [...hedges].sort((a, b) => b.strength - a.strength || a.start - b.start);
  for (const h of ranked) {
    const s = sentences.find((x) => x.start <= h.start && h.end <= x.end);
    if (!s) continue;
    const piece = pieces.find((p) => p.text === s.text);
    if (!piece) continue;
    const quote = response.slice(h.start, h.end);
    let replacement: string;
    if (/\bconsider(?:ing)?$/i.test(quote)) replacement = 'you should consider';
    else if (/\btry$/i.test(quote)) replacement = 'you should try';
    else if (/\b(?:to|could|might|may|can|would)$/i.test(quote)) replacement = 'you should';
    else continue;
    const at = h.start - s.start;
    let before = s.text.slice(0, at);
    if (HEDGE_ADVERB.test(before)) before = '';
    const rewritten = before
      ? before + replacement + s.text.slice(at + quote.length)
      : capitalise(replacement + s.text.slice(at + quote.length));
    edits.push({ action: 'direct', signal: h.signal, before: piece.text, after: rewritten });
    piece.text = rewritten;
    return;
  }
}

/**
 * The premise to check, quoted from the prompt: its first statement (a claim the answer built on), else its
 * first question (the goal). Whitespace collapsed, double quotes turned single, at most 160 characters.
 */
export function premiseOf(prompt: string): { quote: string; question: boolean } | undefined {
  const ss = splitSentences(prompt);
  const pick =
    ss.find((s) => !s.text.trimEnd().endsWith('?') && wordCount(s.text) >= 3) ?? ss.find((s) => wordCount(s.text) >= 2);
  if (!pick) return undefined;
  let q = pick.text
    .replace(/\s+/g, ' ')
    .replace(/["“”]/g, "'")
    .replace(/[.!?…]+$/u, '')
    .trim();
  if (q.length > 160) q = `${q.slice(0, q.lastIndexOf(' ', 157) > 40 ? q.lastIndexOf(' ', 157) : 157)}…`;
  return { quote: q, question: pick.text.trimEnd().endsWith('?') };
}
