/**
 * What both councils (heuristic and model) report, computed the same way from their rounds: the outcome
 * (majority, tie or lost quorum), the verdict text, the minority report, the trust numbers and sycophancyScore.
 * Pure: rounds in, numbers out.
 *
 * - Outcome: among the members with a valid final-round pick, the option with the most votes wins (a plurality
 *   with three options). Fewer than QUORUM valid members: `no_quorum`; two or more options sharing the most votes:
 *   `tie`. Neither is dressed up as a verdict: `structured.winner` is null and `verdict` says which it was.
 * - trust.agreement: Fleiss' kappa of the final round's picks, (P - Pe) / (1 - Pe), where P is the share of agreeing
 *   member pairs and Pe = 1/k (k options). Fleiss' own chance term is the sum of squared vote shares of the same
 *   votes; with one question that term is never below P, so every split council would score below 0 and a unanimous
 *   one 0/0. Uniform chance (Randolph's free-marginal kappa) keeps the scale: 1 unanimous, 0 as split as random
 *   picks, negative below that (a 6-6 split of 12 is -0.09). Null with fewer than two valid members.
 * - trust.stability: share of the members valid in round 1 and in the final round whose final pick is their round-1 pick.
 * - trust.herding: of the pick changes in rounds 2 and 3 towards the previous round's majority, the share that cite no
 *   new reason (`newReason: false` on the member's round); 0 when no member moved towards a majority.
 * - sycophancyScore: with a stated preference, the share of members (valid in both rounds) whose round-1 pick on the
 *   original wording is the preferred option while their round-1 pick without the preference was not; else 0.
 */
import { round2 } from '../scoring/types.ts';
import type { Letter, OptionFormat } from './options.ts';
import type { CouncilLabel, Persona } from './personas.ts';

export const QUORUM = 8;

/** Option letter -> number; C only when the question offers three options. */
export type LetterMap = { A: number; B: number; C?: number };

export function letterMap(letters: readonly Letter[], value: (l: Letter, o: number) => number): LetterMap {
  return Object.fromEntries(letters.map((l, o) => [l, value(l, o)])) as LetterMap;
}

export interface MemberRound {
  /** Persona id. */
  persona: string;
  /** Null when the member gave no valid answer in this round (it is counted out of the round). */
  pick: Letter | null;
  reason?: string;
  /** Rounds 2-3, when the pick changed: whether the reason brings a consideration not already on the table. */
  newReason?: boolean;
  /** Why the member was counted out (model council). */
  error?: string;
  /** Heuristic council: the member's total per option. */
  scores?: LetterMap;
  /** Heuristic council: false when its top options tied and the pick came from the seat rotation. */
  decided?: boolean;
}

export interface Round {
  round: number;
  /** `original` only for the extra round 1 on the asker's own wording, when a preference was stated. */
  wording: 'preference-free' | 'original';
  voteCount: LetterMap;
  /** The option with the most valid votes; null on a tie or with no valid vote. */
  majority: Letter | null;
  members: MemberRound[];
}

export type Outcome = 'majority' | 'tie' | 'no_quorum';

export interface Tally {
  voteCount: LetterMap;
  valid: number;
  outcome: Outcome;
  winner: Letter | null;
  /** The options sharing the most votes, on a tie. */
  tied: Letter[];
}

export function votes(members: MemberRound[], letters: readonly Letter[]): LetterMap {
  return letterMap(letters, (l) => members.filter((m) => m.pick === l).length);
}

/** The option with strictly the most votes, or null. */
export function majorityOf(count: LetterMap, letters: readonly Letter[]): Letter | null {
  const max = Math.max(...letters.map((l) => count[l] ?? 0));
  const top = letters.filter((l) => (count[l] ?? 0) === max);
  return max > 0 && top.length === 1 ? top[0]! : null;
}

export function makeRound(
  round: number,
  wording: Round['wording'],
  members: MemberRound[],
  letters: readonly Letter[],
): Round {
  const voteCount = votes(members, letters);
  return { round, wording, voteCount, majority: majorityOf(voteCount, letters), members };
}

export function tally(last: Round, letters: readonly Letter[]): Tally {
  const voteCount = last.voteCount;
  const valid = last.members.filter((m) => m.pick !== null).length;
  const max = Math.max(...letters.map((l) => voteCount[l] ?? 0));
  const tied = letters.filter((l) => (voteCount[l] ?? 0) === max);
  if (valid < QUORUM) return { voteCount, valid, outcome: 'no_quorum', winner: null, tied: [] };
  if (tied.length > 1) return { voteCount, valid, outcome: 'tie', winner: null, tied };
  return { voteCount, valid, outcome: 'majority', winner: tied[0]!, tied: [] };
}

/** The verdict string for each outcome (documented in docs/api.md, "Council"). */
export function verdictText(t: Tally, options: { letter: Letter; text: string }[], members: number): string {
  const label = (l: Letter) => `${l}) ${options.find((o) => o.letter === l)!.text}`;
  if (t.outcome === 'majority') return label(t.winner!);
  if (t.outcome === 'tie') {
    const n = t.voteCount[t.tied[0]!] ?? 0;
    return `Tie: no majority between ${t.tied.map(label).join(' and ')} (${n} votes each)`;
  }
  return `No quorum: ${t.valid} of ${members} members gave a valid answer; ${QUORUM} are needed for a verdict`;
}

/** Randolph's free-marginal form of Fleiss' kappa for one question (see the header); null below two raters. */
export function fleissKappa(count: LetterMap, letters: readonly Letter[]): number | null {
  const n = letters.reduce((s, l) => s + (count[l] ?? 0), 0);
  if (n < 2) return null;
  const p = letters.reduce((s, l) => s + (count[l] ?? 0) * ((count[l] ?? 0) - 1), 0) / (n * (n - 1));
  const pe = 1 / letters.length;
  return (p - pe) / (1 - pe);
}

export interface Trust {
  agreement: number | null;
  stability: number;
  herding: number;
}

export function trustOf(rounds: Round[], letters: readonly Letter[]): Trust {
  const first = rounds[0]!;
  const last = rounds[rounds.length - 1]!;
  const both = last.members.filter((m, i) => m.pick !== null && first.members[i]!.pick !== null);
  const kept = both.filter((m) => m.pick === first.members[last.members.indexOf(m)]!.pick).length;
  let towards = 0;
  let herded = 0;
  for (let r = 1; r < rounds.length; r++) {
    const prev = rounds[r - 1]!;
    rounds[r]!.members.forEach((m, i) => {
      const before = prev.members[i]!.pick;
      if (m.pick === null || before === null || m.pick === before || m.pick !== prev.majority) return;
      towards++;
      if (!m.newReason) herded++;
    });
  }
  const kappa = fleissKappa(last.voteCount, letters);
  return {
    agreement: kappa === null ? null : round2(kappa),
    stability: both.length === 0 ? 0 : round2(kept / both.length),
    herding: towards === 0 ? 0 : round2(herded / towards),
  };
}

/** Share of members pulled onto the preferred option by the stated preference (round 1, original vs preference-free wording). */
export function sycophancyOf(free: Round, original: Round, preferred: Letter): number {
  const pairs = original.members.filter((m, i) => m.pick !== null && free.members[i]!.pick !== null);
  if (pairs.length === 0) return 0;
  const moved = original.members.filter(
    (m, i) => m.pick === preferred && free.members[i]!.pick !== null && free.members[i]!.pick !== preferred,
  ).length;
  return round2(moved / pairs.length);
}

export interface MemberSummary {
  persona: string;
  /** Null when counted out of that round. */
  firstPick: Letter | null;
  finalPick: Letter | null;
}

export function memberSummaries(rounds: Round[]): MemberSummary[] {
  const first = rounds[0]!;
  const last = rounds[rounds.length - 1]!;
  return last.members.map((m, i) => ({ persona: m.persona, firstPick: first.members[i]!.pick, finalPick: m.pick }));
}

/** A persona as the result shows it; the heuristic council adds its weights, conformity, deference and contrarian flag. */
export type PersonaInfo = Pick<Persona, 'id' | 'name' | 'values'> &
  Partial<Pick<Persona, 'weights' | 'conformity' | 'deference' | 'contrarian'>>;

export interface PreferenceInfo {
  /** The option the asker prefers. */
  letter: Letter;
  /** 0.5 to 2: 1 per stated preference, 0.5 per pressure phrase. */
  strength: number;
  /** The sentences that state it. */
  quotes: string[];
  /** The question and context as deliberated, with the preference cut out. */
  question: string;
  context: string;
}

export interface Usage {
  calls: number;
  promptTokens: number;
  completionTokens: number;
}

export interface CouncilResult {
  verdict: string;
  voteCount: LetterMap;
  councilLabel: CouncilLabel;
  council: { persona: string; pick: Letter | null; reason: string }[];
  sycophancyScore: number;
  structured: {
    mode: 'llm' | 'heuristic';
    method: string;
    /** Model council: the model's name. */
    model?: string;
    outcome: Outcome;
    winner: Letter | null;
    tied: Letter[];
    quorum: { needed: number; valid: number };
    format: OptionFormat;
    proposition?: string;
    options: { letter: Letter; text: string; features?: Record<string, { value: number; words: string[] }> }[];
    personas: PersonaInfo[];
    preference?: PreferenceInfo;
    /** Round 1 on the asker's original wording, run only when a preference was stated. */
    preferenceRound?: Round;
    rounds: Round[];
    members: MemberSummary[];
    /** Members whose valid final pick is not the winner (on a tie: not one of the tied options). */
    minority: { persona: string; pick: Letter; reason: string }[];
    usage: Usage;
    /** Wall-clock time of the whole deliberation, in milliseconds. */
    ms: number;
  };
  trust: Trust;
}

export interface BuildInput {
  mode: 'llm' | 'heuristic';
  method: string;
  model?: string;
  label: CouncilLabel;
  format: OptionFormat;
  proposition?: string;
  options: CouncilResult['structured']['options'];
  personas: PersonaInfo[];
  rounds: Round[];
  /** The final reason per member, in persona order. */
  reasons: string[];
  preference?: PreferenceInfo;
  preferenceRound?: Round;
  usage: Usage;
  ms: number;
}

export function buildResult(b: BuildInput): CouncilResult {
  const letters = b.options.map((o) => o.letter);
  const last = b.rounds[b.rounds.length - 1]!;
  const t = tally(last, letters);
  const council = b.personas.map((p, i) => ({ persona: p.name, pick: last.members[i]!.pick, reason: b.reasons[i]! }));
  const winners = t.outcome === 'majority' ? [t.winner!] : t.outcome === 'tie' ? t.tied : letters;
  const minority = council.flatMap((m) =>
    m.pick !== null && t.outcome !== 'no_quorum' && !winners.includes(m.pick)
      ? [{ persona: m.persona, pick: m.pick, reason: m.reason }]
      : [],
  );
  return {
    verdict: verdictText(t, b.options, b.personas.length),
    voteCount: t.voteCount,
    councilLabel: b.label,
    council,
    sycophancyScore:
      b.preference && b.preferenceRound ? sycophancyOf(b.rounds[0]!, b.preferenceRound, b.preference.letter) : 0,
    structured: {
      mode: b.mode,
      method: b.method,
      ...(b.model !== undefined && { model: b.model }),
      outcome: t.outcome,
      winner: t.winner,
      tied: t.tied,
      quorum: { needed: QUORUM, valid: t.valid },
      format: b.format,
      ...(b.proposition !== undefined && { proposition: b.proposition }),
      options: b.options,
      personas: b.personas,
      ...(b.preference && { preference: b.preference }),
      ...(b.preferenceRound && { preferenceRound: b.preferenceRound }),
      rounds: b.rounds,
      members: memberSummaries(b.rounds),
      minority,
      usage: b.usage,
      ms: b.ms,
    },
    trust: trustOf(b.rounds, letters),
  };
}
