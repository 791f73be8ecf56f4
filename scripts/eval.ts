/**
 * npm run eval: agreement of the engine with the labelled development data, on held-out rows only
 * (split by prompt hash, see scripts/lib/labeled.ts), next to a VADER sentiment baseline.
 *
 * For each mapped label: n, positives, the engine's AUC (dimension score vs the binarised label;
 * a dimension whose gate is closed scores its floor 0), Spearman's rho for graded labels, and the
 * baseline's AUC on the same rows. Then the mean AUC and the share of ordinary darkgpt windows
 * (no flag set) scored as medium/high PAI risk or honesty under 80.
 *
 * Baseline orientation, fixed a priori (never chosen per label to help it): VADER compound of the
 * response, where more positive sentiment = more sycophantic / more parasocial. For protective
 * labels (pushback, seeking help) the engine's score and the baseline are both negated, since the
 * label is expected to fall as the dimension rises.
 */
import { createRequire } from 'node:module';
import { modelsOf, type Models, scoreText } from '../src/scoring/engine.ts';
import { judge } from '../src/scoring/verdict.ts';
import type { Dim, EngineResult } from '../src/scoring/types.ts';
import {
  auc,
  binary,
  fnv1a,
  dataAvailable,
  isHeldOut,
  isOrdinaryDarkgpt,
  LABEL_MAP,
  labelValue,
  loadRows,
  modelOf,
  spearman,
  type Row,
} from './lib/labeled.ts';
import { cachedAnalysis, fitModels } from './calibrate.ts';

const require = createRequire(import.meta.url);
const vader = require('vader-sentiment') as {
  SentimentIntensityAnalyzer: { polarity_scores(t: string): { compound: number } };
};

/** VADER on at most the first 20,000 characters (its cost grows faster than linearly). */
function compound(text: string): number {
  return vader.SentimentIntensityAnalyzer.polarity_scores(text.slice(0, 20000)).compound;
}

function dimScore(r: EngineResult, d: Dim): number {
  const s =
    (r.sycophancy.dimensions as Record<string, { score: number }>)[d] ??
    (r.pai.dimensions as Record<string, { score: number }>)[d];
  return s?.score ?? 0;
}

function fmt(x: number, digits = 3): string {
  return Number.isNaN(x) ? '  n/a' : x.toFixed(digits);
}

function main(): void {
  if (!dataAvailable('eval')) return;
  const rows = loadRows().filter(isHeldOut);
  const results = new Map<Row, EngineResult>();
  const vaders = new Map<Row, number>();
  const need = new Set<Row>();
  for (const r of rows) {
    if (isOrdinaryDarkgpt(r) || LABEL_MAP.some((s) => labelValue(r, s) !== null)) need.add(r);
  }
  for (const r of need) {
    results.set(r, scoreText({ prompt: r.prompt, response: r.response }));
    vaders.set(r, compound(r.response));
  }
  console.log(
    `eval: ${rows.length} held-out rows (${need.size} scored). Baseline: VADER compound, positivity = more sycophantic/parasocial (a priori); protective labels negate both.\n`,
  );
  console.log('label                                        dim   n      pos   AUC    base   rho    gate');
  const aucs: number[] = [];
  const beats: string[] = [];
  for (const spec of LABEL_MAP) {
    const ys: number[] = [],
      ours: number[] = [],
      base: number[] = [],
      graded: number[] = [];
    let open = 0;
    for (const r of rows) {
      const v = labelValue(r, spec);
      if (v === null) continue;
      const res = results.get(r)!;
      const sign = spec.protective ? -1 : 1;
      ys.push(binary(v, spec));
      graded.push(v);
      ours.push(sign * dimScore(res, spec.dim));
      base.push(sign * vaders.get(r)!);
      const dimRes =
        (res.sycophancy.dimensions as Record<string, { applicable: boolean }>)[spec.dim] ??
        (res.pai.dimensions as Record<string, { applicable: boolean }>)[spec.dim];
      if (dimRes?.applicable) open++;
    }
    const pos = ys.reduce((s, y) => s + y, 0);
    const a = auc(ours, ys),
      b = auc(base, ys);
    const rho = spec.graded ? spearman(ours, graded) : NaN;
    const name = `${spec.source}.${spec.label}${spec.protective ? ' (protective)' : ''}`;
    const usable = pos >= 5 && ys.length - pos >= 5;
    console.log(
      `${name.padEnd(44)} ${spec.dim.padEnd(5)} ${String(ys.length).padEnd(6)} ${String(pos).padEnd(5)} ${fmt(a)}  ${fmt(b)}  ${spec.graded ? fmt(rho) : '  -  '}  ${ys.length ? Math.round((100 * open) / ys.length) : 0}%${usable ? '' : '  (too few positives: not in the mean)'}`,
    );
    if (usable && !Number.isNaN(a)) {
      aucs.push(a);
      if (!(a > b)) beats.push(name);
    }
  }
  const mean = aucs.reduce((s, x) => s + x, 0) / Math.max(aucs.length, 1);
  console.log(
    `\nmean AUC over ${aucs.length} labels with >= 5 positives and negatives: ${mean.toFixed(3)} (target >= 0.85)`,
  );
  console.log(
    beats.length === 0 ? 'above the baseline on every such label' : `NOT above the baseline on: ${beats.join(', ')}`,
  );

  const ordinary = rows.filter(isOrdinaryDarkgpt);
  let flagged = 0,
    paiFlag = 0,
    honFlag = 0;
  for (const r of ordinary) {
    const res = results.get(r)!;
    const p = res.pai.risk !== 'low',
      h = judge(res).verdict !== 'honest';
    if (p) paiFlag++;
    if (h) honFlag++;
    if (p || h) flagged++;
  }
  const pct = (x: number): string => ((100 * x) / Math.max(ordinary.length, 1)).toFixed(1);
  console.log(
    `ordinary darkgpt windows (no flag set): ${ordinary.length}; flagged ${pct(flagged)}% (PAI medium/high ${pct(paiFlag)}%, verdict not honest ${pct(honFlag)}%) (target < 2%)`,
  );
}

/** Mean AUC over the usable labels (>= 5 positives and negatives) of `rows`, each row scored by `score`. */
function meanAuc(rows: Row[], score: (r: Row) => EngineResult): { mean: number; labels: number } {
  const aucs: number[] = [];
  for (const spec of LABEL_MAP) {
    const ys: number[] = [],
      xs: number[] = [];
    for (const r of rows) {
      const v = labelValue(r, spec);
      if (v === null) continue;
      ys.push(binary(v, spec));
      xs.push((spec.protective ? -1 : 1) * dimScore(score(r), spec.dim));
    }
    const pos = ys.reduce((s, y) => s + y, 0);
    if (pos >= 5 && ys.length - pos >= 5) aucs.push(auc(xs, ys));
  }
  return { mean: aucs.reduce((s, x) => s + x, 0) / Math.max(aucs.length, 1), labels: aucs.length };
}

/** Deterministic folds of the syco-bench runs (about 24): four, by a hash of the run name. */
function foldOf(r: Row): string | undefined {
  const m = modelOf(r);
  if (m === undefined) return undefined;
  return r.source === 'syco_bench' ? `syco_bench fold ${fnv1a(m) % 4}` : m;
}

/**
 * Generalisation (issue #10, Build 8): refit without one source's rows (leave-one-source-out) or one
 * evaluated model's rows (leave-one-model-out; syco-bench's runs in four folds) and measure on the held-out
 * rows of what was left out, next to the shipped weights on the same rows (within-split: the fit saw other
 * prompts of that source or model). Then model-level rank agreement: per evaluated model, the engine's mean
 * dimension score against the mean label, and against the share of the model's rows the label calls positive (the
 * label binarised as for AUC), Spearman over models, on held-out rows. The two differ for a signed label (syco-bench
 * -5..5): its mean nets siding with the user against siding with the other party, which a score that cannot go below
 * 0 does not measure.
 */
function generalisation(all: Row[]): void {
  const t0 = performance.now();
  const fitRows = all.filter((r) => !isHeldOut(r));
  const held = all.filter(isHeldOut);
  const analysisOf = cachedAnalysis();
  const shipped = new Map<Row, EngineResult>();
  const within = (r: Row): EngineResult => {
    let x = shipped.get(r);
    if (x === undefined) shipped.set(r, (x = scoreText({ prompt: r.prompt, response: r.response })));
    return x;
  };
  const refit = (keep: (r: Row) => boolean): ((r: Row) => EngineResult) => {
    const models: Models = modelsOf(fitModels(fitRows.filter(keep), analysisOf));
    return (r) => scoreText({ prompt: r.prompt, response: r.response }, models);
  };
  const line = (name: string, rows: Row[], out: { mean: number; labels: number }, inn: { mean: number }): string =>
    `  ${name.padEnd(40)} ${String(rows.length).padStart(5)}  ${out.mean.toFixed(3)}  ${inn.mean.toFixed(3)}  ${(out.mean - inn.mean >= 0 ? '+' : '') + (out.mean - inn.mean).toFixed(3)}  (${out.labels} labels)`;

  console.log('\ngeneralisation: left-out rows (held-out side)      rows   left-out  within  diff');
  const lomo: number[] = [],
    lomoWithin: number[] = [];
  for (const source of ['spiral_bench', 'syco_bench', 'darkbench_synth', 'darkgpt']) {
    const rows = held.filter((r) => r.source === source);
    const out = meanAuc(
      rows,
      refit((r) => r.source !== source),
    );
    if (out.labels > 0) console.log(line(`leave-one-source-out: ${source}`, rows, out, meanAuc(rows, within)));
  }
  const folds = [...new Set(all.map(foldOf).filter((f): f is string => f !== undefined))].sort();
  for (const fold of folds) {
    const rows = held.filter((r) => foldOf(r) === fold);
    const out = meanAuc(
      rows,
      refit((r) => foldOf(r) !== fold),
    );
    const inn = meanAuc(rows, within);
    if (out.labels === 0) continue;
    lomo.push(out.mean);
    lomoWithin.push(inn.mean);
    console.log(line(`leave-one-model-out: ${fold}`, rows, out, inn));
  }
  const avg = (xs: number[]): number => xs.reduce((s, x) => s + x, 0) / Math.max(xs.length, 1);
  console.log(
    `  leave-one-model-out mean AUC ${avg(lomo).toFixed(3)} vs within-split ${avg(lomoWithin).toFixed(3)} on the same rows (target: within 0.03)`,
  );

  console.log(
    '\nmodel-level rank agreement (held-out rows; per model: mean engine score vs mean label, and vs share of positive rows; Spearman over models)',
  );
  for (const spec of LABEL_MAP) {
    const byModel = new Map<string, { s: number; y: number; p: number; n: number }>();
    for (const r of held) {
      const m = modelOf(r);
      const v = labelValue(r, spec);
      if (m === undefined || v === null) continue;
      const e = byModel.get(m) ?? { s: 0, y: 0, p: 0, n: 0 };
      e.s += dimScore(within(r), spec.dim);
      e.y += v;
      e.p += binary(v, spec);
      e.n++;
      byModel.set(m, e);
    }
    const ms = [...byModel.values()].filter((e) => e.n >= 10);
    if (ms.length < 4) continue;
    const scores = ms.map((e) => e.s / e.n);
    const sign = spec.protective ? -1 : 1;
    const rho =
      sign *
      spearman(
        scores,
        ms.map((e) => e.y / e.n),
      );
    const rhoShare =
      sign *
      spearman(
        scores,
        ms.map((e) => e.p / e.n),
      );
    console.log(
      `  ${`${spec.source}.${spec.label}${spec.protective ? ' (protective)' : ''}`.padEnd(52)} ${spec.dim.padEnd(4)} ${String(ms.length).padStart(3)} models  rho ${rho.toFixed(3)}  (share positive: ${rhoShare.toFixed(3)})`,
    );
  }
  console.log(`  (protective labels: rho of minus the score; ${((performance.now() - t0) / 1000).toFixed(0)} s)`);
}

main();
// EVAL_GENERALISATION=0 skips the refits (about a minute of CPU) while iterating on the engine
if (dataAvailable('eval') && process.env.EVAL_GENERALISATION !== '0') generalisation(loadRows());
