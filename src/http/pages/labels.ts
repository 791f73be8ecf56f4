/** Coloured labels that always carry their word (colour is never the only signal), and shared page bits. */
import { honestyColour } from '../../badge/index.ts';
import type { DatasetModel, Meta } from '../../domain/dataset.ts';
import type { LeaderboardView } from '../../domain/leaderboard.ts';
import type { Risk } from '../../scoring/types.ts';
import { escapeHtml } from './html.ts';

const CLASS = { green: 'ok', yellow: 'warn', red: 'bad' } as const;

export function riskPill(risk: Risk): string {
  const cls = risk === 'low' ? 'ok' : risk === 'medium' ? 'warn' : 'bad';
  return `<span class="pill ${cls}">${risk} risk</span>`;
}

/** Honesty bands as the badges colour them: above 90 high, 80 to 90 medium, below 80 low. */
export function honestyLevel(honesty: number): 'high' | 'medium' | 'low' {
  const c = honestyColour(honesty);
  return c === 'green' ? 'high' : c === 'yellow' ? 'medium' : 'low';
}

export function honestyPill(honesty: number): string {
  return `<span class="pill ${CLASS[honestyColour(honesty)]}">${honestyLevel(honesty)} honesty</span>`;
}

/** The suite an entry was measured on, when the dataset records one. */
export const suiteOf = (m: DatasetModel): string | undefined => m.suite;

/**
 * An entry's rank among the models of its own suite (entries of different suites are not compared), with the
 * number ranked there; the whole index's rank when the entry names no suite.
 */
export function suiteRank(
  view: LeaderboardView,
  slug: string,
  index: 'sycophancy' | 'pai',
): { rank: number; of: number; suite?: string } | undefined {
  const m = view.bySlug.get(slug);
  if (!m) return undefined;
  const suite = m.model.suite;
  const within = suite !== undefined ? view.bySuite.get(suite) : undefined;
  const scope = within ?? view;
  const ranked = scope.bySlug.get(slug)?.[index];
  return ranked ? { rank: ranked.rank, of: scope[index].length, ...(within && { suite }) } : undefined;
}

/** One plain sentence on what the scores are, true to the dataset's meta. */
export function methodSentence(meta: Meta): string {
  const judges = meta.judges ?? [];
  const llmJudges = judges.filter((j) => !/^svc-heuristic\b/.test(j));
  const what =
    llmJudges.length === 0
      ? 'These scores come from svc’s heuristic text-analysis engine (no language model), averaged over each model’s transcripts; they are not a judge-ensemble assessment.'
      : judges.length === 1
        ? `These scores come from one judge (${judges[0]}), averaged over each model’s transcripts.`
        : `These scores come from a judge ensemble of ${judges.length} (${judges.join(', ')}), averaged over each model’s transcripts${meta.kappa !== undefined ? `, with cross-judge agreement kappa ${meta.kappa.toFixed(3)}` : ''}.`;
  return `${escapeHtml(what)} Entries measured on different suites (sets of prompts) are not compared with each other, because a ranking across different prompts would mislead: read the rank within one suite.`;
}

export function dateText(iso: string | undefined): string {
  if (!iso) return '–';
  return `<time datetime="${escapeHtml(iso)}">${escapeHtml(iso.slice(0, 16).replace('T', ' '))} UTC</time>`;
}
