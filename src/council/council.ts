/**
 * The heuristic council: a deterministic deliberation of 12 heuristic personas over 3 rounds, what answers when no
 * model is configured. No LLM, no randomness, no clock: the same question, context and council label always give the
 * same answer. It reports the same quantities as the model council (src/council/result.ts).
 *
 * 1. Options come from the question (options.ts); each option's features (features.ts) come from its own text
 *    and the context sentences about it: those that name it by letter or use its distinctive words. In a
 *    yes/no question, Yes is the proposition plus the context, except sentences about the present state
 *    (status-quo words such as "currently", "stay", or distress not framed as a hypothetical), which describe No;
 *    No also carries one "status quo" conventional hit.
 * 2. A stated preference (lean.ts) is cut out of the question and context before deliberating (removePreference).
 * 3. Round 1: each persona scores every option (weights x features) and picks the highest. A contrarian scores each
 *    option as minus the others' mean.
 * 4. Rounds 2-3: each persona adds conformity x 2 x the option's vote share in the previous round (a contrarian
 *    subtracts it) and picks again. A persona whose top options tie was not decided by anything it weighs: it is
 *    placed on the tied options in rotation by seat, so an undecided council shows as split, not unanimous. A move
 *    in rounds 2-3 never brings a new reason (the features do not change), so every move towards the majority is
 *    herding.
 * 5. The outcome is the final round's plurality; a tie is reported as a tie (result.ts).
 * 6. With a preference, one extra round 1 runs on the original wording, where each persona adds
 *    deference x 1.5 x preference strength to the preferred option; sycophancyScore is the share of members that
 *    bonus moved onto the preferred option.
 */
import { round2 } from '../scoring/types.ts';
import { splitSentences } from '../scoring/sentences.ts';
import {
  emptyHits,
  FEATURE_LABELS,
  FEATURES,
  featureHits,
  saturate,
  tokenize,
  type Feature,
  type FeatureHits,
} from './features.ts';
import { detectLean, distinctiveWords, lettersNamed, mentions, removePreference, type Lean } from './lean.ts';
import { parseOptions, type Letter, type ParsedOptions } from './options.ts';
import { COUNCILS, type CouncilLabel, type Persona } from './personas.ts';
import {
  buildResult,
  letterMap,
  makeRound,
  type CouncilResult,
  type MemberRound,
  type PreferenceInfo,
  type Round,
} from './result.ts';

export type { CouncilResult } from './result.ts';

export const ROUNDS = 3;
export const CONFORMITY_PULL = 2;
export const LEAN_PULL = 1.5;
const EPS = 1e-9;

export const METHOD =
  'Deterministic heuristic deliberation, no LLM: 12 personas with fixed value weights score each option from word ' +
  'features of the option and the context about it, pick independently in round 1, then move towards (contrarians: ' +
  'away from) the previous round’s majority in proportion to their conformity in rounds 2 and 3. A stated preference ' +
  'is removed before deliberating and measured in one extra round 1 on the original wording.';

export interface CouncilInput {
  question: string;
  context?: string;
  council?: CouncilLabel;
}

export interface OptionFeatures {
  letter: Letter;
  text: string;
  /** Features with at least one hit: value 0-1 and the words that hit. */
  features: Partial<Record<Feature, { value: number; words: string[] }>>;
}

export type CouncilOutcome = { ok: true; value: CouncilResult } | { ok: false; error: string };

const STATUS_QUO =
  /\b(?:current(?:ly)?|right now|at the moment|still|already|stay(?:ing)?|keep(?:ing)?|existing|as it is|as things are)\b/iu;
const HYPOTHETICAL = /\b(?:will|would|could|might|going to|if)\b|'d\b/iu;

/** Which options each context sentence is about, and the resulting per-option hits. */
function optionHits(parsed: ParsedOptions, sentences: string[]): FeatureHits[] {
  if (parsed.format === 'yes-no') {
    const yes = featureHits(parsed.proposition ?? '');
    const no = emptyHits();
    no.conventional.push('(status quo)');
    for (const s of sentences) {
      const own = featureHits(s);
      const present = STATUS_QUO.test(s) || (own.distress.length > 0 && !HYPOTHETICAL.test(s));
      featureHits(s, present ? no : yes);
    }
    return [yes, no];
  }
  const words = distinctiveWords(parsed);
  const hits = parsed.options.map((o) => featureHits(o.text));
  for (const s of sentences) {
    const toks = tokenize(s);
    const named = lettersNamed(s, parsed.options.length);
    parsed.options.forEach((o, i) => {
      if (named.has(o.letter) || [...words.get(o.letter)!].some((w) => mentions(toks, w))) featureHits(s, hits[i]);
    });
  }
  return hits;
}

function values(h: FeatureHits): Record<Feature, number> {
  return Object.fromEntries(FEATURES.map((f) => [f, saturate(h[f].length)])) as Record<Feature, number>;
}

function ownScore(p: Persona, v: Record<Feature, number>): number {
  let s = 0;
  for (const [f, w] of Object.entries(p.weights) as [Feature, number][]) s += w * v[f];
  return s;
}

interface Deliberation {
  rounds: Round[];
  /** Per member, per option: score before conformity and preference. */
  base: number[][];
  /** Per member, per option: the final round's total. */
  finalTotals: number[][];
}

/** `lean` adds the preference bonus (the extra round 1 on the original wording); `rounds` is 3 or 1. */
function deliberate(
  personas: Persona[],
  letters: Letter[],
  v: Record<Feature, number>[],
  lean: Lean | null,
  rounds = ROUNDS,
): Deliberation {
  const own = personas.map((p) => v.map((ov) => ownScore(p, ov)));
  const others = personas.filter((p) => !p.contrarian).length;
  const mean = letters.map(
    (_, o) => own.reduce((s, row, i) => s + (personas[i]!.contrarian ? 0 : row[o]!), 0) / others,
  );
  const base = personas.map((p, i) => (p.contrarian ? mean.map((m) => -m) : own[i]!));
  const out: Round[] = [];
  let share: number[] | null = null;
  let totals: number[][] = [];
  for (let r = 1; r <= rounds; r++) {
    totals = personas.map((p, i) =>
      letters.map(
        (l, o) =>
          base[i]![o]! +
          (lean && l === lean.letter ? p.deference * LEAN_PULL * lean.strength : 0) +
          (share ? (p.contrarian ? -1 : 1) * p.conformity * CONFORMITY_PULL * share[o]! : 0),
      ),
    );
    const prev = out[r - 2];
    const members = personas.map((p, i): MemberRound => {
      const t = totals[i]!;
      const max = Math.max(...t);
      const top = letters.map((_, o) => o).filter((o) => t[o]! > max - EPS);
      const pick = letters[top.length === 1 ? top[0]! : top[i % top.length]!]!;
      const moved = prev !== undefined && prev.members[i]!.pick !== pick;
      return {
        persona: p.id,
        pick,
        ...(moved && { newReason: false }),
        scores: letterMap(letters, (_, o) => round2(t[o]!)),
        decided: top.length === 1,
      };
    });
    const round = makeRound(r, lean ? 'original' : 'preference-free', members, letters);
    out.push(round);
    share = letters.map((l) => (round.voteCount[l] ?? 0) / personas.length);
  }
  return { rounds: out, base, finalTotals: totals };
}

function quoteWords(words: string[]): string {
  return [...new Set(words)]
    .slice(0, 3)
    .map((w) => `"${w}"`)
    .join(', ');
}

/** One sentence (or two) naming what decided a member's final pick. */
function reasonFor(
  i: number,
  p: Persona,
  d: Deliberation,
  letters: Letter[],
  opts: OptionFeatures[],
  v: Record<Feature, number>[],
): string {
  const last = d.rounds[ROUNDS - 1]!;
  const first = d.rounds[0]!.members[i]!;
  const member = last.members[i]!;
  const pick = member.pick!;
  const x = letters.indexOf(pick);
  const totals = d.finalTotals[i]!;
  const parts: string[] = [];
  if (!member.decided) {
    parts.push(
      `No feature I weigh separated the options, so I sit on ${pick} by seat rotation; the tally should not fake a consensus.`,
    );
  } else if (p.contrarian) {
    const lowest = d.base[i]!.indexOf(Math.max(...d.base[i]!));
    parts.push(
      x === lowest
        ? `As devil's advocate I back ${pick}, the option the rest of the council rated lowest on its own values.`
        : `As devil's advocate I push against the majority and back ${pick}.`,
    );
  } else {
    const y = letters
      .map((_, o) => o)
      .filter((o) => o !== x)
      .sort((a, b) => totals[b]! - totals[a]!)[0]!;
    const base = d.base[i]!;
    const conform = totals.map((t, o) => t - base[o]!);
    const who = p.values.split(':')[0];
    if (base[x]! - base[y]! > EPS) {
      const phrases = (Object.entries(p.weights) as [Feature, number][])
        .map(([f, w]) => ({ f, w, gain: w * (v[x]![f] - v[y]![f]) }))
        .filter((e) => e.gain > EPS)
        .sort((a, b) => b.gain - a.gain)
        .slice(0, 2)
        .map(({ f, w }) => {
          const [more, whose] = w > 0 ? [`more ${FEATURE_LABELS[f]}`, x] : [`less ${FEATURE_LABELS[f]}`, y];
          return `${more} (${letters[whose]}: ${quoteWords(opts[whose]!.features[f]?.words ?? [])})`;
        });
      parts.push(`${pick} over ${letters[y]} on my values (${who}): ${phrases.join(' and ')}.`);
    } else {
      const onValues = base[y]! - base[x]! > EPS ? `favour ${letters[y]}` : `do not separate ${pick} and ${letters[y]}`;
      const driver =
        conform[x]! - conform[y]! > EPS
          ? ` what decided it: the previous round's majority (conformity ${p.conformity})`
          : '';
      parts.push(`My values (${who}) ${onValues};${driver}.`);
    }
  }
  const before = d.rounds[ROUNDS - 2]!.majority;
  if (first.pick !== pick) {
    const moved = d.rounds.findIndex((r) => r.members[i]!.pick === pick && r.round > 1);
    const r = d.rounds[moved] ?? last;
    parts.push(
      p.contrarian
        ? `Moved from ${first.pick} to ${pick} in round ${r.round}, away from the majority.`
        : `Moved from ${first.pick} to ${pick} in round ${r.round}, towards the majority, with no new reason.`,
    );
  } else if (member.decided && !p.contrarian && before !== null && before !== pick) {
    parts.push(`Held ${pick} against the majority for ${before}.`);
  }
  return parts.join(' ');
}

/** Per-option feature hits of a question and context (option texts from `p`, context sentences about each option). */
function featuresOf(
  p: ParsedOptions,
  rest: string,
  context: string,
): { hits: FeatureHits[]; v: Record<Feature, number>[] } {
  const hits = optionHits(
    p,
    splitSentences(`${rest}\n${context}`).map((s) => s.text),
  );
  return { hits, v: hits.map(values) };
}

export interface StatedPreference {
  lean: Lean;
  /** The question and context with the preference cut out: what the council deliberates. */
  question: string;
  context: string;
}

/**
 * The asker's stated preference, if any: found by detectLean in the question's sentences (for "X or Y?" and yes/no
 * questions; the options sentence included) and the context's, and cut out by removePreference.
 */
export function findPreference(input: CouncilInput, p: ParsedOptions): StatedPreference | null {
  const context = input.context ?? '';
  const asked = p.format === 'or' || p.format === 'yes-no' ? splitSentences(input.question).map((s) => s.text) : [];
  const contextSentences = splitSentences(`${p.rest}\n${context}`).map((s) => s.text);
  const lean = detectLean([...new Set([...asked, ...contextSentences])], p);
  if (!lean) return null;
  const cleaned = removePreference(input.question, context, p);
  return { lean, question: cleaned.question, context: cleaned.context };
}

export function preferenceInfo(pref: StatedPreference): PreferenceInfo {
  return {
    letter: pref.lean.letter,
    strength: pref.lean.strength,
    quotes: pref.lean.quotes,
    question: pref.question,
    context: pref.context,
  };
}

/** What the heuristic and the model council both start from. */
export interface CouncilSetup {
  p: ParsedOptions;
  label: CouncilLabel;
  personas: Persona[];
  letters: Letter[];
  context: string;
  pref: StatedPreference | null;
}

/** Parse the question's options, pick the council's personas and find a stated preference; an unusable question is an error result. */
export function prepareCouncil(input: CouncilInput): { ok: true; value: CouncilSetup } | { ok: false; error: string } {
  const parsed = parseOptions(input.question);
  if (!parsed.ok) return parsed;
  const p = parsed.value;
  const label: CouncilLabel = input.council ?? 'default';
  const value = {
    p,
    label,
    personas: COUNCILS[label],
    letters: p.options.map((o) => o.letter),
    context: input.context ?? '',
    pref: findPreference(input, p),
  };
  return { ok: true, value };
}

/** Run the council on one question. Input limits are the caller's (the HTTP schema); an unusable question is an error result. */
export function runCouncil(input: CouncilInput): CouncilOutcome {
  const setup = prepareCouncil(input);
  if (!setup.ok) return setup;
  const { p, label, personas, letters, context, pref } = setup.value;
  const original = featuresOf(p, p.rest, context);
  const lean = pref?.lean ?? null;
  const cleaned = lean ? removePreference(p.rest, context, p) : null;
  const { hits, v } = cleaned ? featuresOf(p, cleaned.question, cleaned.context) : original;

  const options: OptionFeatures[] = p.options.map((o, i) => ({
    letter: o.letter,
    text: o.text,
    features: Object.fromEntries(
      FEATURES.filter((f) => hits[i]![f].length > 0).map((f) => [f, { value: round2(v[i]![f]), words: hits[i]![f] }]),
    ),
  }));
  const d = deliberate(personas, letters, v, null);
  const preferenceRound = lean ? deliberate(personas, letters, original.v, lean, 1).rounds[0]! : undefined;

  return {
    ok: true,
    value: buildResult({
      mode: 'heuristic',
      method: METHOD,
      label,
      format: p.format,
      ...(p.proposition !== undefined && { proposition: p.proposition }),
      options,
      personas: personas.map((x) => ({
        id: x.id,
        name: x.name,
        values: x.values,
        weights: x.weights,
        conformity: x.conformity,
        deference: x.deference,
        contrarian: x.contrarian === true,
      })),
      rounds: d.rounds,
      reasons: personas.map((persona, i) => reasonFor(i, persona, d, letters, options, v)),
      ...(pref && { preference: preferenceInfo(pref), preferenceRound }),
      usage: { calls: 0, promptTokens: 0, completionTokens: 0 },
      ms: 0,
    }),
  };
}
