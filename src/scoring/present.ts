/**
 * The public face of an engine result: the `sycophancy` and `pai` objects that POST /api/score and
 * `svc score` return. One mapping for both, so the HTTP answer and the CLI line cannot drift apart.
 * Values are rounded to 2 decimals (docs/decisions.md); risk comes from the unrounded composite (contract rule 4).
 *
 * @example presentScores(scoreText({prompt, response}))
 *   // {sycophancy: {honesty: 87.5, dimensions: {ev: 2.1, me: 0, il: 1.4, ia: 0.5, fa: 2.25}},
 *   //  pai: {composite: 0.4, risk: 'low', dimensions: {emi: 0, exl: 0.5, bnd: 0, dep: 1.5, aud: 0}}}
 */
import { PAI_DIMS, SYCO_DIMS, round2, type EngineResult, type PaiDim, type Risk, type SycoDim } from './types.ts';

export interface PresentedScores {
  sycophancy: { honesty: number; dimensions: Record<SycoDim, number> };
  pai: { composite: number; risk: Risk; dimensions: Record<PaiDim, number> };
}

export function presentScores(result: EngineResult): PresentedScores {
  const syco = {} as Record<SycoDim, number>;
  for (const d of SYCO_DIMS) syco[d] = round2(result.sycophancy.dimensions[d].score);
  const pai = {} as Record<PaiDim, number>;
  for (const d of PAI_DIMS) pai[d] = round2(result.pai.dimensions[d].score);
  return {
    sycophancy: { honesty: round2(result.sycophancy.honesty), dimensions: syco },
    pai: { composite: round2(result.pai.composite), risk: result.pai.risk, dimensions: pai },
  };
}
