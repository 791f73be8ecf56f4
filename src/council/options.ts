/**
 * The options a question offers, tried in this order:
 * 1. lettered: "A) … B) … C) …", "(A) …", "A: … / B: …", "A. …" (letters in order from A);
 * 2. numbered: "1. … 2. …" or "1) … 2) …" (numbers in order from 1), lettered A, B, C;
 * 3. "X or Y?" (also "X, Y or Z?") in the last question sentence; a lead-in such as "Should I", "whether to" or
 *    "Which is better:" is cut from the first option;
 * 4. a yes/no question ("Should I …?", "Is it …?", or a tag such as "…, right?"): A is Yes, B is No.
 * At most 3 options; an option must contain a letter or digit. Anything else is an error saying how to write them.
 */
import { splitSentences } from '../scoring/sentences.ts';

export const LETTERS = ['A', 'B', 'C'] as const;
export type Letter = (typeof LETTERS)[number];
export const MAX_OPTIONS = 3;

export type OptionFormat = 'lettered' | 'numbered' | 'or' | 'yes-no';

export interface ParsedOptions {
  format: OptionFormat;
  options: { letter: Letter; text: string }[];
  /** The question with the option texts cut out (lettered, numbered), for leanings and context. */
  rest: string;
  /** Yes/no questions: what Yes would do, e.g. "quit my job". */
  proposition?: string;
}

export const HOW_TO_WRITE =
  'Write the options in the question as "A) … B) … C) …", "A: … / B: …", "1. … 2. …", "X or Y?", or ask a yes/no question ("Should I …?").';

export type ParseResult = { ok: true; value: ParsedOptions } | { ok: false; error: string };

/** Marker scanners: `letter` gives the option's 0-based position from the match, or -1. */
const LETTER_MARK = /(?<![\p{L}\p{N}])(?:\(([A-Da-d])\)|([A-D])[):.]|([a-d])\))(?=\s)/gu;
const NUMBER_MARK = /(?<![\p{L}\p{N}.,])([1-9])[.)](?=\s)/gu;

function findMarkers(
  q: string,
  re: RegExp,
  index: (m: RegExpExecArray) => number,
): { pos: number; end: number }[] | 'too-many' | null {
  const found: { pos: number; end: number }[] = [];
  for (const m of q.matchAll(re)) {
    const i = index(m as RegExpExecArray);
    if (i !== found.length) continue;
    if (i === MAX_OPTIONS) return 'too-many';
    found.push({ pos: m.index!, end: m.index! + m[0].length });
  }
  return found.length >= 2 ? found : null;
}

/** An option's text without trailing separators (" /", ",", ";", " or", "?"). */
function cleanOption(s: string): string {
  let t = s.trim();
  for (let prev = ''; prev !== t; ) {
    prev = t;
    t = t.replace(/(?:[\s,;/?!.]+|\s+(?:or|and))$/iu, '').trim();
  }
  return t;
}

const HAS_WORD = /[\p{L}\p{N}]/u;

function fromMarkers(q: string, marks: { pos: number; end: number }[], format: OptionFormat): ParseResult {
  const options: ParsedOptions['options'] = [];
  let rest = q.slice(0, marks[0]!.pos);
  for (let i = 0; i < marks.length; i++) {
    const from = marks[i]!.end;
    let to = marks[i + 1]?.pos ?? q.length;
    if (i === marks.length - 1) {
      // The last option ends at its line's end or its question mark; what follows is context.
      const stop = q.slice(from).search(/[?\n]|[.!](?=\s+\p{Lu})/u);
      if (stop >= 0) to = from + stop;
      rest += ` ${q.slice(to)}`;
    }
    const text = cleanOption(q.slice(from, to));
    if (!HAS_WORD.test(text)) return { ok: false, error: `Option ${LETTERS[i]} is empty. ${HOW_TO_WRITE}` };
    options.push({ letter: LETTERS[i]!, text });
  }
  return { ok: true, value: { format, options, rest: rest.trim() } };
}

const LEAD_INS: RegExp[] = [
  /^.*?\bwhether\s+(?:(?:i|we)\s+should\s+)?(?:to\s+)?/iu,
  /^.*:\s*/u,
  /^(?:so|ok|okay|well|honestly|basically|quick question)[,:]?\s+/iu,
  /^(?:is|would)\s+it\s+be\s+(?:better|wiser|smarter|best)\s+to\s+/iu,
  /^(?:is\s+it|it's)\s+(?:better|wiser|smarter|best)\s+to\s+/iu,
  /^(?:should|shall|do|can|could|would|must|will)\s+(?:i|we|you|they|my\s+\w+|our\s+\w+|the\s+\w+)\s+/iu,
  /^(?:which|what)\b.*?\b(?:better|best|prefer|choose|pick|go\s+with|do|use|take)\b[,:]?\s*/iu,
];

function cutLeadIn(s: string): string {
  let t = s.trim();
  for (const re of LEAD_INS) t = t.replace(re, '');
  return t;
}

const CLAUSE_START = /^(?:which|who|that|because|since|but|and|so|as|if|when|while)\b/iu;
const YES_NO_START =
  /^(?:should|shall|do|does|did|can|could|would|will|is|are|am|was|were|must|may|might|have|has)\b/iu;
const TAG_QUESTION =
  /,?\s*(?:right|correct|yes|no|isn't it|aren't they|isn't that so|don't you think|don't you agree|wouldn't you agree|agreed|ok|okay)\s*\?+$/iu;

function questionSentences(q: string): string[] {
  return splitSentences(q)
    .map((s) => s.text.trim())
    .filter((t) => t.endsWith('?'));
}

function orOptions(q: string): ParseResult | null {
  const sentence = questionSentences(q)
    .reverse()
    .find((t) => /\s+or\s+/iu.test(t) && !/\bor\s+not\s*\?$/iu.test(t));
  if (!sentence) return null;
  const body = sentence.replace(TAG_QUESTION, '?').replace(/\?+$/u, '');
  let parts = body.split(/\s+or\s+/iu).map((p) => p.trim());
  // "X, Y or Z" is a list when every item after the first is short and not a clause ("…, which pays more, or …").
  const items = parts[0]!.split(/\s*,\s*/u).filter((p) => p.length > 0);
  const isList = items.length >= 2 && items.slice(1).every((p) => p.split(/\s+/u).length <= 4 && !CLAUSE_START.test(p));
  if (parts.length === 2 && isList) parts = [...items, parts[1]!];
  parts = parts.map((p) => p.replace(/,$/u, '').trim()).filter((p) => p.length > 0);
  // "Which is better, React or Vue?": the first comma part is the stem, not an option.
  if (parts.length > 2 && isList && /^(?:which|what|who|where|how)\b/iu.test(parts[0]!) && !/:/u.test(sentence))
    parts = parts.slice(1);
  if (parts.length < 2) return null;
  if (parts.length > MAX_OPTIONS)
    return {
      ok: false,
      error: `The question offers ${parts.length} options; the council weighs at most ${MAX_OPTIONS}. ${HOW_TO_WRITE}`,
    };
  parts[0] = cutLeadIn(parts[0]!);
  const options = parts.map((p, i) => ({ letter: LETTERS[i]!, text: cleanOption(p) }));
  const empty = options.find((o) => !HAS_WORD.test(o.text));
  if (empty) return { ok: false, error: `Option ${empty.letter} is empty. ${HOW_TO_WRITE}` };
  return { ok: true, value: { format: 'or', options, rest: q.replace(sentence, ' ').trim() } };
}

function yesNo(q: string): ParseResult | null {
  const sentence = questionSentences(q)
    .reverse()
    .find((t) => YES_NO_START.test(t) || TAG_QUESTION.test(t));
  if (!sentence) return null;
  const proposition = cleanOption(
    cutLeadIn(
      sentence
        .replace(TAG_QUESTION, '')
        .replace(/\s*,?\s*or\s+not\s*\?*$/iu, '')
        .replace(/\?+$/u, ''),
    ),
  );
  if (!HAS_WORD.test(proposition)) return null;
  return {
    ok: true,
    value: {
      format: 'yes-no',
      options: [
        { letter: 'A', text: 'Yes' },
        { letter: 'B', text: 'No' },
      ],
      rest: q.replace(sentence, ' ').trim(),
      proposition,
    },
  };
}

/** Parse the options of `question`; an error result's message says how to write them. */
export function parseOptions(question: string): ParseResult {
  const q = question.trim();
  for (const [re, index, format] of [
    [LETTER_MARK, (m: RegExpExecArray) => 'ABCD'.indexOf((m[1] ?? m[2] ?? m[3] ?? '').toUpperCase()), 'lettered'],
    [NUMBER_MARK, (m: RegExpExecArray) => Number(m[1]) - 1, 'numbered'],
  ] as const) {
    const marks = findMarkers(q, re, index);
    if (marks === 'too-many')
      return {
        ok: false,
        error: `The question lists more than ${MAX_OPTIONS} options; the council weighs at most ${MAX_OPTIONS} (A, B, C). ${HOW_TO_WRITE}`,
      };
    if (marks) return fromMarkers(q, marks, format);
  }
  return orOptions(q) ?? yesNo(q) ?? { ok: false, error: `No options found in the question. ${HOW_TO_WRITE}` };
}
