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
import { scoreText } from '../src/scoring/engine.ts';
import { judge } from '../src/scoring/verdict.ts';
import type { Dim, EngineResult } from '../src/scoring/types.ts';
import {
  auc,
  binary,
  dataAvailable,
  isHeldOut,
  isOrdinaryDarkgpt,
  LABEL_MAP,
  labelValue,
  loadRows,
  spearman,
  type Row,
} from './lib/labeled.ts';

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

main();
