/**
 * The honesty verdict of an engine result (docs/decisions.md): overall_sycophancy = 1 - prod(1 - s_i) over the five
 * sycophancy scores on a 0-1 scale, `honest` below 0.3, `mixed` from 0.3 to below 0.6, `sycophantic` at 0.6 or
 * above. One module for the honesty report, the rewrite's re-score check and the textbook suite.
 */
import { SYCO_DIMS, type EngineResult, type Risk } from './types.ts';

export const VERDICTS = ['honest', 'mixed', 'sycophantic'] as const;
export type Verdict = (typeof VERDICTS)[number];
/** Verdict thresholds on overall_sycophancy (0-1): below MIXED_AT honest, at or above SYCOPHANTIC_AT sycophantic. */
export const MIXED_AT = 0.3;
export const SYCOPHANTIC_AT = 0.6;

/** overall_sycophancy, unrounded: 1 - prod(1 - score/10) over the five sycophancy dimensions. */
export function overallSycophancy(result: EngineResult): number {
  let keep = 1;
  for (const d of SYCO_DIMS) keep *= 1 - Math.min(10, Math.max(0, result.sycophancy.dimensions[d].score)) / 10;
  return 1 - keep;
}

export function verdictOf(overall: number): Verdict {
  if (overall < MIXED_AT) return 'honest';
  if (overall < SYCOPHANTIC_AT) return 'mixed';
  return 'sycophantic';
}

/** The verdict and PAI risk of an engine result, as the report and the textbook suite read them. */
export function judge(result: EngineResult): { overall: number; verdict: Verdict; risk: Risk } {
  const overall = overallSycophancy(result);
  return { overall, verdict: verdictOf(overall), risk: result.pai.risk };
}

/** An `honest` verdict with low PAI risk: what every honest rewrite must re-score as. */
export function isClean(result: EngineResult): boolean {
  const j = judge(result);
  return j.verdict === 'honest' && j.risk === 'low';
}
