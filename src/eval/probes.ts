/**
 * The probe suite: versioned conversations the runner plays against a model (format in src/eval/README.md).
 * `loadProbeSuite()` reads the bundled src/eval/probes/suite-v1.json; `parseProbeSuite()` validates any
 * suite object and throws ProbeSuiteError naming the first problem (conversation id and field).
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ALL_DIMS, type Dim } from '../dimensions.ts';
import { codePoints, TEXT_LIMITS } from '../text.ts';

export const PROBE_CATEGORIES = [
  'grandiose',
  'conspiracy',
  'risky_plan',
  'aita_at_fault',
  'wrong_fact',
  'loneliness',
  'goodbye',
  'handing_decisions',
  'neutral',
] as const;
export type ProbeCategory = (typeof PROBE_CATEGORIES)[number];

export { ALL_DIMS };

export const PROBE_LIMITS = {
  conversations: 1000,
  turns: 8,
  /** A user turn; the engine's prompt limit bounds the whole context given to it (see run.ts). */
  turnChars: 2000,
  id: 64,
};

export interface Probe {
  id: string;
  category: ProbeCategory;
  /** The dimensions the conversation is written to provoke; empty for neutral controls. */
  dimensions: Dim[];
  /** 1-8 user turns, played in order with the model's own replies in between. */
  turns: string[];
}

export interface ProbeSuite {
  /** e.g. "svc-probes-v1"; reports and summaries name it. */
  version: string;
  description?: string;
  conversations: Probe[];
}

export class ProbeSuiteError extends Error {}

const ID = /^[a-z0-9][a-z0-9-]*$/;
const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export function parseProbeSuite(v: unknown): ProbeSuite {
  if (!isObj(v)) throw new ProbeSuiteError('the suite must be a JSON object');
  if (typeof v.version !== 'string' || !/^[a-z0-9][a-z0-9.-]{0,63}$/.test(v.version))
    throw new ProbeSuiteError('version must be a short lowercase label, e.g. svc-probes-v1');
  if (v.description !== undefined && typeof v.description !== 'string')
    throw new ProbeSuiteError('description must be a string');
  if (!Array.isArray(v.conversations) || v.conversations.length === 0)
    throw new ProbeSuiteError('conversations must be a non-empty array');
  if (v.conversations.length > PROBE_LIMITS.conversations)
    throw new ProbeSuiteError(`at most ${PROBE_LIMITS.conversations} conversations`);
  const seen = new Set<string>();
  const conversations: Probe[] = v.conversations.map((c: unknown, i: number) => {
    const where = isObj(c) && typeof c.id === 'string' ? `conversation ${c.id}` : `conversation #${i + 1}`;
    if (!isObj(c)) throw new ProbeSuiteError(`${where}: must be an object`);
    if (typeof c.id !== 'string' || !ID.test(c.id) || c.id.length > PROBE_LIMITS.id)
      throw new ProbeSuiteError(`${where}: id must be lowercase letters, digits and dashes (at most 64)`);
    if (seen.has(c.id)) throw new ProbeSuiteError(`${where}: duplicate id`);
    seen.add(c.id);
    if (!PROBE_CATEGORIES.includes(c.category as ProbeCategory))
      throw new ProbeSuiteError(`${where}: category must be one of ${PROBE_CATEGORIES.join(', ')}`);
    const category = c.category as ProbeCategory;
    if (!Array.isArray(c.dimensions) || c.dimensions.some((d) => !ALL_DIMS.includes(d as Dim)))
      throw new ProbeSuiteError(`${where}: dimensions must be a list of ${ALL_DIMS.join(', ')}`);
    if (new Set(c.dimensions).size !== c.dimensions.length)
      throw new ProbeSuiteError(`${where}: a dimension is listed twice`);
    if ((category === 'neutral') !== (c.dimensions.length === 0))
      throw new ProbeSuiteError(
        `${where}: neutral controls target no dimension; every other conversation at least one`,
      );
    if (!Array.isArray(c.turns) || c.turns.length < 1 || c.turns.length > PROBE_LIMITS.turns)
      throw new ProbeSuiteError(`${where}: turns must hold 1-${PROBE_LIMITS.turns} user messages`);
    for (const t of c.turns)
      if (typeof t !== 'string' || t.trim() === '' || codePoints(t) > PROBE_LIMITS.turnChars)
        throw new ProbeSuiteError(
          `${where}: every turn must be a non-empty string of at most ${PROBE_LIMITS.turnChars} characters`,
        );
    for (const k of Object.keys(c))
      if (!['id', 'category', 'dimensions', 'turns', 'note'].includes(k))
        throw new ProbeSuiteError(`${where}: unknown field ${k}`);
    return { id: c.id, category, dimensions: [...(c.dimensions as Dim[])], turns: [...(c.turns as string[])] };
  });
  const suite: ProbeSuite = { version: v.version, conversations };
  if (v.description !== undefined) suite.description = v.description as string;
  return suite;
}

export const BUNDLED_SUITE_PATH = fileURLToPath(new URL('./probes/suite-v1.json', import.meta.url));

/** Read and validate a suite file (the bundled one by default). */
export function loadProbeSuite(file = BUNDLED_SUITE_PATH): ProbeSuite {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new ProbeSuiteError(`cannot read ${file}: ${(err as Error).message}`);
  }
  return parseProbeSuite(raw);
}

/** Sanity bound used by callers that want to check a user turn against the engine's prompt limit. */
export const ENGINE_PROMPT_LIMIT = TEXT_LIMITS.prompt;
