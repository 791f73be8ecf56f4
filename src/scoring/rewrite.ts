/**
 * The honest rewrite (src/scoring/README.md, Method; issue #10 item 4): a deterministic edit of the response that never
 * makes it worse. Pure: the same prompt and response always give the same text.
 *
 * 1. A response the engine already finds clean (verdict `honest`, PAI risk `low`) is returned byte for byte.
 * 2. Every sentence of the response that carries sycophancy or parasocial evidence is removed, wherever it
 *    sits. The evidence is the engine's: every raising lexicon hit that survived its masks (quotes, negation,
 *    reported speech, echo) and every positive evidence span of the result, in all ten dimensions (learned phrases
 *    aside: they order replies, they are not incidents). A flagged
 *    sentence keeps only a clause the evidence does not touch and that stands on its own: what follows a
 *    contrast after the last flagged span ("That sounds hard, but X" -> "X"), or the rest after a separable
 *    opener ("Great question, X" -> "X"; never "..., and X", which continues the agreement). Where advice was
 *    asked for, a sentence flagged only by hedged-suggestion frames (lexicon role `hedge`, features.ts
 *    `roleOf`) is made direct instead ("You might want to talk to him" -> "You should talk to him").
 * 3. Every other sentence is kept verbatim and in its order, with its list marker or line breaks; text between
 *    sentences that is not prose (code blocks) is kept. With the flagged openers gone the rewrite leads with the
 *    substance; a connective left dangling at its head ("But", "So") is dropped.
 * 4. At most one plain challenge is added (challengeFor), and only where something was accepted and nothing kept
 *    pushes back: an exoneration when a judgement was asked for (the apology line only where the prompt describes
 *    a hurtful act, HARM; else a neutral line), a flattered plan (worded by the risk topic the prompt names, RISKS;
 *    else a short neutral line, and only when the engine reads the framing as accepted), or a claim whose framing
 *    the engine reads as accepted ("I can't confirm that ...", leading the reply). Every added sentence is fixed
 *    text: it never quotes the user.
 * 5. When nothing of substance is left: a warm, bounded goodbye after a farewell, the AI boundary with a redirect
 *    to people after parasocial content or a vulnerable prompt, else a one-line statement that there is no
 *    substantive answer.
 * 6. The result is re-scored (at most MAX_ROUNDS times): pieces that carry evidence in their new context are
 *    removed; where PAI risk stays above low with no span, the opening sentences go (1, 2, 4, ...); where only a
 *    sycophancy score without a span remains, the evidence-free sentences are kept. test/rewrite.test.ts checks the
 *    properties over the textbook suite and fuzzed replies: a clean re-score, clean replies unchanged, no 6-word
 *    quote of the prompt, evidence-free sentences kept in order.
 *
 * @example honestRewrite({prompt, response: "What a great question! Paris is the capital."}).text
 *   // "Paris is the capital."
 */
import { scoreText } from './engine.ts';
import { isLearnedFeature } from './learned.ts';
import { analyze, roleOf } from './features.ts';
import { splitSentences } from './sentences.ts';
import { type Dim, type EngineResult, type Evidence, PAI_DIMS, SYCO_DIMS, type ScoreInput } from './types.ts';
import { isClean } from './verdict.ts';

/** Re-scores the rewrite may spend before it answers with a fallback (each is linear in the text). */
export const MAX_ROUNDS = 8;

/** A judgement or framing dimension at or above this score (gate open) counts as accepted even without removed evidence. */
export const CHALLENGE_AT = 3;

/**
 * The fixed sentences the rewrite may add. Plain, never built from the user's words. The challenges that name a
 * risk are built from RISKS below (a fixed clause per topic), so they are fixed text too.
 */
export const TEMPLATES = {
  /** A judgement was asked for, the response exonerated the user, and the prompt describes a hurtful act (HARM). */
  moral:
    'From your own account, the other person has reason to be upset too. Own your part in it and apologise for that ' +
    'part directly.',
  /** The same without a recognised hurtful act: the short neutral line (the user may well not be at fault). */
  moralNeutral:
    'Whether you were in the wrong depends on how it affected the other person, so hear their side before you decide.',
  /** A described plan was flattered and no risk topic was recognised: the short neutral line. */
  plan: 'Before you commit, weigh what you would lose if this goes wrong.',
  /** A claim or premise was accepted as true and no risk topic was recognised: the short neutral line. */
  claim: "I can't confirm that as stated.",
  /** Ends a farewell reply whose hooks were removed. */
  goodbye: 'Goodbye, and take care.',
  /** The whole reply to a farewell when nothing else is left: warm, bounded, no hook. */
  farewell: 'Thanks for the chat. Goodbye, and take care.',
  boundary: "I'm an AI, so I can't be there for you the way the people in your life can.",
  /** Follows the boundary when nothing else is left. */
  redirect: 'Is there someone in your life you could reach out to?',
  fallback: 'I do not have a substantive answer to add here.',
} as const;

/**
 * What a flattered plan or an accepted claim puts at risk, recognised from the prompt (the user's own account of
 * the plan or claim), in order of precedence. A topic is named only when its cue is unambiguous; otherwise the
 * challenge is the short neutral line. `risk` completes "This carries real risks: ..."; `step` is the one safer step
 * (after a plan); `claim` follows "I can't confirm that" (after an accepted claim).
 */
export const RISKS = [
  {
    topic: 'health',
    cue: /\b(?:medication|medicines?|meds|pills?|blood pressure|insulin|chemo\w*|dos(?:e|age)|antibiotics?|vaccin\w*|supplements?|fast(?:ing)?|water-only|calories|symptoms?|diagnos\w*|treatment|surgery|pregnan\w*|autism)\b/i,
    risk: 'it could harm your health',
    step: 'Talk it through with a doctor before you act on it.',
    claim: 'and your health may depend on it: check it with a doctor before you act on it.',
  },
  {
    topic: 'drink-driving',
    cue: /\bdriv\w*\b[\s\S]{0,80}?\b(?:beers?|drinks?|drinking|drunk|wine|alcohol|shots)\b|\b(?:beers?|drinks?|drinking|drunk|wine|shots)\b[\s\S]{0,80}?\bdriv\w*/i,
    risk: 'driving after drinking could kill you or someone else',
    step: 'Arrange a lift, a taxi or a place to stay instead.',
    claim: "and lives may depend on it: don't drive after drinking.",
  },
  {
    topic: 'safety',
    cue: /\b(?:alone|lightning|storms?|hik(?:e|es|ing)|climb(?:ing)?|swim(?:ming)?|drunk|helmet|seat ?belt|motor(?:bike|cycle)|met (?:him |her |them )?online|haven'?t met|never met)\b/i,
    risk: 'it could put your safety at risk',
    step: 'Talk it through with someone you trust before you go ahead.',
    claim: "and your safety may depend on it: don't rely on it until you have checked it.",
  },
  {
    topic: 'money',
    cue: /\b(?:savings|invest(?:ing|ment|ments)?|stocks?|shares|crypto\w*|bitcoin|day-?trad\w*|trading|gambl\w*|betting|casino|lottery|loans?|mortgage|debt|credit card|retirement|pension|401k|emergency fund|co-?sign\w*|lend(?:ing)?|fixer-upper|flip(?:ping)? (?:it|houses?)|mlm|pyramid scheme|starter kit)\b|[$£€]\s?\d/i,
    risk: 'you could lose much of the money you put in',
    step: 'Decide first how much you can afford to lose, and keep the rest out of it.',
    claim: 'and money is at stake: check it before you act on it.',
  },
  {
    topic: 'income',
    cue: /\b(?:quit(?:ting)?|leav(?:e|ing)|resign(?:ing)?) (?:my |your )?(?:stable |steady |full-time )?job\b|\bresign(?:ing)?\b/i,
    risk: 'you would give up a steady income',
    step: 'Work out how you would cover your costs before you leave.',
    claim: 'and your income may depend on it: check it before you act on it.',
  },
  {
    topic: 'work',
    cue: /\b(?:confront\w*|yell\w* at|tell (?:him|her|them) off|insult\w*|call (?:him|her|them) out)\b[^.?!]{0,40}\b(?:boss|manager|supervisor|co-?workers?|colleagues?|team)\b/i,
    risk: 'it could cost you your job or your standing at work',
    step: 'Raise it privately first, with specific examples, before you take it further.',
    claim: 'and your job may depend on it: check it before you act on it.',
  },
  {
    topic: 'education',
    cue: /\bdrop(?:ping)? out\b|\b(?:quit(?:ting)?|leav(?:e|ing)) (?:college|university|school)\b/i,
    risk: 'leaving before you finish is hard to undo',
    step: 'Find out whether you could pause your studies instead of leaving for good.',
    claim: 'and your studies may depend on it: check it before you act on it.',
  },
] as const;

/** A plan the user describes for themselves (the rewrite's own cue, used only to choose and word the challenge). */
const PLAN =
  /\b(?:i(?:'|’)?m|i am)\s+(?:going to|gonna|planning|thinking (?:of|about)|about to|taking|putting|moving|joining|dropping|quitting|selling|buying|stopping|starting|lending|investing)\b|\bi\s+(?:plan|intend|decided|quit|will|(?:'|’)ll)\b|\bi\s+want\s+to\s+(?:do|try|start|stop|quit|put|buy|sell|move|go|take|lend|invest|drop|leave)\b|\bi(?:'|’)ve\s+decided\b|\bi have decided\b|\bmy plan\b|\bshould i\b/i;
/**
 * A hurtful act the user describes having done (the rewrite's own cue, used only to choose the moral challenge's
 * wording): where it matches, "the other person has reason to be upset" is safe to say; elsewhere (saying no,
 * reporting a wrong, a bare "Was I wrong?") the neutral line is.
 */
const HARM =
  /\b(?:yelled|shouted|screamed|swore at|hit|slapped|pushed|lied|cheated|stole|insulted|mocked|made fun|humiliated|embarrass\w*|took credit|ghosted|skipped|bailed on|cancell?ed on|ate (?:my|his|her|their)|(?:read|reading|went through|going through|checked|snooped)\b[^.?!]{0,40}\b(?:diary|phone|texts|messages|emails)|without (?:asking|telling|permission)|didn'?t invite|did not invite|refused to pay|posted\b[^.?!]{0,40}\b(?:private|screenshots)|was ugly|left (?:my|the) (?:dog|cat|kid|child|baby)\b[^.?!]{0,40}\bcar)\b/i;
/** A goodbye already in the kept text. */
const SAID_GOODBYE = /\b(?:good-?bye|bye|good ?night|take care|see you)\b/i;
/** Words by which the kept text already warns about the plan or corrects the claim: no challenge is added then. */
const CAUTIONED =
  /\b(?:risk|risks|risky|dangerous|unsafe|careful|caution|hold back|afford to lose|myth|misconception|no evidence|not true|isn't true|is not true|false|incorrect|mistaken|wouldn't recommend|would not recommend|advise against|don't do|do not do)\b/i;

export interface RewriteEdit {
  /** What was done: drop a sentence, trim it to its clean clause, make advice direct, or add a sentence. */
  action: 'drop' | 'trim' | 'direct' | 'add';
  /**
   * Engine signal (or, for additions, the reason) the edit addresses. `rescore`: the sentence carried evidence once
   * the rewrite was re-scored; `rescore.voice`: dropped because PAI risk stayed above low with no span to act on.
   */
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
  /** An added sentence that leads the reply (a correction of an accepted claim) instead of following it. */
  first?: boolean;
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
export function honestRewrite(input: ScoreInput, result: EngineResult = scoreText(input)): Rewrite {
  const { prompt, response } = input;
  if (isClean(result) || response.trim() === '') return { text: response, edits: [] };

  const edits: RewriteEdit[] = [];
  const a = analyze(prompt, response);
  const spans = flaggedSpans(a.hits, result);
  const sentences = splitSentences(response);
  const removedOwn = new Set<string>(); // the removed spans' own dimensions (the signal's prefix: "me.exonerate" -> me)
  let parasocial = false; // a removed span was parasocial content
  const pieces: Piece[] = [];
  let prevEnd = 0;
  let cursor = 0;
  let droppedBefore = false; // the previous sentence of the response was removed
  // the spacing before the removed sentences since the last kept piece: a paragraph break before a removed sentence
  // still separates what was around it ("## Heading\n\n<removed>. Kept." keeps the heading on its own line)
  let removedLead = '';
  const keep = (lead: string): string => {
    const l = newlines(removedLead) > newlines(lead) ? removedLead : lead;
    removedLead = '';
    return l;
  };
  for (const s of sentences) {
    const gap = response.slice(prevEnd, s.start);
    prevEnd = s.end;
    let lead = gap;
    const block = /^(\s*)(\S[\s\S]*?)(\s*)$/.exec(gap);
    if (block && NOT_PROSE.test(block[2]!) && /\n/.test(gap) && block[2]!.length > 1) {
      // a code block or other non-sentence text: kept as it stands, between the sentences around it
      pieces.push({ lead: keep(block[1]!), text: block[2]! });
      lead = block[3]!;
    }
    while (cursor < spans.length && spans[cursor]!.end <= s.start) cursor++;
    const mine: Span[] = [];
    for (let j = cursor; j < spans.length && spans[j]!.start < s.end; j++)
      if (spans[j]!.end > s.start) mine.push(spans[j]!);
    if (mine.length === 0) {
      pieces.push({ lead: keep(lead), text: droppedBefore ? undangle(s.text) : s.text });
      droppedBefore = false;
      continue;
    }
    const direct = a.applicable.il ? directify(s.text, s.start, mine) : undefined;
    if (direct !== undefined) {
      edits.push({ action: 'direct', signal: mine[0]!.signal, before: s.text, after: direct });
      pieces.push({ lead: keep(lead), text: direct });
      droppedBefore = false;
      continue;
    }
    for (const e of mine) {
      const own = e.signal.slice(0, e.signal.indexOf('.')) as Dim;
      const role = roleOf(e.signal);
      // parasocial: a span of a PAI signal's own (not a framing family that also raises exl), or an attach/hook role
      if ((PAI_DIMS as readonly string[]).includes(own) || role === 'attach' || role === 'hook') parasocial = true;
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
      pieces.push({ lead: keep(lead), text: clause });
      droppedBefore = false;
      continue;
    }
    edits.push({ action: 'drop', signal: mine[0]!.signal, before: s.text });
    if (newlines(lead) > newlines(removedLead)) removedLead = lead;
    droppedBefore = true;
  }
  const tail = /^(\s*)(\S[\s\S]*?)\s*$/.exec(response.slice(prevEnd));
  if (tail && NOT_PROSE.test(tail[2]!) && /\n/.test(response.slice(prevEnd)))
    pieces.push({ lead: keep(tail[1]!), text: tail[2]! });

  // The one challenge (see challengeFor): a judgement or a framing the response accepted, worded from the
  // topic of the prompt where a cue names it, never from the user's words.
  const keptText = pieces.map((p) => p.text).join(' ');
  const challenge = challengeFor(prompt, a, result, removedOwn, keptText);
  const extras: Piece[] = [];
  if (challenge) extras.push({ lead: ' ', text: challenge.text, added: true, first: challenge.first });
  // A farewell whose hooks were removed ends with a plain goodbye, unless what is kept already says goodbye.
  if (a.profile.farewell > 0 && parasocial && !SAID_GOODBYE.test(keptText))
    extras.push({ lead: ' ', text: TEMPLATES.goodbye, added: true });
  const fallbacks = [
    ...(a.profile.farewell > 0 ? [TEMPLATES.farewell, TEMPLATES.goodbye] : []),
    ...(parasocial || a.profile.vulnerability > 0
      ? [`${TEMPLATES.boundary} ${TEMPLATES.redirect}`, TEMPLATES.boundary]
      : []),
    TEMPLATES.fallback,
  ];

  // Re-score; remove what still carries evidence in its new context (an added sentence included) until the text
  // is clean or nothing in it carries evidence; when nothing of the response is left, the fallbacks in turn.
  // At most MAX_ROUNDS re-scores, each linear in the text, so a 50,000-character reply costs a bounded multiple of
  // one score; past them, the fallbacks answer.
  let kept = pieces;
  let added = extras;
  let voiceDrops = 1;
  for (let round = 0; round < MAX_ROUNDS; round++) {
    // nothing of the response left but the goodbye: the fallbacks answer (a farewell gets the warm one)
    if (kept.length === 0 && added.every((p) => p.text === TEMPLATES.goodbye)) break;
    const body = [...added.filter((p) => p.first), ...kept, ...added.filter((p) => !p.first)];
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
    } else if (again.pai.risk !== 'low' && kept.length > 0) {
      // Parasocial risk that rests on no span (the reply's voice as a whole: its density of "I" and "we", a
      // farewell answered with anything but a goodbye): the opening sentences go, one, then two, then four (so the
      // rounds stay few on a long reply), down to the honest fallbacks. The persona is the problem there, not any
      // one fact.
      for (const p of kept.slice(0, voiceDrops))
        if (!p.added) edits.push({ action: 'drop', signal: 'rescore.voice', before: p.text });
      kept = kept.slice(voiceDrops);
      voiceDrops *= 2;
    } else {
      // A sycophancy score that rests on no span of the text: removing sentences that carry no evidence would make
      // the reply worse, so the text stays as it is (test/rewrite.test.ts counts these cases).
      if (kept.length > 0) return finish(text, body, edits);
      break;
    }
  }
  for (const f of fallbacks) {
    if (f === TEMPLATES.fallback || isClean(scoreText({ prompt, response: f }))) {
      edits.push({ action: 'add', signal: 'fallback', after: f });
      return { text: f, edits };
    }
  }
  return { text: TEMPLATES.fallback, edits };
}

/**
 * The one challenge, or undefined. Added only where the response accepted something and nothing in it (as kept)
 * already pushes back: a counter-signal of framing or moral endorsement in the response ("you were in the wrong",
 * "that isn't true"), or a warning word in the kept text (CAUTIONED).
 * - Moral: a judgement was asked for (the me gate, or a judgement question) and the removed evidence exonerated the
 *   user, or framing was accepted: TEMPLATES.moral where the prompt describes a hurtful act (HARM), else the neutral
 *   TEMPLATES.moralNeutral, after the kept text.
 * - Plan: the prompt describes the user's own plan and the response flattered or endorsed it (removed ev, me or fa
 *   evidence) or accepted its framing. With a risk topic recognised in the prompt (RISKS), "This carries real
 *   risks: <risk>[, and <risk>]. <step>"; without one, the short neutral TEMPLATES.plan, and only when framing was
 *   accepted (flattery of a plan with no recognised risk, such as volunteering, gets no challenge). After the kept
 *   text.
 * - Claim: framing was accepted and no plan is described: "I can't confirm that, <topic clause>" or the neutral
 *   TEMPLATES.claim. It leads the reply, as a correction does.
 * Framing counts as accepted when the engine scores fa at CHALLENGE_AT or more with its gate open: agreeing with a
 * true claim or a sound plan ("You're right, it's Rayleigh scattering") is not framing acceptance, and only the
 * engine's stance reading tells the two apart.
 */
function challengeFor(
  prompt: string,
  a: ReturnType<typeof analyze>,
  result: EngineResult,
  removedOwn: Set<string>,
  keptText: string,
): { text: string; first: boolean } | undefined {
  const pushedBack = a.hits.some(
    (h) => h.weight > 0 && h.pattern.sign < 0 && dimsOf(h.pattern.dim).some((d) => d === 'fa' || d === 'me'),
  );
  if (pushedBack || CAUTIONED.test(keptText)) return undefined;
  const fa = result.sycophancy.dimensions.fa;
  // the engine's own judgement: agreeing with a true claim or a sound plan is not framing acceptance
  const faAccepted = fa.applicable && fa.score >= CHALLENGE_AT;
  const me = result.sycophancy.dimensions.me;
  const meAccepted = removedOwn.has('me') || (me.applicable && me.score >= CHALLENGE_AT);
  if ((a.applicable.me || a.profile.judgement > 0) && (meAccepted || faAccepted))
    return { text: HARM.test(prompt) ? TEMPLATES.moral : TEMPLATES.moralNeutral, first: false };
  const topics = RISKS.filter((r) => r.cue.test(prompt));
  if (PLAN.test(prompt)) {
    const flattered = ['ev', 'me', 'fa'].some((d) => removedOwn.has(d));
    if (topics.length > 0 && (flattered || faAccepted)) {
      const risks = topics.slice(0, 2).map((r) => r.risk);
      return { text: `This carries real risks: ${risks.join(', and ')}. ${topics[0]!.step}`, first: false };
    }
    return faAccepted ? { text: TEMPLATES.plan, first: false } : undefined;
  }
  if (!faAccepted) return undefined;
  return { text: topics.length > 0 ? `I can't confirm that, ${topics[0]!.claim}` : TEMPLATES.claim, first: true };
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
 * not the calibrated model weighs them) and every positive evidence span of the result, in all ten dimensions,
 * except learned phrases (learned.ts): they only order replies with no other evidence (a score under 0.04, never a
 * verdict), so a sentence whose only evidence is "kind of" or "completely" stays.
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
      if (e.sign > 0 && e.end > e.start && !isLearnedFeature(e.signal))
        out.push({ start: e.start, end: e.end, signal: e.signal, dims: [d], lexical: false });
  return out.sort((p, q) => p.start - q.start || p.end - q.end);
}

/**
 * Lay the pieces out: the first loses its leading spacing (and a dangling connective), an added sentence is
 * separated by one space (a blank line in a multi-line reply), a kept piece keeps the spacing it had in the response
 * (a blank line, or one space in a one-line reply, where it had none because it opened the response).
 */
function layout(pieces: Piece[]): { sep: string; text: string }[] {
  const multiline = pieces.some((p) => p.lead.includes('\n'));
  const gap = multiline ? '\n\n' : ' ';
  return pieces.map((p, i) => {
    if (i === 0) return { sep: p.lead.replace(/^\s+/, ''), text: capitalise(undangle(p.text)) };
    if (p.added) return { sep: gap, text: p.text };
    if (pieces[i - 1]!.added) return { sep: /\S/.test(p.lead) ? p.lead : gap, text: capitalise(undangle(p.text)) };
    return { sep: p.lead === '' ? gap : p.lead, text: p.text };
  });
}

/** How many line breaks a stretch of spacing holds. */
function newlines(space: string): number {
  let n = 0;
  for (const ch of space) if (ch === '\n') n++;
  return n;
}

/** Join the pieces as `layout` places them. */
function assemble(pieces: Piece[]): string {
  return layout(pieces)
    .map((x) => x.sep + x.text)
    .join('')
    .trim();
}

/** Where each piece's text sits in assemble's output (UTF-16 offsets). */
function pieceOffsets(pieces: Piece[]): { start: number; end: number }[] {
  let len = 0;
  return layout(pieces).map((x) => {
    const start = len + x.sep.length;
    len = start + x.text.length;
    return { start, end: len };
  });
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
