/**
 * The evaluation runner: plays every conversation of a probe suite against a model, scores every reply with
 * the engine and the optional LLM judges, and summarises (see src/eval/README.md for the decisions).
 *
 * - Each conversation is played turn by turn: user turn 1, the model's reply, user turn 2 with the whole
 *   conversation so far (the model's own replies in the context), and so on.
 * - Engine scoring of reply k: `scoreText({prompt, response: reply k})` where `prompt` is the user turns
 *   1..k joined by blank lines (the current turn last), cut from the front to the engine's prompt limit.
 *   scoreText takes one prompt string; the user's earlier turns carry the premise, the described action and
 *   the stakes that the engine's prompt profile and context gates look for (a judgement request in turn 4 about
 *   an action told in turn 2). The model's earlier replies are left out: the profile's cues are written for
 *   user text, and the reply repeating its own earlier phrases would be masked as an echo of the prompt.
 * - Judges see the whole conversation up to the reply they judge (judges.ts).
 * - A conversation whose model call fails after the client's retries, or which returns an empty reply, is
 *   recorded with `error` (and the turns played so far) and left out of every score. It is never a crash.
 * - Resume: results in `done` are reused as they are, never re-run or re-scored; `onConversation` is awaited
 *   before a conversation counts as done (a store can persist it first). An error thrown by onConversation
 *   stops the run and rejects it: a result that cannot be kept must not be reported as done.
 * - `signal` aborting stops the run: nothing more is started, calls in flight are aborted, and the promise
 *   rejects with the signal's reason; conversations finished before that were already handed to onConversation.
 * - Early stop: when the first EARLY_STOP_FAILURES conversations to finish all failed on their first turn and no
 *   conversation of the run (or of `done`) got a reply, the endpoint does not answer (an unknown host, a refused
 *   connection, a rejected key) and every other conversation would fail the same way: nothing more is started,
 *   calls in flight are aborted and the run resolves with what it has (the worker then fails the job with the
 *   first failure as its reason, in seconds instead of after every conversation's retries).
 *
 * Caps per run (EVAL_LIMITS): concurrency 1-64 conversations at once (default 4; the client's per-endpoint cap
 * applies as well), at most 800 tokens asked per reply, a reply kept to 20,000 characters, at most 5 LLM judges,
 * at most `maxCalls` chat calls (model and judges together, default 10,000), and `maxRunMs` of wall time
 * (default 2 hours). A conversation that cannot start or finish within the call budget or the time limit is
 * recorded as failed with that reason. The client bounds each call (timeout, retries, response size).
 */
import { setMaxListeners } from 'node:events';
import { crossJudgeKappa, KAPPA_GATE, type JudgeScores } from '../domain/ingest.ts';
import { aggregateScores, type TranscriptScores } from '../domain/reports.ts';
import { type ChatClient, type ChatMessage, LlmError } from '../llm/client.ts';
import { ENGINE, scoreText } from '../scoring/engine.ts';
import { type Dim, PAI_DIMS, type PaiDim, type Risk, round2, SYCO_DIMS, type SycoDim } from '../scoring/types.ts';
import { TEXT_LIMITS } from '../text.ts';
import { createJudge, JUDGE_LIMITS, type JudgeConfig, type JudgeVerdict, judgeReply } from './judges.ts';
import type { Probe, ProbeCategory, ProbeSuite } from './probes.ts';

export type { JudgeConfig } from './judges.ts';

export const EVAL_LIMITS = {
  concurrency: 64,
  defaultConcurrency: 4,
  replyMaxTokens: 800,
  replyChars: 20_000,
  judges: JUDGE_LIMITS.judges,
  maxCalls: 10_000,
  maxRunMs: 2 * 60 * 60 * 1000,
  /** Evidence quotes kept per reply (the strongest first). */
  evidencePerReply: 5,
  worst: 5,
};

export interface EvidenceItem {
  dim: Dim;
  quote: string;
  signal: string;
  strength: number;
  /** UTF-16 offsets of the quote in the reply (absent in results kept before they were recorded). */
  start?: number;
  end?: number;
}

/** The engine's scores of one reply (unrounded) and its strongest positive evidence. */
export interface ReplyScores extends TranscriptScores {
  /** Number of positive evidence items over the ten dimensions. */
  evidenceCount: number;
  evidence: EvidenceItem[];
}

export interface ConversationResult {
  probeId: string;
  category: ProbeCategory;
  turns: { user: string; reply: string }[];
  /** One per reply, in turn order. */
  engine: ReplyScores[];
  /** Per LLM judge, one entry per reply: its verdict, or null when its answer was left out. */
  judges: Record<string, (JudgeVerdict | null)[]>;
  /** Per LLM judge, replies left out (malformed twice, or the call failed). */
  judgeFailures: Record<string, number>;
  usage: { calls: number; promptTokens: number; completionTokens: number; modelMs: number; scoringMs: number };
  /** Set when the conversation failed; its replies then count in no score. */
  error?: string;
}

export interface RunEvaluationOptions {
  client: ChatClient;
  suite: ProbeSuite;
  judges?: JudgeConfig[];
  concurrency?: number;
  /** Resume: these are reused, never re-run or re-scored. */
  done?: ReadonlyMap<string, ConversationResult>;
  /** Called (and awaited) as each conversation finishes, before it counts as done. */
  onConversation?: (r: ConversationResult) => Promise<void>;
  onProgress?: (p: { done: number; total: number; failed: number }) => void;
  signal?: AbortSignal;
  maxCalls?: number;
  maxRunMs?: number;
}

export class EvalOptionsError extends Error {}

/** The engine's prompt for reply k: user turns 1..k, the current one last, cut from the front to the limit. */
export function engineContext(userTurns: readonly string[], k: number): string {
  let prompt = userTurns.slice(0, k + 1).join('\n\n');
  const chars = [...prompt];
  if (chars.length > TEXT_LIMITS.prompt) prompt = chars.slice(chars.length - TEXT_LIMITS.prompt).join('');
  return prompt;
}

function clip(s: string, max: number): string {
  const chars = [...s];
  return chars.length > max ? chars.slice(0, max).join('') : s;
}

/** Score one reply with the engine, keeping the strongest positive evidence. */
export function scoreReply(userTurns: readonly string[], k: number, reply: string): ReplyScores {
  const r = scoreText({ prompt: engineContext(userTurns, k), response: clip(reply, TEXT_LIMITS.response) });
  const all: EvidenceItem[] = [];
  for (const [dims, group] of [
    [SYCO_DIMS, r.sycophancy.dimensions],
    [PAI_DIMS, r.pai.dimensions],
  ] as const) {
    for (const d of dims) {
      for (const e of (
        group as Record<
          Dim,
          { evidence: { quote: string; signal: string; sign: number; strength: number; start: number; end: number }[] }
        >
      )[d].evidence) {
        if (e.sign > 0)
          all.push({ dim: d, quote: e.quote, signal: e.signal, strength: e.strength, start: e.start, end: e.end });
      }
    }
  }
  all.sort((a, b) => b.strength - a.strength || a.quote.localeCompare(b.quote));
  // the strongest item of each dimension first, so that one reply's evidence shows every dimension it raised
  const firstOfDim = all.filter((x, i) => all.findIndex((y) => y.dim === x.dim) === i);
  const picked = [...firstOfDim, ...all.filter((x) => !firstOfDim.includes(x))];
  return {
    syco: Object.fromEntries(SYCO_DIMS.map((d) => [d, r.sycophancy.dimensions[d].score])) as Record<SycoDim, number>,
    pai: Object.fromEntries(PAI_DIMS.map((d) => [d, r.pai.dimensions[d].score])) as Record<PaiDim, number>,
    evidenceCount: all.length,
    evidence: picked.slice(0, EVAL_LIMITS.evidencePerReply),
  };
}

function checkOptions(o: RunEvaluationOptions) {
  const concurrency = o.concurrency ?? EVAL_LIMITS.defaultConcurrency;
  if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > EVAL_LIMITS.concurrency)
    throw new EvalOptionsError(`concurrency must be an integer from 1 to ${EVAL_LIMITS.concurrency}`);
  const judges = o.judges ?? [];
  if (judges.length > EVAL_LIMITS.judges) throw new EvalOptionsError(`at most ${EVAL_LIMITS.judges} LLM judges`);
  const names = new Set<string>();
  for (const j of judges) {
    if (!j.name || j.name.length > JUDGE_LIMITS.name || names.has(j.name) || j.name.startsWith(ENGINE.name))
      throw new EvalOptionsError('judge names must be unique, 1-100 characters, and not the engine name');
    names.add(j.name);
  }
  return { concurrency, judges };
}

/** First-turn failures, with no reply anywhere in the run, after which it stops (see the module header). */
export const EARLY_STOP_FAILURES = 5;

export async function runEvaluation(o: RunEvaluationOptions): Promise<ConversationResult[]> {
  const { concurrency, judges: judgeConfigs } = checkOptions(o);
  const judges = judgeConfigs.map(createJudge);
  const probes = o.suite.conversations;
  const results = new Map<string, ConversationResult>();
  for (const p of probes) {
    const prior = o.done?.get(p.id);
    if (prior) results.set(p.id, prior);
  }
  const todo = probes.filter((p) => !results.has(p.id));
  const total = probes.length;
  let failed = [...results.values()].filter((r) => r.error !== undefined).length;
  let answered = [...results.values()].filter((r) => r.turns.length > 0).length;
  let firstTurnFailures = 0;
  const progress = () => o.onProgress?.({ done: results.size, total, failed });
  progress();

  const maxCalls = o.maxCalls ?? EVAL_LIMITS.maxCalls;
  const maxRunMs = o.maxRunMs ?? EVAL_LIMITS.maxRunMs;
  const stop = new AbortController(); // aborts calls in flight: caller's abort, a failed onConversation
  const onOuterAbort = () => stop.abort(o.signal!.reason);
  if (o.signal?.aborted) throw o.signal.reason;
  o.signal?.addEventListener('abort', onOuterAbort, { once: true });
  const deadline = new AbortController();
  const deadlineTimer = setTimeout(
    () => deadline.abort(new Error(`the run's time limit of ${maxRunMs} ms was reached`)),
    maxRunMs,
  );
  const callSignal = AbortSignal.any([stop.signal, deadline.signal]);
  // Every call of the run waits on this one signal (queued calls hold a listener each): no listener cap.
  setMaxListeners(0, callSignal);
  let calls = 0;
  const budget = { take: () => (calls < maxCalls ? (calls++, true) : false) };

  let next = 0;
  let fatal: unknown;
  const worker = async () => {
    while (next < todo.length && !stop.signal.aborted) {
      const probe = todo[next++]!;
      const r = await playConversation(probe, o.client, judges, budget, callSignal, deadline.signal);
      if (stop.signal.aborted) return; // an abort mid-conversation: not done, not reported
      try {
        await o.onConversation?.(r);
      } catch (err) {
        fatal ??= err;
        stop.abort(err);
        return;
      }
      results.set(r.probeId, r);
      if (r.error !== undefined) failed += 1;
      if (r.turns.length > 0) answered += 1;
      else if (r.error !== undefined) firstTurnFailures += 1;
      progress();
      if (answered === 0 && firstTurnFailures >= EARLY_STOP_FAILURES)
        stop.abort(new Error(`the first ${EARLY_STOP_FAILURES} conversations all failed on their first turn`));
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(concurrency, Math.max(1, todo.length)) }, worker));
  } finally {
    clearTimeout(deadlineTimer);
    o.signal?.removeEventListener('abort', onOuterAbort);
  }
  if (fatal !== undefined) throw fatal;
  if (o.signal?.aborted) throw o.signal.reason;
  return probes.flatMap((p) => (results.has(p.id) ? [results.get(p.id)!] : []));
}

async function playConversation(
  probe: Probe,
  client: ChatClient,
  judges: ReturnType<typeof createJudge>[],
  budget: { take(): boolean },
  signal: AbortSignal,
  deadline: AbortSignal,
): Promise<ConversationResult> {
  const result: ConversationResult = {
    probeId: probe.id,
    category: probe.category,
    turns: [],
    engine: [],
    judges: Object.fromEntries(judges.map((j) => [j.name, []])),
    judgeFailures: Object.fromEntries(judges.map((j) => [j.name, 0])),
    usage: { calls: 0, promptTokens: 0, completionTokens: 0, modelMs: 0, scoringMs: 0 },
  };
  const fail = (why: string) => {
    result.error = why;
    result.engine = [];
    result.judges = Object.fromEntries(judges.map((j) => [j.name, []]));
    return result;
  };
  const messages: ChatMessage[] = [];
  for (let k = 0; k < probe.turns.length; k++) {
    if (deadline.aborted) return fail(`turn ${k + 1}: ${(deadline.reason as Error).message}`);
    if (!budget.take()) return fail(`turn ${k + 1}: the run's budget of chat calls is spent`);
    messages.push({ role: 'user', content: probe.turns[k]! });
    let reply: string;
    try {
      const r = await client.chat({ messages: [...messages], maxTokens: EVAL_LIMITS.replyMaxTokens, signal });
      result.usage.calls += 1;
      result.usage.promptTokens += r.usage.promptTokens;
      result.usage.completionTokens += r.usage.completionTokens;
      result.usage.modelMs += r.ms;
      reply = clip(r.content, EVAL_LIMITS.replyChars);
    } catch (err) {
      result.usage.calls += 1;
      if (err instanceof LlmError) return fail(`turn ${k + 1}: ${err.kind}: ${err.message}`);
      if (deadline.aborted) return fail(`turn ${k + 1}: ${(deadline.reason as Error).message}`);
      if (signal.aborted) return result; // the run is stopping; the caller drops this result
      return fail(`turn ${k + 1}: ${(err as Error)?.message ?? String(err)}`);
    }
    if (reply.trim() === '') return fail(`turn ${k + 1}: empty reply`);
    messages.push({ role: 'assistant', content: reply });
    result.turns.push({ user: probe.turns[k]!, reply });
    const t0 = performance.now();
    result.engine.push(scoreReply(probe.turns, k, reply));
    result.usage.scoringMs += performance.now() - t0;
  }
  // Judges: every reply with the conversation up to it; each judge's client caps its own concurrency.
  await Promise.all(
    judges.map(async (j) => {
      const verdicts = await Promise.all(
        result.turns.map(async (_t, k) => {
          if (signal.aborted || deadline.aborted || !budget.take()) return null;
          const out = await judgeReply(j, result.turns.slice(0, k + 1), signal, budget.take).catch(() => null);
          return out?.ok ? out.verdict : null;
        }),
      );
      result.judges[j.name] = verdicts;
      result.judgeFailures[j.name] = verdicts.filter((v) => v === null).length;
    }),
  );
  return result;
}

// ---------------------------------------------------------------- summary

export interface ScoreBlock {
  sycophancy: { honesty: number; dimensions: Record<SycoDim, number> };
  pai: { composite: number; risk: Risk; dimensions: Record<PaiDim, number> };
}

export interface WorstReply {
  probeId: string;
  turn: number;
  user: string;
  reply: string;
  evidenceCount: number;
  evidence: EvidenceItem[];
}

export interface EvalSummary extends ScoreBlock {
  model: string;
  probes: { version: string; conversations: number; replies: number; failed: number };
  /** The engine first, then every LLM judge that gave at least one verdict. */
  judges: string[];
  /** Cross-judge kappa as `svc ingest` computes it; null with a single judge. */
  kappa: number | null;
  /** The 0.700 publication gate; null when there is no kappa (one judge). */
  gate: { threshold: number; passed: boolean } | null;
  /** Per judge (the engine included): its own scores over the replies it judged. */
  perJudge: Record<string, ScoreBlock & { replies: number; failures: number }>;
  categories: Partial<
    Record<ProbeCategory, { conversations: number; replies: number; honesty: number; composite: number }>
  >;
  failures: { probeId: string; error: string }[];
  usage: { calls: number; promptTokens: number; completionTokens: number };
  worst: WorstReply[];
}

/** No scored reply: zeros (and honesty 0, so that nothing reads as a clean result); `replies: 0` says why. */
const EMPTY_BLOCK: ScoreBlock = {
  sycophancy: { honesty: 0, dimensions: Object.fromEntries(SYCO_DIMS.map((d) => [d, 0])) as Record<SycoDim, number> },
  pai: {
    composite: 0,
    risk: 'low',
    dimensions: Object.fromEntries(PAI_DIMS.map((d) => [d, 0])) as Record<PaiDim, number>,
  },
};

function block(ts: TranscriptScores[]): ScoreBlock {
  if (ts.length === 0) return EMPTY_BLOCK;
  const a = aggregateScores(ts);
  const r = (rec: Record<string, number>) => Object.fromEntries(Object.entries(rec).map(([k, v]) => [k, round2(v)]));
  return {
    sycophancy: { honesty: round2(a.honesty), dimensions: r(a.syco) as Record<SycoDim, number> },
    pai: { composite: round2(a.composite), risk: a.risk, dimensions: r(a.pai) as Record<PaiDim, number> },
  };
}

/**
 * Summarise results (pure: the same results in any order give the same summary). Scores are the means over
 * the scored replies of the successful conversations, with the formulas of a certified report
 * (aggregateScores); failed conversations count only in `failed` and `failures`.
 */
export function summarizeEvaluation(
  results: readonly ConversationResult[],
  suite: ProbeSuite,
  meta: { model: string; engine?: { name: string; version: string } },
): EvalSummary {
  const engine = meta.engine ?? ENGINE;
  const engineJudge = `${engine.name} ${engine.version}`;
  const order = new Map(suite.conversations.map((c, i) => [c.id, i]));
  const sorted = [...results]
    .filter((r) => order.has(r.probeId))
    .sort((a, b) => order.get(a.probeId)! - order.get(b.probeId)!);
  const ok = sorted.filter((r) => r.error === undefined);
  const replies = ok.flatMap((r) => r.engine);

  const llmJudges = [...new Set(ok.flatMap((r) => Object.keys(r.judges)))].sort();
  const perJudge: EvalSummary['perJudge'] = {
    [engineJudge]: { ...block(replies), replies: replies.length, failures: 0 },
  };
  const kappaRows: { engine: JudgeScores; others?: Record<string, JudgeScores> }[] = [];
  for (const r of ok)
    r.engine.forEach((e, k) => {
      const others: Record<string, JudgeScores> = {};
      for (const j of llmJudges) {
        const v = r.judges[j]?.[k];
        if (v) others[j] = Object.fromEntries(SYCO_DIMS.map((d) => [d, v.scores[d]])) as JudgeScores;
      }
      kappaRows.push({ engine: e.syco, others });
    });
  const activeJudges: string[] = [];
  for (const j of llmJudges) {
    const ts: TranscriptScores[] = [];
    let failures = 0;
    for (const r of ok)
      for (const v of r.judges[j] ?? []) {
        if (v) ts.push(toTranscript(v));
        else failures += 1;
      }
    perJudge[j] = { ...block(ts), replies: ts.length, failures };
    if (ts.length > 0) activeJudges.push(j);
  }
  const kappaRaw = crossJudgeKappa(kappaRows, engineJudge);
  const kappa = kappaRaw === undefined ? null : Math.round(kappaRaw * 1000) / 1000;

  const categories: EvalSummary['categories'] = {};
  for (const cat of [...new Set(ok.map((r) => r.category))]) {
    const rs = ok.filter((r) => r.category === cat);
    const b = block(rs.flatMap((r) => r.engine));
    categories[cat] = {
      conversations: rs.length,
      replies: rs.reduce((s, r) => s + r.engine.length, 0),
      honesty: b.sycophancy.honesty,
      composite: b.pai.composite,
    };
  }

  const worst: WorstReply[] = ok
    .flatMap((r) =>
      r.engine.map((e, k) => ({
        probeId: r.probeId,
        turn: k + 1,
        user: r.turns[k]!.user,
        reply: r.turns[k]!.reply,
        evidenceCount: e.evidenceCount,
        evidence: e.evidence,
        weight: e.evidence.reduce((s, x) => s + x.strength, 0),
      })),
    )
    .filter((w) => w.evidenceCount > 0)
    .sort(
      (a, b) =>
        b.evidenceCount - a.evidenceCount ||
        b.weight - a.weight ||
        order.get(a.probeId)! - order.get(b.probeId)! ||
        a.turn - b.turn,
    )
    .slice(0, EVAL_LIMITS.worst)
    .map(({ weight: _w, ...w }) => w);

  const usage = { calls: 0, promptTokens: 0, completionTokens: 0 };
  for (const r of sorted) {
    usage.calls += r.usage.calls;
    usage.promptTokens += r.usage.promptTokens;
    usage.completionTokens += r.usage.completionTokens;
  }
  const main = block(replies);
  return {
    model: meta.model,
    probes: {
      version: suite.version,
      conversations: ok.length,
      replies: replies.length,
      failed: sorted.length - ok.length,
    },
    ...main,
    judges: [engineJudge, ...activeJudges],
    kappa,
    gate: kappa === null ? null : { threshold: KAPPA_GATE, passed: kappa >= KAPPA_GATE },
    perJudge,
    categories,
    failures: sorted.filter((r) => r.error !== undefined).map((r) => ({ probeId: r.probeId, error: r.error! })),
    usage,
    worst,
  };
}

function toTranscript(v: JudgeVerdict): TranscriptScores {
  return {
    syco: Object.fromEntries(SYCO_DIMS.map((d) => [d, v.scores[d]])) as Record<SycoDim, number>,
    pai: Object.fromEntries(PAI_DIMS.map((d) => [d, v.scores[d]])) as Record<PaiDim, number>,
  };
}
