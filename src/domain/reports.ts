/**
 * Certified reports: one per model per published dataset version.
 *
 * A report's hash is SHA-256 over its RFC 8785 canonical JSON (package `canonicalize`); the store keeps that
 * exact text under the hash, the dataset folder keeps it as reports/<hash>.json, and the hash is the leaf data
 * of the audit log. `report_id` is `rep_` + the first 12 hex characters of the hash.
 *
 * Verification policy (GET /api/verify): every call re-reads the stored report and the log's size, latest
 * checkpoint and leaf index (so a changed byte is caught on the next call); what is cached is the parsed
 * summary of a report text already hashed (keyed by that exact text) and the audit log's in-memory tree.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import canonicalize from 'canonicalize';
import type { AuditLog } from '../audit/log.ts';
import {
  compositeOf,
  honestyOf,
  PAI_DIMS,
  SYCO_DIMS,
  riskOf,
  type PaiDim,
  type Risk,
  type SycoDim,
} from '../scoring/types.ts';
import type { ReportStore } from '../store/types.ts';
import { makeDirs } from '../files.ts';

export const REPORT_SCHEMA = 'svc.report/1';
export const REPORT_METHOD_NOTE =
  'Heuristic text-analysis scores from the svc engine, aggregated over the transcripts listed. This is not the ' +
  'enterprise five-judge ensemble assessment.';

export interface DimStats {
  mean: number;
  sd: number;
  min: number;
  q1: number;
  median: number;
  q3: number;
  max: number;
}

export type StatKey = SycoDim | PaiDim | 'honesty' | 'composite';

/**
 * One reply of an evaluation with the engine's evidence in it (made by src/jobs/publish.ts, bounded there): the
 * user turn it answered, the reply (cut to a length), and the raising evidence spans as UTF-16 offsets into
 * `reply`, each with its dimension and the engine signal that fired.
 */
export interface ReportExample {
  probe: string;
  turn: number;
  prompt: string;
  reply: string;
  /** True when `reply` (or `prompt`) was cut to the length limit. */
  truncated?: boolean;
  evidence: { dim: SycoDim | PaiDim; signal: string; start: number; end: number }[];
}

export interface CertifiedReport {
  schema: typeof REPORT_SCHEMA;
  model: { slug: string; name: string; vendor: string };
  /** The prompt set the transcripts come from (absent in reports made before suites were named). */
  suite?: string;
  dataset_version: string;
  generated_at: string;
  engine: { name: string; version: string };
  judges: string[];
  kappa?: number;
  transcripts: number;
  scores: {
    sycophancy: { honesty: number } & Record<SycoDim, number>;
    pai: { composite: number; risk: Risk } & Record<PaiDim, number>;
  };
  /** Per-transcript distribution of each dimension (0-10), honesty (0-100) and composite (0-10). */
  statistics: Record<StatKey, DimStats>;
  method: string;
  /** Evaluation reports only: the replies with the most evidence, strongest first (absent for ingested data). */
  examples?: ReportExample[];
}

/** One transcript's scores, unrounded, as the engine gave them. */
export interface TranscriptScores {
  syco: Record<SycoDim, number>;
  pai: Record<PaiDim, number>;
}

const r4 = (x: number): number => Math.round(x * 10000) / 10000;

function quantile(sorted: number[], q: number): number {
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (pos - lo);
}

/** Mean, sample standard deviation and quartiles (linear interpolation), rounded to 4 decimals. */
export function summarize(values: number[]): DimStats {
  if (values.length === 0) throw new RangeError('no values to summarize');
  const sorted = [...values].sort((a, b) => a - b);
  const mean = values.reduce((s, v) => s + v, 0) / values.length;
  const variance = values.length > 1 ? values.reduce((s, v) => s + (v - mean) ** 2, 0) / (values.length - 1) : 0;
  return {
    mean: r4(mean),
    sd: r4(Math.sqrt(variance)),
    min: r4(sorted[0]!),
    q1: r4(quantile(sorted, 0.25)),
    median: r4(quantile(sorted, 0.5)),
    q3: r4(quantile(sorted, 0.75)),
    max: r4(sorted[sorted.length - 1]!),
  };
}

const mean = (xs: number[]): number => xs.reduce((s, v) => s + v, 0) / xs.length;

export interface ReportInput {
  model: { slug: string; name: string; vendor: string };
  suite?: string;
  datasetVersion: string;
  generatedAt: string;
  engine: { name: string; version: string };
  judges: string[];
  kappa?: number;
  transcripts: TranscriptScores[];
  examples?: ReportExample[];
}

/**
 * A model's scores from its transcripts' (unrounded): each dimension is the mean over the transcripts; honesty
 * and composite follow contract rules 2-4. Used by certified reports and by the evaluation summary (src/eval).
 */
export function aggregateScores(ts: readonly TranscriptScores[]): {
  syco: Record<SycoDim, number>;
  pai: Record<PaiDim, number>;
  honesty: number;
  composite: number;
  risk: Risk;
} {
  if (ts.length === 0) throw new RangeError('no transcripts to aggregate');
  const syco = Object.fromEntries(SYCO_DIMS.map((d) => [d, mean(ts.map((t) => t.syco[d]))])) as Record<SycoDim, number>;
  const pai = Object.fromEntries(PAI_DIMS.map((d) => [d, mean(ts.map((t) => t.pai[d]))])) as Record<PaiDim, number>;
  const composite = compositeOf(PAI_DIMS.map((d) => pai[d]));
  return { syco, pai, honesty: honestyOf(SYCO_DIMS.map((d) => syco[d])), composite, risk: riskOf(composite) };
}

/** The model's scores are the means over its transcripts (aggregateScores). */
export function buildReport(input: ReportInput): CertifiedReport {
  const ts = input.transcripts;
  if (ts.length === 0) throw new RangeError(`model ${input.model.slug} has no transcripts`);
  const { syco, pai, honesty, composite } = aggregateScores(ts);
  const statistics = {} as Record<StatKey, DimStats>;
  for (const d of SYCO_DIMS) statistics[d] = summarize(ts.map((t) => t.syco[d]));
  statistics.honesty = summarize(ts.map((t) => honestyOf(SYCO_DIMS.map((d) => t.syco[d]))));
  for (const d of PAI_DIMS) statistics[d] = summarize(ts.map((t) => t.pai[d]));
  statistics.composite = summarize(ts.map((t) => compositeOf(PAI_DIMS.map((d) => t.pai[d]))));
  const report: CertifiedReport = {
    schema: REPORT_SCHEMA,
    model: { ...input.model },
    dataset_version: input.datasetVersion,
    generated_at: input.generatedAt,
    engine: { ...input.engine },
    judges: [...input.judges],
    transcripts: ts.length,
    scores: {
      sycophancy: {
        honesty: r4(honesty),
        ...(Object.fromEntries(SYCO_DIMS.map((d) => [d, r4(syco[d])])) as Record<SycoDim, number>),
      },
      pai: {
        composite: r4(composite),
        risk: riskOf(composite),
        ...(Object.fromEntries(PAI_DIMS.map((d) => [d, r4(pai[d])])) as Record<PaiDim, number>),
      },
    },
    statistics,
    method: REPORT_METHOD_NOTE,
  };
  if (input.kappa !== undefined) report.kappa = input.kappa;
  if (input.suite !== undefined) report.suite = input.suite;
  if (input.examples !== undefined && input.examples.length > 0) report.examples = input.examples;
  return report;
}

/** RFC 8785 canonical JSON and its SHA-256 (lowercase hex). */
export function sealReport(report: unknown): { json: string; hash: string } {
  const json = canonicalize(report);
  if (json === undefined) throw new TypeError('report cannot be serialized');
  return { json, hash: createHash('sha256').update(json).digest('hex') };
}

export const reportId = (hash: string): string => `rep_${hash.slice(0, 12)}`;

const HASH = /^[0-9a-f]{64}$/;

/** Write reports/<hash>.json atomically; the file holds exactly the canonical text, so its SHA-256 is its name. */
export function writeReportFile(dir: string, hash: string, json: string): string {
  if (!HASH.test(hash)) throw new TypeError('bad report hash');
  makeDirs(dir);
  const file = path.join(dir, `${hash}.json`);
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, json);
  fs.renameSync(tmp, file);
  return file;
}

/** The folder beside the dataset file where its reports live. */
export const reportsDirOf = (datasetFile: string): string => path.join(path.dirname(datasetFile), 'reports');

/** Store and put in the audit log a set of sealed reports (one atomic append for all that are new to the log). */
export async function certifyReports(
  store: ReportStore,
  audit: AuditLog,
  sealed: { hash: string; json: string }[],
): Promise<number> {
  for (const s of sealed) await store.putReport(s.hash, s.json);
  const missing: string[] = [];
  for (const s of sealed) {
    if (!missing.includes(s.hash) && !(await audit.has(s.hash))) missing.push(s.hash);
  }
  if (missing.length > 0) await audit.append(missing);
  return missing.length;
}

/**
 * On service start: store every bundled report (dir/<hash>.json) that the store does not hold yet, and append
 * to the audit log those not in it. A file whose content does not hash to its name is skipped and reported.
 * Two instances starting at once may both append a report; a duplicate leaf is harmless (the log stays linear).
 */
export async function ensureBundledReports(
  store: ReportStore,
  dir: string,
  log: AuditLog,
): Promise<{ stored: number; appended: number; skipped: string[] }> {
  let names: string[];
  try {
    names = fs
      .readdirSync(dir)
      .filter((n) => /^[0-9a-f]{64}\.json$/.test(n))
      .sort();
  } catch {
    return { stored: 0, appended: 0, skipped: [] };
  }
  const sealed: { hash: string; json: string }[] = [];
  const skipped: string[] = [];
  let stored = 0;
  for (const name of names) {
    const hash = name.slice(0, 64);
    let s: { hash: string; json: string };
    try {
      s = sealReport(JSON.parse(fs.readFileSync(path.join(dir, name), 'utf8')));
    } catch {
      skipped.push(name);
      continue;
    }
    if (s.hash !== hash) {
      skipped.push(name);
      continue;
    }
    if ((await store.getReport(hash)) === null) stored += 1;
    sealed.push(s);
  }
  const appended = await certifyReports(store, log, sealed);
  return { stored, appended, skipped };
}

export type Lookup =
  | { kind: 'found'; hash: string; json: string }
  | { kind: 'none' }
  | { kind: 'ambiguous'; candidates: string[] };

/** Find a report by its full hash or a prefix of 12 to 63 hex characters (lowercase). */
export async function lookupReport(store: ReportStore, hexOrPrefix: string): Promise<Lookup> {
  if (hexOrPrefix.length === 64) {
    const json = await store.getReport(hexOrPrefix);
    return json === null ? { kind: 'none' } : { kind: 'found', hash: hexOrPrefix, json };
  }
  const hits = await store.findReportsByPrefix(hexOrPrefix, 10);
  if (hits.length === 0) return { kind: 'none' };
  if (hits.length > 1) return { kind: 'ambiguous', candidates: hits };
  const json = await store.getReport(hits[0]!);
  return json === null ? { kind: 'none' } : { kind: 'found', hash: hits[0]!, json };
}

export type VerifyResult =
  | { verified: true; report_id: string; model: string; generated_at: string; composite?: number }
  | { verified: false; message: string; report_id?: string };

interface Summary {
  json: string;
  model: string;
  generated_at: string;
  composite?: number;
}

/** Checks a report hash against the store and the signed audit log; "no" answers are data, not exceptions. */
export class ReportVerifier {
  private readonly summaries = new Map<string, Summary>();

  constructor(
    private readonly store: ReportStore,
    private readonly audit: AuditLog,
  ) {}

  /** `hash` must be 64 lowercase hex characters. */
  async verify(hash: string): Promise<VerifyResult> {
    const json = await this.store.getReport(hash);
    if (json === null) return { verified: false, message: 'Unknown report hash: no certified report has this hash.' };
    const id = reportId(hash);
    let summary = this.summaries.get(hash);
    if (!summary || summary.json !== json) {
      summary = undefined;
      if (createHash('sha256').update(json).digest('hex') !== hash) {
        return {
          verified: false,
          report_id: id,
          message: 'The stored report no longer matches its hash: its content was changed.',
        };
      }
      summary = summarizeStored(json);
      if (this.summaries.size > 10000) this.summaries.clear();
      this.summaries.set(hash, summary);
    }
    const logged = await this.audit.check(hash);
    if (!logged.ok) return { verified: false, report_id: id, message: logged.message };
    const out: VerifyResult = {
      verified: true,
      report_id: id,
      model: summary.model,
      generated_at: summary.generated_at,
    };
    if (summary.composite !== undefined) out.composite = summary.composite;
    return out;
  }
}

function summarizeStored(json: string): Summary {
  const r = JSON.parse(json) as Partial<CertifiedReport>;
  const s: Summary = { json, model: String(r.model?.slug ?? ''), generated_at: String(r.generated_at ?? '') };
  if (typeof r.scores?.pai?.composite === 'number') s.composite = r.scores.pai.composite;
  return s;
}

// ---- score reports (POST /api/score in the alternate shape) ------------------------------------------------------

/**
 * A score report: the heuristic scores of one prompt/response pair, stored so that the alternate score answer's
 * report_url resolves. Content-addressed like a certified report (SHA-256 of the canonical JSON, kept in the
 * ReportStore, found by /report/<prefix>), but NOT appended to the audit log, which holds certified model reports
 * only; GET /api/verify therefore answers verified false for it. The texts themselves are not kept, only their
 * lengths and SHA-256, so whoever holds the texts can check that a report is about them.
 */
export const SCORE_REPORT_SCHEMA = 'svc.score-report/1';

export interface ScoreReport {
  schema: typeof SCORE_REPORT_SCHEMA;
  scored_at: string;
  engine: { name: string; version: string };
  input: { prompt_length: number; response_length: number; prompt_sha256: string; response_sha256: string };
  scores: {
    sycophancy: { honesty: number } & Record<SycoDim, number>;
    pai: { composite: number; risk: Risk } & Record<PaiDim, number>;
  };
  method: string;
}

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

/** Build, seal and store a score report; returns its hash (64 hex). */
export async function storeScoreReport(
  store: ReportStore,
  input: {
    prompt: string;
    response: string;
    promptLength: number;
    responseLength: number;
    scoredAt: string;
    engine: { name: string; version: string };
    scores: {
      sycophancy: { honesty: number; dimensions: Record<SycoDim, number> };
      pai: { composite: number; risk: Risk; dimensions: Record<PaiDim, number> };
    };
    method: string;
  },
  /** How long the report is kept (SVC_SCORE_REPORT_TTL_S); then its report_url answers 404. */
  ttlMs?: number,
): Promise<string> {
  const { sycophancy, pai } = input.scores;
  const report: ScoreReport = {
    schema: SCORE_REPORT_SCHEMA,
    scored_at: input.scoredAt,
    engine: { ...input.engine },
    input: {
      prompt_length: input.promptLength,
      response_length: input.responseLength,
      prompt_sha256: sha256(input.prompt),
      response_sha256: sha256(input.response),
    },
    scores: {
      sycophancy: { honesty: sycophancy.honesty, ...sycophancy.dimensions },
      pai: { composite: pai.composite, risk: pai.risk, ...pai.dimensions },
    },
    method: input.method,
  };
  const { json, hash } = sealReport(report);
  await store.putReport(hash, json, ttlMs === undefined ? {} : { ttlMs });
  return hash;
}
