/**
 * Leaderboard views over a dataset: entries, order and rank, computed once per dataset generation.
 *
 * Order (DECISIONS.md): sycophancy by honesty, highest first; PAI by composite, lowest first; ties by slug.
 * Rank is the 1-based position in that order, equal values sharing a rank (1, 2, 2, 4). Values are compared
 * as published (2 decimals), so two models that print the same number share a rank.
 */
import { mapDims, PAI_DIMS, SYCO_DIMS, type PaiDim, type SycoDim } from '../dimensions.ts';
import { riskOf, round2, type Risk } from '../scoring/types.ts';
import type { Dataset, DatasetModel, LoadedDataset, Meta } from './dataset.ts';

/** Extra fields (not in the contract's entry): the prompt set measured on and how many transcripts were scored. */
export interface Measured {
  suite?: string;
  transcripts?: number;
}

/** A sycophancy leaderboard row: slug, name, vendor, honesty, the sycophancy dimensions, history (JSON order). */
export type SycophancyEntry = { slug: string; name: string; vendor: string; honesty: number } & Record<
  SycoDim,
  number
> & { history: number[] } & Measured;

/** A PAI leaderboard row: slug, name, vendor, composite, the PAI dimensions, risk, history (JSON order). */
export type PaiEntry = { slug: string; name: string; vendor: string; composite: number } & Record<PaiDim, number> & {
    risk: Risk;
    history: number[];
  } & Measured;

export interface Ranked<T> {
  entry: T;
  rank: number;
}

export interface LeaderboardView {
  meta: Meta;
  sycophancy: Ranked<SycophancyEntry>[];
  pai: Ranked<PaiEntry>[];
  bySlug: Map<string, { model: DatasetModel; sycophancy?: Ranked<SycophancyEntry>; pai?: Ranked<PaiEntry> }>;
  /** The same view restricted to each suite (models measured on one prompt set rank among themselves). */
  bySuite: Map<string, LeaderboardView>;
}

function rankBy<T extends { slug: string }>(items: T[], value: (t: T) => number, higherFirst: boolean): Ranked<T>[] {
  const sorted = [...items].sort((a, b) => {
    const d = higherFirst ? value(b) - value(a) : value(a) - value(b);
    return d !== 0 ? d : a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0;
  });
  const out: Ranked<T>[] = [];
  sorted.forEach((entry, i) => {
    const prev = out[i - 1];
    const rank = prev && value(prev.entry) === value(entry) ? prev.rank : i + 1;
    out.push({ entry, rank });
  });
  return out;
}

const measured = (m: DatasetModel): Measured => ({
  ...(m.suite !== undefined && { suite: m.suite }),
  ...(m.transcripts !== undefined && { transcripts: m.transcripts }),
});

export function buildLeaderboard(dataset: Dataset, perSuite = true): LeaderboardView {
  const syco: SycophancyEntry[] = [];
  const pai: PaiEntry[] = [];
  for (const m of dataset.models) {
    if (m.sycophancy) {
      const s = m.sycophancy;
      syco.push({
        slug: m.slug,
        name: m.name,
        vendor: m.vendor,
        honesty: round2(s.honesty),
        ...mapDims(SYCO_DIMS, (d) => round2(s[d])),
        history: s.history.map(round2),
        ...measured(m),
      });
    }
    if (m.pai) {
      const p = m.pai;
      pai.push({
        slug: m.slug,
        name: m.name,
        vendor: m.vendor,
        composite: round2(p.composite),
        ...mapDims(PAI_DIMS, (d) => round2(p[d])),
        risk: riskOf(p.composite),
        history: p.history.map(round2),
        ...measured(m),
      });
    }
  }
  const view: LeaderboardView = {
    meta: dataset.meta,
    sycophancy: rankBy(syco, (e) => e.honesty, true),
    pai: rankBy(pai, (e) => e.composite, false),
    bySlug: new Map(),
    bySuite: new Map(),
  };
  for (const m of dataset.models) view.bySlug.set(m.slug, { model: m });
  for (const r of view.sycophancy) view.bySlug.get(r.entry.slug)!.sycophancy = r;
  for (const r of view.pai) view.bySlug.get(r.entry.slug)!.pai = r;
  if (perSuite) {
    const suites = [...new Set(dataset.models.map((m) => m.suite).filter((s) => s !== undefined))].sort();
    for (const suite of suites)
      view.bySuite.set(
        suite,
        buildLeaderboard({ ...dataset, models: dataset.models.filter((m) => m.suite === suite) }, false),
      );
  }
  return view;
}

/**
 * Memoise one derived value per loaded dataset version (render and serialize once per version). Keyed on the
 * loaded object itself, so two apps in one process, each with its own dataset, never see each other's values,
 * and a replaced version is garbage-collected with its values.
 */
export function perGeneration<T>(build: (loaded: LoadedDataset) => T): (loaded: LoadedDataset) => T {
  const cache = new WeakMap<LoadedDataset, T>();
  return (loaded) => {
    let value = cache.get(loaded);
    if (value === undefined) {
      value = build(loaded);
      cache.set(loaded, value);
    }
    return value;
  };
}

/** The view of the dataset version in force, built once per version and shared by every route. */
export const leaderboardView = perGeneration((loaded) => buildLeaderboard(loaded.dataset));
