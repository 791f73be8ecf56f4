/**
 * `npm run bench:council`: the time of one model council call (POST /api/council through the app, 12 members,
 * 3 rounds) against a fake OpenAI-compatible model that answers every call after LATENCY_MS (default 300), in its
 * own process so that it does not share the council's event loop.
 *
 * - A question with a stated preference: 48 model calls. The budget counts 4 round-trips (round 1, the extra
 *   round 1 on the original wording, rounds 2 and 3): ideal 4 x LATENCY_MS, target under 1.5 s at 300 ms. At the
 *   default SVC_LLM_CONCURRENCY (24) the extra round runs beside round 1, so 3 round-trips is the floor.
 * - The same without the preference: 36 calls, 3 round-trips.
 * - Baseline in the same run: the bare model client making the same 3 sequential rounds of 24, 12 and 12 calls at
 *   once (no council code), which shows what the client, the fake and this (shared, loaded) machine cost.
 * - The heuristic council on the same question, for scale.
 * BENCH_RUNS sets the runs per case (default 5). Prints median, min and max, and the ratio to the ideal.
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { performance } from 'node:perf_hooks';
import os from 'node:os';
import { createApiKey } from '../src/domain/keys.ts';
import { createChatClient } from '../src/llm/client.ts';
import { SqliteStore } from '../src/store/index.ts';
import { makeApp } from '../test/helpers.ts';

const LATENCY = Number(process.env.LATENCY_MS ?? 300);
const RUNS = Number(process.env.BENCH_RUNS ?? 5);

if (process.argv[2] === 'model') {
  const { startFakeOpenAI } = await import('../test/fake-openai.ts');
  let n = 0;
  const fake = await startFakeOpenAI(() => {
    n++;
    return { content: JSON.stringify({ pick: n % 3 ? 'B' : 'A', reason: `Reason ${n}.` }), delayMs: LATENCY };
  });
  console.log(JSON.stringify({ url: fake.url }));
  process.stdin.resume();
  process.stdin.on('end', () => fake.close().then(() => process.exit(0)));
} else {
  const child = spawn(process.execPath, ['--import', 'tsx', new URL(import.meta.url).pathname, 'model'], {
    stdio: ['pipe', 'pipe', 'inherit'],
    env: { ...process.env, LATENCY_MS: String(LATENCY) },
  });
  const line = await new Promise<string>((resolve) => createInterface({ input: child.stdout! }).once('line', resolve));
  const { url } = JSON.parse(line) as { url: string };

  const env = { SVC_LLM_URL: url, SVC_LLM_MODEL: 'fake', SVC_COUNCIL_HOURLY_LIMIT: '1000000' };
  const llm = await makeApp({ store: new SqliteStore(':memory:'), env });
  const heuristic = await makeApp({ store: new SqliteStore(':memory:'), env: { SVC_COUNCIL_HOURLY_LIMIT: '1000000' } });
  const question = 'Should I put my emergency fund in Bitcoin or keep it in a savings account?';

  async function time(t: typeof llm, q: string): Promise<{ ms: number[]; calls: number }> {
    const key = await createApiKey(t.store, { email: 'bench@example.com' }, Date.now());
    const ms: number[] = [];
    let calls = 0;
    for (let i = 0; i < RUNS + 1; i++) {
      const start = performance.now();
      const r = await t.app.inject({
        method: 'POST',
        url: '/api/council',
        payload: { question: q },
        headers: { authorization: `Bearer ${key.apiKey}` },
      });
      const took = performance.now() - start;
      if (r.statusCode !== 200) throw new Error(`council answered ${r.statusCode}: ${r.body}`);
      calls = r.json().structured.usage.calls;
      if (i > 0) ms.push(took); // the first run warms up connections and JIT
    }
    return { ms: ms.sort((a, b) => a - b), calls };
  }

  async function bare(): Promise<{ ms: number[]; calls: number }> {
    const client = createChatClient({ baseUrl: url, model: 'fake', allowPrivate: true, retries: 0, concurrency: 24 });
    const messages = [
      { role: 'system' as const, content: 'x'.repeat(1200) },
      { role: 'user' as const, content: 'y'.repeat(1500) },
    ];
    const round = (n: number) => Promise.all(Array.from({ length: n }, () => client.chat({ messages, json: true })));
    const ms: number[] = [];
    for (let i = 0; i < RUNS + 1; i++) {
      const start = performance.now();
      await round(24);
      await round(12);
      await round(12);
      if (i > 0) ms.push(performance.now() - start);
    }
    return { ms: ms.sort((a, b) => a - b), calls: 48 };
  }

  const fmt = (x: number) => `${Math.round(x)} ms`;
  const baseline = await bare();
  const rows: [string, { ms: number[]; calls: number }, number][] = [
    ['baseline: bare client, rounds of 24, 12, 12 calls (3 round-trips)', baseline, 3],
    [
      'model council, stated preference (4 round-trips)',
      await time(llm, `I'm leaning towards Bitcoin. ${question}`),
      4,
    ],
    ['model council, no preference (3 round-trips)', await time(llm, question), 3],
    ['heuristic council (no model)', await time(heuristic, `I'm leaning towards Bitcoin. ${question}`), 0],
  ];
  console.log(
    `model latency ${LATENCY} ms per call, ${RUNS} runs per case (after one warm-up); shared machine, ` +
      `${os.cpus().length} cores, load average ${os.loadavg()[0]!.toFixed(1)}`,
  );
  for (const [name, { ms, calls }, trips] of rows) {
    const median = ms[Math.floor(ms.length / 2)]!;
    const ideal = trips * LATENCY;
    const vs = trips ? `; ideal ${trips} x ${LATENCY} = ${ideal} ms, median/ideal ${(median / ideal).toFixed(2)}` : '';
    console.log(
      `${name}: median ${fmt(median)} (min ${fmt(ms[0]!)}, max ${fmt(ms.at(-1)!)}), ${calls} model calls${vs}`,
    );
  }
  const median = (x: { ms: number[] }) => x.ms[Math.floor(x.ms.length / 2)]!;
  console.log(`council with preference / bare client baseline: ${(median(rows[1]![1]) / median(baseline)).toFixed(2)}`);
  const target = median(rows[1]![1]);
  console.log(`target: under 1500 ms for the 4-round-trip call: ${target < 1500 ? 'met' : 'NOT met'} (${fmt(target)})`);
  await llm.close();
  await heuristic.close();
  child.stdin!.end();
}
