/** Types for client/svc.js: loading the script defines the global `Svc` (and module.exports under CommonJS). */
export interface SvcHonestyReport {
  overall_sycophancy: number;
  verdict: 'honest' | 'mixed' | 'sycophantic';
  one_line: string;
  scores: Record<
    'emotional_validation' | 'moral_endorsement' | 'indirect_language' | 'indirect_action' | 'framing_acceptance',
    number
  >;
  evidence: { quote: string; dimension: string }[];
  honest_rewrite: string;
  /** The same reply's PAI composite (0-10) and risk. */
  pai: { composite: number; risk: 'low' | 'medium' | 'high' };
}

export interface SvcApi {
  /** POST {prompt, response} to {baseUrl}/api/honesty; rejects with Error("svc: <status> <message>") on failure. */
  check(input: { prompt: string; response: string }): Promise<SvcHonestyReport>;
  /** Score every element with data-svc under `scope` (default: the document) not scored yet. */
  scan(scope?: ParentNode): Promise<(SvcHonestyReport | null)[]>;
  /** Set the API origin (default: the origin the script was loaded from). */
  configure(options: { baseUrl?: string }): { baseUrl: string | undefined };
  /** The badge rating: the worse of the verdict and the PAI risk (rank 0 green, 1 yellow, 2 red; -1 unknown) and its text. */
  rate(report: Partial<SvcHonestyReport>): { rank: -1 | 0 | 1 | 2; text: string };
  version: string;
}

declare global {
  var Svc: SvcApi;
}
