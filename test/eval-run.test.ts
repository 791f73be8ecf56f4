import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { parseVerdict } from '../src/eval/judges.ts';
import { loadProbeSuite, type ProbeSuite } from '../src/eval/probes.ts';
import {
  type ConversationResult,
  EARLY_STOP_FAILURES,
  engineContext,
  type JudgeConfig,
  runEvaluation,
  summarizeEvaluation,
} from '../src/eval/run.ts';
import { createChatClient } from '../src/llm/client.ts';
import { type FakeHandler, type FakeOpenAI, startFakeOpenAI } from './fake-openai.ts';
import { agreeingJudge, alarmedJudge, blindJudge, companion, flatterer, honest } from './fake-models.ts';

const servers: FakeOpenAI[] = [];
after(async () => {
  for (const s of servers) await s.close();
});
async function fake(h: FakeHandler) {
  const s = await startFakeOpenAI(h);
  servers.push(s);
  return s;
}
const client = (s: FakeOpenAI, extra: Partial<Parameters<typeof createChatClient>[0]> = {}) =>
  createChatClient({ baseUrl: s.url, model: 'fake', allowPrivate: true, ...extra });

const full = loadProbeSuite();
/** Two conversations per category, so every kind of probe is played and the tests stay quick. */
const suite: ProbeSuite = {
  version: full.version,
  conversations: [...new Set(full.conversations.map((c) => c.category))].flatMap((cat) =>
    full.conversations.filter((c) => c.category === cat).slice(0, 2),
  ),
};
const replies = suite.conversations.reduce((s, c) => s + c.turns.length, 0);

async function evaluate(h: FakeHandler, judges?: JudgeConfig[]) {
  const s = await fake(h);
  const results = await runEvaluation({ client: client(s), suite, judges, concurrency: 4 });
  return { s, results, summary: summarizeEvaluation(results, suite, { model: 'fake' }) };
}

describe('runEvaluation with fake models', () => {
  test('ranks an honest model well above a flatterer on honesty, and a clingy companion highest on PAI', async () => {
    const [f, h, c] = await Promise.all([evaluate(flatterer), evaluate(honest), evaluate(companion)]);
    for (const x of [f, h, c]) {
      assert.equal(x.summary.probes.version, 'svc-probes-v1');
      assert.equal(x.summary.probes.conversations, suite.conversations.length);
      assert.equal(x.summary.probes.replies, replies);
      assert.equal(x.summary.probes.failed, 0);
      assert.deepEqual(x.summary.judges.length, 1, 'the engine is the only judge');
      assert.equal(x.summary.kappa, null);
      assert.equal(x.summary.gate, null);
    }
    assert.ok(
      h.summary.sycophancy.honesty >= f.summary.sycophancy.honesty + 15,
      `honest ${h.summary.sycophancy.honesty} vs flatterer ${f.summary.sycophancy.honesty}`,
    );
    assert.ok(f.summary.sycophancy.dimensions.ev > h.summary.sycophancy.dimensions.ev);
    assert.ok(c.summary.pai.composite > f.summary.pai.composite + 3);
    assert.ok(c.summary.pai.composite > h.summary.pai.composite + 3);
    assert.equal(c.summary.pai.risk, 'high');
    assert.equal(h.summary.pai.risk, 'low');
    assert.equal(c.summary.worst.length, 5);
    assert.ok(c.summary.worst[0]!.evidence.some((e) => e.dim === 'bnd' || e.dim === 'exl' || e.dim === 'dep'));
    assert.ok(c.summary.worst.every((w) => c.results.some((r) => r.turns[w.turn - 1]?.reply === w.reply)));
  });

  test("plays each conversation turn by turn with the model's own replies in the context", async () => {
    const { s, results } = await evaluate(flatterer);
    const probe = suite.conversations.find((c) => c.turns.length >= 3)!;
    const sent = s.requests.filter((r) => r.body.messages?.[0]?.content === probe.turns[0]);
    assert.equal(sent.length, probe.turns.length);
    const last = sent.find((r) => r.body.messages!.length === probe.turns.length * 2 - 1)!;
    const result = results.find((r) => r.probeId === probe.id)!;
    assert.deepEqual(
      last.body.messages,
      result.turns.flatMap((t, i) =>
        i < probe.turns.length - 1
          ? [
              { role: 'user', content: t.user },
              { role: 'assistant', content: t.reply },
            ]
          : [{ role: 'user', content: t.user }],
      ),
    );
    assert.equal(result.engine.length, probe.turns.length);
    assert.equal(last.body.max_tokens, 800);
  });

  test('the engine sees the earlier user turns as context, the current turn last', () => {
    assert.equal(engineContext(['a', 'b', 'c'], 1), 'a\n\nb');
    const long = engineContext(['x'.repeat(9000), 'y'.repeat(1500)], 1);
    assert.equal(long.length, 10000);
    assert.ok(long.endsWith('y'.repeat(1500)));
  });

  test('honours Retry-After on 429 and finishes without failures', async () => {
    let n = 0;
    const s = await fake((req) => (n++ === 0 ? { status: 429, headers: { 'retry-after': '1' } } : honest(req, n)));
    const small = { ...suite, conversations: suite.conversations.slice(0, 2) };
    const results = await runEvaluation({ client: client(s), suite: small });
    assert.equal(results.filter((r) => r.error).length, 0);
    assert.equal(s.requests.length, small.conversations.reduce((t, c) => t + c.turns.length, 0) + 1);
  });

  test('a model that times out, or answers malformed bodies, is reported per conversation, never a crash', async () => {
    const slowFor = suite.conversations[0]!.turns[0]!;
    const badFor = suite.conversations[1]!.turns[0]!;
    const s = await fake((req, i) => {
      const first = req.body.messages?.[0]?.content;
      if (first === slowFor) return { content: 'late', delayMs: 5000 };
      if (first === badFor) return { body: i % 2 ? '{"choices": [' : '<html>oops</html>' };
      return honest(req, i);
    });
    const progress: number[] = [];
    const results = await runEvaluation({
      client: client(s, { timeoutMs: 1000, retries: 1 }),
      suite,
      onProgress: (p) => progress.push(p.failed),
    });
    const summary = summarizeEvaluation(results, suite, { model: 'fake' });
    assert.equal(results.length, suite.conversations.length);
    assert.match(results[0]!.error!, /^turn 1: timeout/);
    assert.match(results[1]!.error!, /^turn 1: malformed/);
    assert.equal(summary.probes.failed, 2);
    assert.equal(summary.probes.conversations, suite.conversations.length - 2);
    assert.deepEqual(
      summary.failures.map((f) => f.probeId),
      [suite.conversations[0]!.id, suite.conversations[1]!.id],
    );
    assert.equal(progress.at(-1), 2);
    assert.equal(s.requests.filter((r) => r.body.messages?.[0]?.content === slowFor).length, 2, 'retried once');
  });

  test('resume: conversations in `done` are reused, never re-run, and the summary is the same', async () => {
    const whole = await evaluate(honest);
    const half = new Map(whole.results.slice(0, 5).map((r) => [r.probeId, r]));
    const s = await fake(honest);
    const seen: string[] = [];
    const resumed = await runEvaluation({
      client: client(s),
      suite,
      done: half,
      onConversation: async (r) => {
        seen.push(r.probeId);
      },
    });
    const playedFirst = new Set(s.requests.map((r) => r.body.messages?.[0]?.content));
    for (const r of half.values()) {
      assert.ok(!seen.includes(r.probeId));
      assert.ok(!playedFirst.has(suite.conversations.find((c) => c.id === r.probeId)!.turns[0]));
    }
    assert.equal(seen.length, suite.conversations.length - 5);
    const strip = (x: ReturnType<typeof summarizeEvaluation>) => ({ ...x, usage: null });
    assert.deepEqual(strip(summarizeEvaluation(resumed, suite, { model: 'fake' })), strip(whole.summary));
  });

  test('the summary is pure and order-independent', async () => {
    const { results, summary } = await evaluate(flatterer);
    const shuffled = [...results].reverse();
    assert.deepEqual(summarizeEvaluation(shuffled, suite, { model: 'fake' }), summary);
  });

  test('an abort stops the run and rejects; an onConversation error stops it too', async () => {
    const s = await fake((req) => ({ content: String(honest(req, 0)), delayMs: 50 }));
    const ac = new AbortController();
    const finished: ConversationResult[] = [];
    await assert.rejects(
      runEvaluation({
        client: client(s),
        suite,
        signal: ac.signal,
        // The lease is lost once the first conversation is saved: an event, not a guess of wall-clock time.
        onConversation: async (r) => {
          finished.push(r);
          ac.abort(new Error('lease lost'));
        },
      }),
      /lease lost/,
    );
    assert.ok(finished.length < suite.conversations.length);
    await assert.rejects(
      runEvaluation({
        client: client(s),
        suite,
        onConversation: async () => {
          throw new Error('disk full');
        },
      }),
      /disk full/,
    );
  });

  test('an endpoint that never answers stops the run after the first few conversations, not after all of them', async () => {
    // a port nothing listens on: every call is refused
    const { createServer } = await import('node:net');
    const srv = createServer();
    await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
    const port = (srv.address() as { port: number }).port;
    await new Promise<void>((r) => srv.close(() => r()));
    const refused = createChatClient({
      baseUrl: `http://127.0.0.1:${port}/v1`,
      model: 'x',
      allowPrivate: true,
      retries: 0,
    });
    const results = await runEvaluation({ client: refused, suite: full, concurrency: 4 });
    assert.ok(results.length >= EARLY_STOP_FAILURES, `${results.length} results`);
    assert.ok(results.length < EARLY_STOP_FAILURES + 4, `${results.length} of ${full.conversations.length} played`);
    for (const r of results) assert.match(r.error ?? '', /^turn 1: /);
    const summary = summarizeEvaluation(results, full, { model: 'x' });
    assert.equal(summary.probes.replies, 0);
  });

  test('fewer first-turn failures than that, then answers: the run plays every conversation', async () => {
    const s = await fake((req, i) => (i < EARLY_STOP_FAILURES - 1 ? { status: 400, body: '{}' } : honest(req, i)));
    const results = await runEvaluation({ client: client(s, { retries: 0 }), suite, concurrency: 1 });
    assert.equal(results.length, suite.conversations.length);
    assert.equal(results.filter((r) => r.error !== undefined).length, EARLY_STOP_FAILURES - 1);
  });

  test('the call budget bounds a run: what cannot be played is failed with the reason', async () => {
    const s = await fake(honest);
    const results = await runEvaluation({ client: client(s), suite, maxCalls: 5, concurrency: 1 });
    assert.equal(s.requests.length, 5);
    assert.ok(results.some((r) => /budget of chat calls/.test(r.error ?? '')));
  });
});

describe('LLM judges', () => {
  const judge = (name: string, s: FakeOpenAI): JudgeConfig => ({
    name,
    baseUrl: s.url,
    model: 'judge',
    allowPrivate: true,
  });

  test('two judges that agree pass the 0.700 gate; per-judge scores are reported', async () => {
    const [a, b] = await Promise.all([fake(agreeingJudge), fake(agreeingJudge)]);
    const { summary } = await evaluate(flatterer, [judge('judge-a', a), judge('judge-b', b)]);
    assert.equal(summary.judges.length, 3);
    assert.deepEqual(summary.judges.slice(1), ['judge-a', 'judge-b']);
    assert.equal(summary.kappa, 1);
    assert.deepEqual(summary.gate, { threshold: 0.7, passed: true });
    assert.equal(summary.perJudge['judge-a']!.replies, replies);
    assert.equal(summary.perJudge['judge-a']!.failures, 0);
    assert.equal(summary.perJudge['judge-a']!.sycophancy.honesty, summary.sycophancy.honesty);
    assert.equal(a.requests.length, replies);
    assert.deepEqual(a.requests[0]!.body.response_format, { type: 'json_object' });
    assert.equal(a.requests[0]!.body.temperature, 0);
  });

  test('two judges that disagree fail the gate', async () => {
    const [a, b] = await Promise.all([fake(blindJudge), fake(alarmedJudge)]);
    const { summary } = await evaluate(flatterer, [judge('blind', a), judge('alarmed', b)]);
    assert.ok(summary.kappa !== null && summary.kappa < 0.7, String(summary.kappa));
    assert.deepEqual(summary.gate, { threshold: 0.7, passed: false });
    assert.equal(summary.perJudge.alarmed!.pai.composite, 9);
    assert.equal(summary.perJudge.blind!.sycophancy.honesty, 100);
  });

  test('a malformed answer is retried once, then left out and counted', async () => {
    const once = new Set<string>();
    const flaky = await fake((req) => {
      const key = req.body.messages?.at(-1)?.content ?? '';
      if (!once.has(key)) {
        once.add(key);
        return 'Sure! Here are my scores: ev 3, me 2';
      }
      return agreeingJudge(req, 0);
    });
    const broken = await fake(() => '{"scores": {"ev": {"score": 11}}}');
    const { summary, results } = await evaluate(flatterer, [judge('flaky', flaky), judge('broken', broken)]);
    assert.equal(flaky.requests.length, 2 * replies, 'every reply asked twice');
    assert.equal(summary.perJudge.flaky!.failures, 0);
    assert.equal(broken.requests.length, 2 * replies);
    assert.equal(summary.perJudge.broken!.failures, replies);
    assert.equal(summary.perJudge.broken!.replies, 0);
    assert.deepEqual(summary.judges.slice(1), ['flaky'], 'a judge that never answered is not claimed');
    assert.equal(results[0]!.judgeFailures.broken, results[0]!.turns.length);
    assert.equal(summary.kappa, 1);
  });

  test('parseVerdict keeps only quotes found in the reply, tolerates a code fence, refuses a missing dimension', () => {
    const reply = 'You are so right.  Totally valid.';
    const dims = ['ev', 'me', 'il', 'ia', 'fa', 'emi', 'exl', 'bnd', 'dep', 'aud'];
    const body = (ev: unknown) =>
      JSON.stringify({
        scores: Object.fromEntries(dims.map((d) => [d, d === 'ev' ? ev : { score: 0, evidence: [] }])),
      });
    const p = parseVerdict(
      `\`\`\`json\n${body({ score: 6, evidence: ['You are so right. Totally', 'made up quote'] })}\n\`\`\``,
      reply,
    );
    assert.ok(p);
    assert.deepEqual(p.verdict.evidence.ev, ['You are so right. Totally']);
    assert.equal(p.unverified, 1);
    assert.equal(p.verdict.scores.ev, 6);
    assert.equal(parseVerdict(body({ score: -1 }), reply), undefined);
    assert.equal(parseVerdict(JSON.stringify({ scores: { ev: { score: 1 } } }), reply), undefined);
    assert.equal(parseVerdict('not json', reply), undefined);
  });
});
