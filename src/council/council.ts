/**
 * The council: a deterministic deliberation of 12 heuristic personas over 3 rounds. No LLM, no randomness, no
 * clock: the same question, context and council label always give the same answer.
 *
 * 1. Options come from the question (options.ts); each option's features (features.ts) come from its own text
 *    and the context sentences about it: those that name it by letter or use its distinctive words. In a
 *    yes/no question, Yes is the proposition plus the context, except sentences about the present state
 *    (status-quo words such as "currently", "stay", or distress not framed as a hypothetical), which describe No;
 *    No also carries one "status quo" conventional hit.
 * 2. Round 1: each persona scores every option (weights x features, plus deference x 1.5 x leaning strength on
 *    the leaned option) and picks the highest. A contrarian scores each option as minus the others' mean.
 * 3. Rounds 2-3: each persona adds conformity x 2 x the option's vote share in the previous round (a contrarian
 *    subtracts it) and picks again. A persona whose top options tie was not decided by anything it weighs: it is
 *    placed on the tied options in rotation by seat, so an undecided council shows as split, not unanimous.
 * 4. The verdict is the final round's plurality (ties: higher summed score, then the earlier letter).
 * 5. With a leaning, the same council runs again without it; sycophancyScore is the share of the final votes for
 *    the leaned option that the leaning added, at least 1/12, when the leaning made the verdict; else 0.
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
import { detectLean, distinctiveWords, lettersNamed, mentions, type Lean } from './lean.ts';
import { parseOptions, type Letter, type OptionFormat, type ParsedOptions } from './options.ts';
import { COUNCILS, type CouncilLabel, type Persona } from './personas.ts';

export const ROUNDS = 3;
export const CONFORMITY_PULL = 2;
export const LEAN_PULL = 1.5;
const EPS = 1e-9;

export const METHOD =
  'Deterministic heuristic deliberation, no LLM: 12 personas with fixed value weights score each option from word ' +
  'features of the option and the context about it, pick independently in round 1, then move towards (contrarians: ' +
  'away from) the previous round’s majority in proportion to their conformity in rounds 2 and 3.';

export interface CouncilInput {
  question: string;
  context?: string;
  council?: CouncilLabel;
}

/** Option letter -> number; C only when the question offers three options. */
export type LetterMap = { A: number; B: number; C?: number };

function letterMap(letters: Letter[], value: (o: number) => number): LetterMap {
  return Object.fromEntries(letters.map((l, o) => [l, value(o)])) as LetterMap;
}

export interface OptionFeatures {
  letter: Letter;
  text: string;
  /** Features with at least one hit: value 0-1 and the words that hit. */
  features: Partial<Record<Feature, { value: number; words: string[] }>>;
}

export interface MemberRound {
  persona: string;
  pick: Letter;
  scores: LetterMap;
  /** False when the persona's top options tied and its pick came from the seat rotation. */
  decided: boolean;
}

export interface Round {
  round: number;
  voteCount: LetterMap;
  majority: Letter;
  members: MemberRound[];
}

export interface CouncilResult {
  verdict: string;
  voteCount: LetterMap;
  councilLabel: CouncilLabel;
  council: { persona: string; pick: Letter; reason: string }[];
  sycophancyScore: number;
  structured: {
    method: string;
    format: OptionFormat;
    proposition?: string;
    options: OptionFeatures[];
    personas: {
      id: string;
      name: string;
      values: string;
      weights: Partial<Record<Feature, number>>;
      conformity: number;
      deference: number;
      contrarian: boolean;
    }[];
    lean?: Lean;
    leanFree?: { verdict: string; voteCount: LetterMap };
    rounds: Round[];
  };
  trust: { agreement: number; stability: number; independence: number };
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
  /** Per member, per option: score before conformity and leaning. */
  base: number[][];
  /** Per member, per option: the final round's total. */
  finalTotals: number[][];
  /** Per member: the leaning bonus per option. */
  leanBonus: number[][];
}

function deliberate(
  personas: Persona[],
  letters: Letter[],
  v: Record<Feature, number>[],
  lean: Lean | null,
): Deliberation {
  const k = letters.length;
  const own = personas.map((p) => v.map((ov) => ownScore(p, ov)));
  const others = personas.filter((p) => !p.contrarian).length;
  const mean = letters.map(
    (_, o) => own.reduce((s, row, i) => s + (personas[i]!.contrarian ? 0 : row[o]!), 0) / others,
  );
  const base = personas.map((p, i) => (p.contrarian ? mean.map((m) => -m) : own[i]!));
  const leanBonus = personas.map((p) =>
    letters.map((l) => (lean && l === lean.letter ? p.deference * LEAN_PULL * lean.strength : 0)),
  );
  const rounds: Round[] = [];
  let share: number[] | null = null;
  let totals: number[][] = [];
  for (let r = 1; r <= ROUNDS; r++) {
    totals = personas.map((p, i) =>
      letters.map(
        (_, o) =>
          base[i]![o]! +
          leanBonus[i]![o]! +
          (share ? (p.contrarian ? -1 : 1) * p.conformity * CONFORMITY_PULL * share[o]! : 0),
      ),
    );
    const members = personas.map((p, i): MemberRound => {
      const t = totals[i]!;
      const max = Math.max(...t);
      const top = letters.map((_, o) => o).filter((o) => t[o]! > max - EPS);
      const pick = top.length === 1 ? top[0]! : top[i % top.length]!;
      return {
        persona: p.id,
        pick: letters[pick]!,
        scores: letterMap(letters, (o) => round2(t[o]!)),
        decided: top.length === 1,
      };
    });
    const votes = letters.map((l) => members.filter((m) => m.pick === l).length);
    const sums = letters.map((_, o) => totals.reduce((s, t) => s + t[o]!, 0));
    let best = 0;
    for (let o = 1; o < k; o++)
      if (votes[o]! > votes[best]! || (votes[o] === votes[best] && sums[o]! > sums[best]! + EPS)) best = o;
    rounds.push({ round: r, voteCount: letterMap(letters, (o) => votes[o]!), majority: letters[best]!, members });
    share = votes.map((n) => n / personas.length);
  }
  return { rounds, base, finalTotals: totals, leanBonus };
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
  const x = letters.indexOf(member.pick);
  const totals = d.finalTotals[i]!;
  const parts: string[] = [];
  if (!member.decided) {
    parts.push(
      `No feature I weigh separated the options, so I sit on ${member.pick} by seat rotation; the tally should not fake a consensus.`,
    );
  } else if (p.contrarian) {
    const lowest = d.base[i]!.indexOf(Math.max(...d.base[i]!));
    parts.push(
      x === lowest
        ? `As devil's advocate I back ${member.pick}, the option the rest of the council rated lowest on its own values.`
        : `As devil's advocate I push against the majority and back ${member.pick}.`,
    );
  } else {
    const y = letters
      .map((_, o) => o)
      .filter((o) => o !== x)
      .sort((a, b) => totals[b]! - totals[a]!)[0]!;
    const base = d.base[i]!;
    const lean_ = d.leanBonus[i]!;
    const conform = totals.map((t, o) => t - base[o]! - lean_[o]!);
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
      parts.push(`${member.pick} over ${letters[y]} on my values (${who}): ${phrases.join(' and ')}.`);
      const without = totals.map((t, o) => t - lean_[o]!);
      if (lean_[x]! > 0 && Math.max(...without) > without[x]! + EPS)
        parts.push(`Your stated leaning towards ${member.pick} tipped my vote (deference ${p.deference}).`);
    } else {
      const drivers: string[] = [];
      if (lean_[x]! - lean_[y]! > EPS)
        drivers.push(`your stated leaning towards ${member.pick} (deference ${p.deference})`);
      if (conform[x]! - conform[y]! > EPS) drivers.push(`the previous round's majority (conformity ${p.conformity})`);
      const onValues =
        base[y]! - base[x]! > EPS ? `favour ${letters[y]}` : `do not separate ${member.pick} and ${letters[y]}`;
      parts.push(`My values (${who}) ${onValues}; what decided it: ${drivers.join(' and ')}.`);
    }
  }
  if (first.pick !== member.pick) {
    const moved = d.rounds.findIndex((r) => r.members[i]!.pick === member.pick && r.round > 1);
    const r = d.rounds[moved] ?? last;
    parts.push(
      p.contrarian
        ? `Moved from ${first.pick} to ${member.pick} in round ${r.round}, away from the majority.`
        : `Moved from ${first.pick} to ${member.pick} in round ${r.round}, towards the majority.`,
    );
  } else if (member.decided && !p.contrarian && d.rounds[ROUNDS - 2]!.majority !== member.pick) {
    parts.push(`Held ${member.pick} against the majority for ${d.rounds[ROUNDS - 2]!.majority}.`);
  }
  return parts.join(' ');
}

function verdictText(parsed: ParsedOptions, letter: Letter): string {
  const o = parsed.options.find((x) => x.letter === letter)!;
  return `${letter}) ${o.text}`;
}

/** Run the council on one question. Input limits are the caller's (the HTTP schema); an unusable question is an error result. */
export function runCouncil(input: CouncilInput): CouncilOutcome {
  const parsed = parseOptions(input.question);
  if (!parsed.ok) return parsed;
  const p = parsed.value;
  const label: CouncilLabel = input.council ?? 'default';
  const personas = COUNCILS[label];
  const letters = p.options.map((o) => o.letter);
  const contextSentences = splitSentences(`${p.rest}\n${input.context ?? ''}`).map((s) => s.text);
  const hits = optionHits(p, contextSentences);
  const v = hits.map(values);
  const options: OptionFeatures[] = p.options.map((o, i) => ({
    letter: o.letter,
    text: o.text,
    features: Object.fromEntries(
      FEATURES.filter((f) => hits[i]![f].length > 0).map((f) => [f, { value: round2(v[i]![f]), words: hits[i]![f] }]),
    ),
  }));
  const asked = p.format === 'or' || p.format === 'yes-no' ? splitSentences(input.question).map((s) => s.text) : [];
  const leanSentences = [...new Set([...asked, ...contextSentences])];
  const lean = detectLean(leanSentences, p);
  const d = deliberate(personas, letters, v, lean);
  const last = d.rounds[ROUNDS - 1]!;
  const n = personas.length;

  let sycophancyScore = 0;
  let leanFree: CouncilResult['structured']['leanFree'];
  if (lean) {
    const free = deliberate(personas, letters, v, null).rounds[ROUNDS - 1]!;
    leanFree = { verdict: verdictText(p, free.majority), voteCount: free.voteCount };
    if (last.majority === lean.letter && free.majority !== lean.letter) {
      const added = (last.voteCount[lean.letter] ?? 0) - (free.voteCount[lean.letter] ?? 0);
      sycophancyScore = round2(Math.min(1, Math.max(1, added) / n));
    }
  }

  const first = d.rounds[0]!;
  let toMajority = 0;
  for (let r = 1; r < ROUNDS; r++) {
    const prev = d.rounds[r - 1]!;
    d.rounds[r]!.members.forEach((m, i) => {
      if (m.pick !== prev.members[i]!.pick && m.pick === prev.majority) toMajority++;
    });
  }

  return {
    ok: true,
    value: {
      verdict: verdictText(p, last.majority),
      voteCount: last.voteCount,
      councilLabel: label,
      council: personas.map((persona, i) => ({
        persona: persona.name,
        pick: last.members[i]!.pick,
        reason: reasonFor(i, persona, d, letters, options, v),
      })),
      sycophancyScore,
      structured: {
        method: METHOD,
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
        ...(lean && { lean }),
        ...(leanFree && { leanFree }),
        rounds: d.rounds,
      },
      trust: {
        agreement: round2((last.voteCount[last.majority] ?? 0) / n),
        stability: round2(last.members.filter((m, i) => m.pick === first.members[i]!.pick).length / n),
        independence: round2(1 - toMajority / (n * (ROUNDS - 1))),
      },
    },
  };
}
