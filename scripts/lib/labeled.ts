/**
 * The labelled development data (../shared/data/labeled relative to the repo root), its
 * deterministic by-prompt split, the label -> dimension mapping, and the metrics used by
 * scripts/calibrate.ts and scripts/eval.ts. The data is read from disk only; nothing of it is
 * copied into the repository.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Dim } from '../../src/scoring/types.ts';
import { fnv1a } from '../../src/text.ts';

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
/**
 * ../shared/data/labeled beside the checkout; a git worktree inside it (wt/<name>) finds it at ../../../shared.
 * SVC_LABELED_DIR overrides both.
 */
export const DATA_DIR =
  process.env.SVC_LABELED_DIR ??
  [
    resolve(REPO_ROOT, '..', 'shared', 'data', 'labeled'),
    resolve(REPO_ROOT, '..', '..', '..', 'shared', 'data', 'labeled'),
  ].find((d) => existsSync(d)) ??
  resolve(REPO_ROOT, '..', 'shared', 'data', 'labeled');
export const FILES = ['elephant', 'spiral_bench', 'syco_bench', 'darkbench_synth', 'darkgpt'] as const;

export interface Row {
  id: string;
  source: string;
  prompt: string;
  response: string;
  labels: Record<string, number | boolean | null>;
  /** Where the row came from (file, run, evaluated model), as the data's README describes. */
  notes?: string;
}

/**
 * The evaluated model of a row, where its notes name one: Spiral-Bench's "evaluated model <id>", or
 * syco-bench's run name (model and system-prompt variant). Other sources have none.
 */
export function modelOf(r: Row): string | undefined {
  const notes = r.notes ?? '';
  const m = /evaluated model ([^,\s]+)/.exec(notes) ?? /output\/\d+_\d+_([^/]+)\//.exec(notes);
  return m?.[1];
}

/**
 * The topic of a row: what its prompt is about, shared by rows that answer the same item. Spiral-Bench
 * turns of one scripted conversation (prompt id), syco-bench rows of one item (its two framings share a
 * pair, topic or statement index); elsewhere the prompt itself. The phrase learner asks a phrase to
 * recur across topics, so that it marks behaviour, not an item's subject ("chronic brain disease").
 */
export function topicOf(r: Row): string {
  const notes = r.notes ?? '';
  if (r.source === 'spiral_bench') {
    const m = /prompt (\w+)/.exec(notes);
    if (m !== null) return `spiral:${m[1]}`;
  }
  if (r.source === 'syco_bench') {
    const m = /(\w+) test.*?\((pair|topic|statement) index (\d+)\)/.exec(notes);
    if (m !== null) return `syco:${m[1]}:${m[3]}`;
  }
  return `${r.source}:${fnv1a(r.prompt)}`;
}

/** True when the labelled data is present; otherwise prints why the script skips. */
export function dataAvailable(script: string): boolean {
  if (existsSync(DATA_DIR)) return true;
  console.log(
    `${script}: skipped, labelled data not found at ${DATA_DIR} (it lives outside the repository and is only on development machines).`,
  );
  return false;
}

export function loadRows(): Row[] {
  const rows: Row[] = [];
  for (const f of FILES) {
    const path = join(DATA_DIR, `${f}.jsonl`);
    if (!existsSync(path)) continue;
    for (const line of readFileSync(path, 'utf8').split('\n')) {
      if (line.trim() === '') continue;
      const r = JSON.parse(line) as Row;
      if (typeof r.prompt === 'string' && typeof r.response === 'string') rows.push(r);
    }
  }
  return rows;
}

export { fnv1a };

/** Held-out share of prompts (by hash of the prompt text: no prompt is on both sides). */
export const HELD_OUT_PERCENT = 30;

export function isHeldOut(r: Row): boolean {
  return fnv1a(r.prompt) % 100 < HELD_OUT_PERCENT;
}

/**
 * How a dataset label maps onto an engine dimension.
 * - graded labels are binarised at `threshold` (label >= threshold is positive) for AUC and fitting,
 *   and also reported with Spearman's rho;
 * - protective labels (pushback, seeking help) are expected to go DOWN as the dimension goes up: the
 *   score is negated for AUC, and in fitting they count as inverted labels at half weight.
 */
export interface LabelSpec {
  source: string;
  label: string;
  dim: Dim;
  graded: boolean;
  threshold: number;
  protective: boolean;
  /** Used as a fitting target (false: evaluation only). */
  fit: boolean;
}

const L = (source: string, label: string, dim: Dim, o: Partial<LabelSpec> = {}): LabelSpec => ({
  source,
  label,
  dim,
  graded: false,
  threshold: 1,
  protective: false,
  fit: true,
  ...o,
});

export const LABEL_MAP: LabelSpec[] = [
  // ELEPHANT (26 rows): the five sycophancy behaviours by definition
  L('elephant', 'emotional_validation', 'ev'),
  L('elephant', 'moral_endorsement', 'me'),
  L('elephant', 'indirect_language', 'il'),
  L('elephant', 'indirect_action', 'ia'),
  L('elephant', 'accepting_framing', 'fa'),
  // Spiral-Bench: per-turn sums of judged incident strengths
  L('spiral_bench', 'sycophancy_or_praise', 'ev', { graded: true }),
  L('spiral_bench', 'reality_distortion', 'fa', { graded: true }),
  L('spiral_bench', 'reality_distortion', 'exl', { graded: true }),
  L('spiral_bench', 'pushback', 'fa', { graded: true, protective: true }),
  L('spiral_bench', 'emotional_or_narrative_escalation', 'emi', { graded: true }),
  L('spiral_bench', 'consciousness_claims', 'bnd', { graded: true }),
  L('spiral_bench', 'suggestions_to_seek_help', 'dep', { graded: true, protective: true }),
  // syco-bench: 0-5 delusion acceptance, -5..5 agreement scales
  L('syco_bench', 'reality_distortion', 'fa', { graded: true, threshold: 3 }),
  L('syco_bench', 'reality_distortion', 'exl', { graded: true, threshold: 3 }),
  L('syco_bench', 'sides_with_user', 'me', { graded: true, threshold: 3 }),
  L('syco_bench', 'agrees_with_user_stance', 'fa', { graded: true, threshold: 3 }),
  // DarkBench synthetic answers (one target pattern per row). Sycophancy is measured but not fitted:
  // its negatives are answers showing another dark pattern (not honest answers), and its sycophantic
  // answers agree by citing "research" and "experts", so in a joint fit it pulls the grounding
  // signals (the ones that mark a challenge everywhere else) towards zero.
  L('darkbench_synth', 'sycophancy', 'fa', { fit: false }),
  L('darkbench_synth', 'user_retention', 'dep'),
  L('darkbench_synth', 'anthropomorphization', 'bnd'),
  // DarkGPT: ordinary ShareGPT windows, judged flags (very few positives)
  L('darkgpt', 'anthropomorphization', 'bnd'),
  L('darkgpt', 'user_retention', 'dep'),
  L('darkgpt', 'echo_chambers', 'fa'),
];

/** 1 / 0 / null (no label on this row) for a spec. */
export function labelValue(r: Row, s: LabelSpec): number | null {
  if (r.source !== s.source) return null;
  const v = r.labels[s.label];
  if (v === null || v === undefined) return null;
  const x = typeof v === 'boolean' ? (v ? 1 : 0) : v;
  if (!Number.isFinite(x)) return null;
  return x;
}

export function binary(x: number, s: LabelSpec): number {
  return x >= s.threshold ? 1 : 0;
}

/** A darkgpt window with no dark-pattern flag set at all. */
export function isOrdinaryDarkgpt(r: Row): boolean {
  return r.source === 'darkgpt' && Object.values(r.labels).every((v) => v === 0 || v === false || v === null);
}

/** Area under the ROC curve with ties counted half (Mann-Whitney). NaN when a class is empty. */
export function auc(scores: number[], labels: number[]): number {
  const idx = scores.map((_, i) => i).sort((a, b) => scores[a]! - scores[b]!);
  let rankSumPos = 0,
    nPos = 0;
  let i = 0;
  while (i < idx.length) {
    let j = i;
    while (j + 1 < idx.length && scores[idx[j + 1]!] === scores[idx[i]!]) j++;
    const avgRank = (i + j) / 2 + 1;
    for (let k = i; k <= j; k++)
      if (labels[idx[k]!] === 1) {
        rankSumPos += avgRank;
        nPos++;
      }
    i = j + 1;
  }
  const nNeg = labels.length - nPos;
  if (nPos === 0 || nNeg === 0) return NaN;
  return (rankSumPos - (nPos * (nPos + 1)) / 2) / (nPos * nNeg);
}

function ranks(x: number[]): number[] {
  const idx = x.map((_, i) => i).sort((a, b) => x[a]! - x[b]!);
  const r = new Array<number>(x.length);
  let i = 0;
  while (i < idx.length) {
    let j = i;
    while (j + 1 < idx.length && x[idx[j + 1]!] === x[idx[i]!]) j++;
    for (let k = i; k <= j; k++) r[idx[k]!] = (i + j) / 2 + 1;
    i = j + 1;
  }
  return r;
}

/** Spearman's rank correlation (Pearson on average ranks). */
export function spearman(x: number[], y: number[]): number {
  const rx = ranks(x),
    ry = ranks(y);
  const n = x.length;
  const mx = rx.reduce((s, v) => s + v, 0) / n,
    my = ry.reduce((s, v) => s + v, 0) / n;
  let sxy = 0,
    sxx = 0,
    syy = 0;
  for (let i = 0; i < n; i++) {
    const a = rx[i]! - mx,
      b = ry[i]! - my;
    sxy += a * b;
    sxx += a * a;
    syy += b * b;
  }
  return sxx === 0 || syy === 0 ? NaN : sxy / Math.sqrt(sxx * syy);
}
