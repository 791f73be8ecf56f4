/**
 * The councils: 12 heuristic personas each. A persona scores an option as the sum of its weights times the
 * option's feature values (src/council/features.ts, 0-1 each), so a weight of -3 on risk means "one risk word
 * costs 1.5 points". `conformity` (0-1) is how strongly it moves towards the previous round's majority in rounds
 * 2-3; a contrarian moves away from it instead, and in round 1 argues for the option the others rate lowest.
 * `deference` (0-1) is how much weight it gives the user's stated leaning (what sycophancyScore measures).
 */
import type { Feature } from './features.ts';

export interface Persona {
  id: string;
  name: string;
  /** One line: what it values. */
  values: string;
  weights: Partial<Record<Feature, number>>;
  conformity: number;
  deference: number;
  contrarian?: boolean;
}

const DEFAULT: Persona[] = [
  {
    id: 'guardian',
    name: 'The Guardian',
    values: 'risk-averse: avoids risk and what cannot be undone',
    weights: { risk: -3, irreversible: -2, reversible: 1.5, conventional: 0.5 },
    conformity: 0.5,
    deference: 0.2,
  },
  {
    id: 'scientist',
    name: 'The Scientist',
    values: 'evidence-first: trusts data, measurement and the truth, distrusts hedging and hope',
    weights: { evidence: 3, speculative: -2, honesty: 1 },
    conformity: 0.2,
    deference: 0,
  },
  {
    id: 'free-spirit',
    name: 'The Free Spirit',
    values: "autonomy-first: the person's own freedom and choice, and the new",
    weights: { autonomy: 3, novelty: 1, conventional: -0.5 },
    conformity: 0.2,
    deference: 0.6,
  },
  {
    id: 'steward',
    name: 'The Steward',
    values: 'long-term: lasting payoff and trust over quick wins, avoids one-way doors',
    weights: { longTerm: 3, shortTerm: -1, irreversible: -1, benefit: 0.5, honesty: 1 },
    conformity: 0.3,
    deference: 0.1,
  },
  {
    id: 'accountant',
    name: 'The Accountant',
    values: 'cost-conscious: spend less, save more',
    weights: { cost: -3, cheap: 2, benefit: 0.5 },
    conformity: 0.4,
    deference: 0.1,
  },
  {
    id: 'caregiver',
    name: 'The Caregiver',
    values: 'empathetic: effect on other people and on wellbeing',
    weights: { othersHarm: -3, othersHelp: 2, distress: -2, wellbeing: 1.5, honesty: 1 },
    conformity: 0.6,
    deference: 0.5,
  },
  {
    id: 'contrarian',
    name: 'The Contrarian',
    values: "devil's advocate: argues for what the others rate lowest",
    weights: {},
    conformity: 0.5,
    deference: 0,
    contrarian: true,
  },
  {
    id: 'pragmatist',
    name: 'The Pragmatist',
    values: 'try it first: reversible steps, near-term results, no wishful thinking',
    weights: { reversible: 2, shortTerm: 1.5, cost: -1, speculative: -1 },
    conformity: 0.7,
    deference: 0.3,
  },
  {
    id: 'pioneer',
    name: 'The Pioneer',
    values: 'opportunity-seeking: upside and novelty, unbothered by risk',
    weights: { benefit: 2.5, novelty: 2, conventional: -1 },
    conformity: 0.3,
    deference: 0.3,
  },
  {
    id: 'ethicist',
    name: 'The Ethicist',
    values: 'principled: honesty, no deception or rule-breaking, fair to others',
    weights: { ethics: -4, honesty: 3, othersHarm: -1.5, othersHelp: 1 },
    conformity: 0.1,
    deference: 0,
  },
  {
    id: 'analyst',
    name: 'The Analyst',
    values: 'expected value: upside against risk, cost and wishful thinking',
    weights: { benefit: 1.5, risk: -1.5, cost: -1, speculative: -1.5, evidence: 1 },
    conformity: 0.3,
    deference: 0.1,
  },
  {
    id: 'diplomat',
    name: 'The Diplomat',
    values: 'consensus-seeking: goes with the room, keeps people on side',
    weights: { othersHelp: 1, othersHarm: -1, ethics: -1 },
    conformity: 0.9,
    deference: 0.7,
  },
];

const SAFETY: Persona[] = [
  {
    id: 'risk-assessor',
    name: 'Risk Assessor',
    values: 'minimise the chance and size of harm',
    weights: { risk: -3, irreversible: -2.5, reversible: 1 },
    conformity: 0.4,
    deference: 0.1,
  },
  {
    id: 'red-teamer',
    name: 'Red Teamer',
    values: 'adversarial: argues for what the others rate lowest',
    weights: {},
    conformity: 0.6,
    deference: 0,
    contrarian: true,
  },
  {
    id: 'incident-responder',
    name: 'Incident Responder',
    values: 'recoverability: rollback, staged rollout, fast response',
    weights: { reversible: 3, shortTerm: 1, irreversible: -1.5 },
    conformity: 0.5,
    deference: 0.1,
  },
  {
    id: 'evidence-reviewer',
    name: 'Evidence Reviewer',
    values: 'claims need tests and measurements',
    weights: { evidence: 3, speculative: -2.5 },
    conformity: 0.2,
    deference: 0,
  },
  {
    id: 'harm-analyst',
    name: 'Harm Analyst',
    values: 'who else is affected, and how badly',
    weights: { othersHarm: -3, othersHelp: 1.5, distress: -1 },
    conformity: 0.3,
    deference: 0.1,
  },
  {
    id: 'ethics-officer',
    name: 'Ethics Officer',
    values: 'no deception, concealment or rule-breaking',
    weights: { ethics: -4, honesty: 3, othersHarm: -1 },
    conformity: 0.1,
    deference: 0,
  },
  {
    id: 'privacy-advocate',
    name: 'Privacy Advocate',
    values: "people's control over their own data and choices",
    weights: { autonomy: 2.5, ethics: -2, othersHarm: -1 },
    conformity: 0.2,
    deference: 0.2,
  },
  {
    id: 'reliability-engineer',
    name: 'Reliability Engineer',
    values: 'proven, stable systems over the untested',
    weights: { conventional: 2, novelty: -1.5, reversible: 1, risk: -1 },
    conformity: 0.4,
    deference: 0.1,
  },
  {
    id: 'compliance-officer',
    name: 'Compliance Officer',
    values: 'documented, auditable, within the rules',
    weights: { ethics: -2.5, honesty: 1.5, evidence: 1.5, risk: -1 },
    conformity: 0.5,
    deference: 0.1,
  },
  {
    id: 'safety-researcher',
    name: 'Long-term Safety Researcher',
    values: 'long-run consequences, no one-way doors',
    weights: { longTerm: 2.5, irreversible: -2, speculative: -1 },
    conformity: 0.2,
    deference: 0,
  },
  {
    id: 'wellbeing-advocate',
    name: 'User Wellbeing Advocate',
    values: 'the wellbeing of the people using the system',
    weights: { distress: -2.5, wellbeing: 2, othersHarm: -1, othersHelp: 1 },
    conformity: 0.5,
    deference: 0.3,
  },
  {
    id: 'operations-lead',
    name: 'Operations Lead',
    values: 'what can ship now at reasonable cost; goes with the room',
    weights: { cost: -1.5, shortTerm: 1.5, benefit: 1 },
    conformity: 0.8,
    deference: 0.5,
  },
];

const PRODUCT: Persona[] = [
  {
    id: 'user-advocate',
    name: 'User Advocate',
    values: 'what helps users and makes their day better',
    weights: { othersHelp: 2, othersHarm: -2, distress: -2, wellbeing: 2, honesty: 1 },
    conformity: 0.4,
    deference: 0.3,
  },
  {
    id: 'growth-lead',
    name: 'Growth Lead',
    values: 'upside, growth and speed',
    weights: { benefit: 3, novelty: 1.5, shortTerm: 1 },
    conformity: 0.4,
    deference: 0.4,
  },
  {
    id: 'engineering-lead',
    name: 'Engineering Lead',
    values: 'maintainable, reversible, low-risk delivery',
    weights: { reversible: 2, conventional: 1.5, risk: -1.5, longTerm: 1 },
    conformity: 0.3,
    deference: 0.1,
  },
  {
    id: 'data-analyst',
    name: 'Data Analyst',
    values: 'decide on measured results, not hunches',
    weights: { evidence: 3, speculative: -2 },
    conformity: 0.2,
    deference: 0,
  },
  {
    id: 'finance-partner',
    name: 'Finance Partner',
    values: 'cost and return',
    weights: { cost: -3, cheap: 2, benefit: 1 },
    conformity: 0.4,
    deference: 0.1,
  },
  {
    id: 'designer',
    name: 'Designer',
    values: 'fresh, enjoyable, user-controlled experiences',
    weights: { novelty: 2, wellbeing: 1.5, autonomy: 1 },
    conformity: 0.3,
    deference: 0.3,
  },
  {
    id: 'security-reviewer',
    name: 'Security Reviewer',
    values: 'attack surface and abuse',
    weights: { risk: -3, ethics: -2, irreversible: -1 },
    conformity: 0.2,
    deference: 0,
  },
  {
    id: 'support-lead',
    name: 'Support Lead',
    values: 'fewer upset customers and tickets',
    weights: { othersHarm: -2.5, distress: -1.5, conventional: 1 },
    conformity: 0.5,
    deference: 0.2,
  },
  {
    id: 'legal-counsel',
    name: 'Legal Counsel',
    values: 'no deception, dark patterns or liability',
    weights: { ethics: -4, honesty: 1.5, irreversible: -1, risk: -1 },
    conformity: 0.2,
    deference: 0,
  },
  {
    id: 'strategist',
    name: 'Strategist',
    values: 'long-term position over quick wins',
    weights: { longTerm: 3, shortTerm: -1, benefit: 1 },
    conformity: 0.3,
    deference: 0.1,
  },
  {
    id: 'devils-advocate',
    name: "Devil's Advocate",
    values: 'argues for what the others rate lowest',
    weights: {},
    conformity: 0.5,
    deference: 0,
    contrarian: true,
  },
  {
    id: 'product-manager',
    name: 'Product Manager',
    values: 'balanced and consensus-seeking: evidence, upside, delivery',
    weights: { benefit: 1, evidence: 1, shortTerm: 1, speculative: -1 },
    conformity: 0.8,
    deference: 0.6,
  },
];

/** Council label -> its 12 personas. */
export const COUNCILS = { default: DEFAULT, safety: SAFETY, product: PRODUCT } as const satisfies Record<
  string,
  Persona[]
>;
export type CouncilLabel = keyof typeof COUNCILS;
export const COUNCIL_LABELS = Object.keys(COUNCILS) as CouncilLabel[];
