/**
 * The council's text features: word lists of its own (not the score engine's lexicons), matched on lower-cased
 * tokens. A term is one or more words; a word ending in `*` matches any word that starts with it. A single-word
 * hit right after a negator ("no risk", "not expensive") is not counted. A feature's value is hits / (hits + 1),
 * 0 to 1: one hit 0.5, two 0.67, three 0.75, so no single feature runs away with a long text.
 *
 * @example extractFeatures('Risky, but a cheap trial first').risk // { value: 0.5, words: ['risky'] }
 */
import { tokenize as engineTokens } from '../scoring/tokens.ts';

export const FEATURES = [
  'risk',
  'irreversible',
  'reversible',
  'evidence',
  'speculative',
  'cost',
  'cheap',
  'benefit',
  'othersHarm',
  'othersHelp',
  'autonomy',
  'longTerm',
  'shortTerm',
  'novelty',
  'conventional',
  'distress',
  'wellbeing',
  'ethics',
  'honesty',
] as const;
export type Feature = (typeof FEATURES)[number];

/** How a reason names each feature ("more reversibility", "fewer risk words"). */
export const FEATURE_LABELS: Record<Feature, string> = {
  risk: 'risk',
  irreversible: 'irreversibility',
  reversible: 'reversibility',
  evidence: 'evidence and measurement',
  speculative: 'hedging and wishful thinking',
  cost: 'cost',
  cheap: 'savings',
  benefit: 'upside',
  othersHarm: 'harm to others',
  othersHelp: 'help to others',
  autonomy: 'personal autonomy',
  longTerm: 'long-term payoff',
  shortTerm: 'near-term payoff',
  novelty: 'novelty',
  conventional: 'proven, conventional footing',
  distress: 'distress',
  wellbeing: 'wellbeing',
  ethics: 'ethical red flags',
  honesty: 'honesty and disclosure',
};

const TERMS: Record<Feature, string[]> = {
  risk: [
    'risk*',
    'danger*',
    'gamble*',
    'hazard*',
    'unsafe',
    'uncertain*',
    'volatil*',
    'lose',
    'losing',
    'loss',
    'losses',
    'fail',
    'fails',
    'failure*',
    'failing',
    'bankrupt*',
    'debt*',
    'crash*',
    'threat*',
    'injur*',
    'lawsuit*',
    'liabilit*',
    'precarious',
    'unstable',
    'instability',
    'vulnerab*',
    'breach*',
    'outage*',
    'downtime',
    'all in',
    'bet everything',
  ],
  irreversible: [
    'irreversibl*',
    'permanent*',
    'forever',
    'for good',
    'no going back',
    "can't undo",
    'cannot undo',
    "can't be undone",
    'cannot be undone',
    'one way',
    'final',
    'burn bridges',
    'burn the bridges',
    'point of no return',
    'lock in',
    'locked in',
    'lifelong',
    'delete*',
    'destroy*',
    'quit',
    'quitting',
    'resign*',
    'sell',
    'selling',
  ],
  reversible: [
    'reversibl*',
    'undo',
    'rollback',
    'roll back',
    'trial',
    'trials',
    'pilot*',
    'experiment*',
    'prototype*',
    'temporar*',
    'try it',
    'try out',
    'test it',
    'opt out',
    'refund*',
    'part time',
    'gradual*',
    'incremental*',
    'step by step',
    'sabbatical',
    'leave of absence',
    'side project',
    'on the side',
    'feature flag*',
    'canary',
    'phased',
    'in stages',
  ],
  evidence: [
    'data',
    'evidence',
    'study',
    'studies',
    'research*',
    'measur*',
    'metric*',
    'benchmark*',
    'tested',
    'proven',
    'track record',
    'statistic*',
    'survey*',
    'results',
    'numbers',
    'figures',
    'peer reviewed',
    'analys*',
    'audit*',
    'according to',
    'percent',
    '#number',
  ],
  speculative: [
    'maybe',
    'might',
    'hope',
    'hoping',
    'hopefully',
    'guess*',
    'gut',
    'dream*',
    'someday',
    'probably',
    'potentially',
    'wish*',
    'i bet',
    'guaranteed',
    "can't fail",
    'cannot fail',
    'get rich',
    'viral',
    'overnight',
    'sure to',
    'feel like',
  ],
  cost: [
    'cost*',
    'expensive',
    'pricey',
    'price*',
    'fee',
    'fees',
    'pay',
    'paying',
    'payment*',
    'spend*',
    'loan*',
    'mortgage*',
    'rent',
    'pay cut',
    'salary cut',
    'overrun*',
    'tuition',
    'money',
    '$',
  ],
  cheap: [
    'cheap*',
    'free',
    'afford*',
    'low cost',
    'inexpensive',
    'save',
    'saves',
    'saving',
    'discount*',
    'frugal',
    'no cost',
  ],
  benefit: [
    'benefit*',
    'gain*',
    'grow*',
    'opportunit*',
    'improv*',
    'better',
    'profit*',
    'upside',
    'promot*',
    'raise',
    'learn*',
    'faster',
    'increase*',
    'boost*',
    'higher',
    'success*',
    'advance*',
    'thrive',
    'more money',
  ],
  othersHarm: [
    'hurt*',
    'harm*',
    'burden*',
    'abandon*',
    'let down',
    'lay off',
    'layoff*',
    'disappoint*',
    'upset*',
    'neglect*',
    'depend on me',
    'depends on me',
    'rely on me',
    'relies on me',
    'sacrific*',
    'strain*',
    'resent*',
    'suffer*',
  ],
  othersHelp: [
    'help*',
    'support*',
    'care',
    'caring',
    'protect*',
    'serve',
    'be there',
    'together',
    'fair',
    'fairly',
    'share',
    'sharing',
    'include',
    'inclusive',
    'spend time with',
    'mentor*',
    'give back',
  ],
  autonomy: [
    'freedom',
    'independen*',
    'my own',
    'own boss',
    'on my own',
    'control',
    'choice',
    'flexib*',
    'passion*',
    'autonom*',
    'be myself',
    'creative',
    'creativity',
    'my call',
    'my decision',
  ],
  longTerm: [
    'long term',
    'future',
    'years',
    'decade*',
    'career',
    'retire*',
    'sustainab*',
    'lasting',
    'legacy',
    'eventually',
    'compound*',
    'in the long run',
    'generations',
    'maintainab*',
    'scal*',
  ],
  shortTerm: [
    'now',
    'immediate*',
    'quick*',
    'today',
    'tonight',
    'this week',
    'right away',
    'short term',
    'instant*',
    'asap',
    'deadline*',
    'urgent*',
    'soon',
    'this month',
  ],
  novelty: [
    'new',
    'novel',
    'innovat*',
    'startup*',
    'start up',
    'unconventional',
    'bold',
    'untested',
    'unproven',
    'change',
    'switch*',
    'move',
    'moving',
    'launch*',
    'adventur*',
    'abroad',
    'pivot*',
    'disrupt*',
    'cutting edge',
  ],
  conventional: [
    'stay',
    'staying',
    'keep',
    'keeping',
    'current*',
    'existing',
    'stable',
    'stability',
    'established',
    'traditional',
    'familiar',
    'usual',
    'standard',
    'conventional',
    'secure',
    'security',
    'reliable',
    'mature',
  ],
  distress: [
    'stress*',
    'burnout',
    'burned out',
    'burnt out',
    'exhaust*',
    'anxi*',
    'miserable',
    'unhappy',
    'depress*',
    'tired',
    'overwhelm*',
    'sick',
    'lonely',
    'isolat*',
    'dread*',
    'panic*',
    "can't sleep",
    'insomnia',
    'toxic',
  ],
  wellbeing: [
    'happ*',
    'joy*',
    'health*',
    'rest',
    'relax*',
    'calm',
    'peace*',
    'balance',
    'fulfil*',
    'meaningful',
    'enjoy*',
    'time off',
    'sleep',
  ],
  ethics: [
    'lie',
    'lying',
    'lied',
    'cheat*',
    'deceiv*',
    'decept*',
    'fraud*',
    'illegal*',
    'steal*',
    'without telling',
    'behind their back',
    'behind his back',
    'behind her back',
    'secret*',
    'hide',
    'hiding',
    'fake*',
    'plagiar*',
    'brib*',
    'mislead*',
    'manipulat*',
    'exploit*',
    'cut corners',
    'cover up',
    'unethical',
    'under the table',
    'off the books',
    'dishonest*',
  ],
  honesty: [
    'tell',
    'telling',
    'truth*',
    'honest',
    'honestly',
    'honesty',
    'come clean',
    'be upfront',
    'upfront',
    'disclos*',
    'admit',
    'admitting',
    'confess*',
    'transparen*',
    'report it',
    'report them',
    'report him',
    'report her',
    'speak up',
  ],
};

/**
 * Words that report someone's wrongdoing rather than commit it: an ethics term within REPORTED_SPAN tokens after one
 * of them ("tell my friend her fiance cheated", "report that he lied") is disclosure, an honesty hit, not a red flag
 * on the option that discloses it.
 */
const DISCLOSURE = new Set([
  'tell',
  'telling',
  'told',
  'report',
  'reporting',
  'reveal',
  'revealing',
  'warn',
  'warning',
  'expose',
  'exposing',
  'confront',
  'confronting',
  'disclose',
  'disclosing',
  'inform',
  'informing',
]);
const REPORTED_SPAN = 6;

/** Contractions arrive expanded by the tokenizer ("don't" -> do|not, "cannot" -> can|not), so `not` covers them. */
export const NEGATORS = new Set(['not', 'no', 'never', 'without', 'nor', 'hardly', 'zero']);

interface Term {
  feature: Feature;
  words: string[];
}

const COMPILED: Term[] = FEATURES.flatMap((feature) => TERMS[feature].map((t) => ({ feature, words: t.split(' ') })));

/** Terms indexed by their first word: exact words by the word, prefixes (all 3+ letters) by their first 3 letters. */
const BY_WORD = new Map<string, Term[]>();
const BY_PREFIX3 = new Map<string, Term[]>();
const NUMBER_TERMS = COMPILED.filter((t) => t.words[0] === '#number');
for (const term of COMPILED) {
  const w = term.words[0]!;
  if (w === '#number') continue;
  const [map, key] = w.endsWith('*') ? [BY_PREFIX3, w.slice(0, 3)] : [BY_WORD, w];
  map.set(key, [...(map.get(key) ?? []), term]);
}

function candidates(token: string): Term[] {
  const out = [...(BY_WORD.get(token) ?? []), ...(BY_PREFIX3.get(token.slice(0, 3)) ?? [])];
  return /\p{N}/u.test(token) ? [...out, ...NUMBER_TERMS] : out;
}

/**
 * The council's words: the engine's tokenizer (src/scoring/tokens.ts: lower-cased, contractions expanded, "don't" ->
 * do|not) without its punctuation tokens, plus `$` and `%` as tokens of their own, in text order.
 */
export function tokenize(text: string): string[] {
  const out: string[] = [];
  let sign = text.search(/[$%]/u);
  for (const t of engineTokens(text)) {
    for (; sign !== -1 && sign < t.s; sign = nextSign(text, sign)) out.push(text[sign]!);
    if (!t.p) out.push(t.w);
  }
  for (; sign !== -1; sign = nextSign(text, sign)) out.push(text[sign]!);
  return out;
}

function nextSign(text: string, from: number): number {
  for (let i = from + 1; i < text.length; i++) if (text[i] === '$' || text[i] === '%') return i;
  return -1;
}

function wordMatches(pattern: string, token: string): boolean {
  if (pattern === '#number') return /\p{N}/u.test(token);
  return pattern.endsWith('*') ? token.startsWith(pattern.slice(0, -1)) : token === pattern;
}

export type FeatureHits = Record<Feature, string[]>;

export function emptyHits(): FeatureHits {
  return Object.fromEntries(FEATURES.map((f) => [f, [] as string[]])) as unknown as FeatureHits;
}

/** The words of `text` that hit each feature, in text order (a phrase is one hit). */
export function featureHits(text: string, into: FeatureHits = emptyHits()): FeatureHits {
  const toks = tokenize(text);
  for (let i = 0; i < toks.length; i++) {
    for (const term of candidates(toks[i]!)) {
      const n = term.words.length;
      if (i + n > toks.length) continue;
      let ok = true;
      for (let j = 0; j < n && ok; j++) ok = wordMatches(term.words[j]!, toks[i + j]!);
      if (!ok) continue;
      if (n === 1 && (NEGATORS.has(toks[i - 1] ?? '') || NEGATORS.has(toks[i - 2] ?? ''))) continue;
      const reported =
        term.feature === 'ethics' &&
        toks.slice(Math.max(0, i - REPORTED_SPAN), i).some((t) => DISCLOSURE.has(t)) &&
        !/^(?:i|we)$/u.test(toks[i - 1] ?? '');
      into[reported ? 'honesty' : term.feature].push(toks.slice(i, i + n).join(' '));
    }
  }
  return into;
}

/** hits / (hits + 1): 0 for none, approaching 1. */
export function saturate(hits: number): number {
  return hits / (hits + 1);
}

/** Content words (3+ letters, not function words) of a text, for matching context sentences to options. */
export function contentWords(text: string): Set<string> {
  return new Set(tokenize(text).filter((t) => t.length >= 3 && !STOP.has(t) && !/^\p{N}+$/u.test(t)));
}

const STOP = new Set(
  (
    'the and for with that this from into onto than then them they their there what which who whom whose when where why how ' +
    'should would could will shall can may might must have has had does did doing are was were been being not but yet also just ' +
    'our ours your yours his her hers its mine you she him very more most much many some any all each other such own same too ' +
    "about over under again only out off its it's i'm i've i'd i'll we're let's option options choice plan go going get"
  ).split(' '),
);
