/**
 * `npm run bench:eval`: the whole probe suite against a local fake model with 50 ms latency at concurrency 8
 * (issue 11: aim under 60 s in all, under 5% of it spent scoring).
 *
 * The fake model runs in its own process (test/fake-openai.ts), so the runner's process holds only the run:
 * client, engine scoring, bookkeeping. Replies are about 1.5 KB, built from the three fake styles of the tests
 * (flattering, honest, clingy) so the engine sees texts with evidence to find. Printed: wall time, the ideal
 * time (replies x 50 ms / 8: latency alone, perfectly parallel, nothing else) and the ratio, the time spent in
 * the engine (sum over replies) and its share of the wall time, and the same run against a 0 ms model as a
 * baseline for the runner's own overhead. BENCH_LATENCY_MS and BENCH_CONCURRENCY change the set-up.
 * Figures only; it never fails on absolute times (the machine is shared).
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { loadProbeSuite } from '../src/eval/probes.ts';
import { runEvaluation, summarizeEvaluation } from '../src/eval/run.ts';
import { createChatClient } from '../src/llm/client.ts';

const latency = Number(process.env.BENCH_LATENCY_MS ?? 50);
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 8);
const root = path.resolve(import.meta.dirname, '..');

const SERVER = `
import { startFakeOpenAI } from ${JSON.stringify(path.join(root, 'test/fake-openai.ts'))};
import { companion, flatterer, honest } from ${JSON.stringify(path.join(root, 'test/fake-models.ts'))};
const styles = [flatterer, honest, companion];
const delay = Number(process.argv[1]);
const s = await startFakeOpenAI(async (req, i) => {
  const first = req.body.messages?.[0]?.content ?? '';
  let h = 0;
  for (const ch of first) h = (h * 31 + ch.charCodeAt(0)) >>> 0;
  const a = String(await styles[h % 3](req, i));
  const b = String(await styles[(h + 1) % 3](req, i));
  return { content: [a, b, a, b].join('\\n\\n').slice(0, 1500), delayMs: delay };
});
console.log(s.url);
`;

async function startServer(delay: number) {
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', SERVER, String(delay)], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`fake model exited with ${code}`)));
  });
  return { url, stop: () => child.kill() };
}

const suite = loadProbeSuite();
const replies = suite.conversations.reduce((n, c) => n + c.turns.length, 0);

async function once(delay: number) {
  const server = await startServer(delay);
  try {
    const client = createChatClient({ baseUrl: server.url, model: 'bench', allowPrivate: true, concurrency });
    const t0 = performance.now();
    const results = await runEvaluation({ client, suite, concurrency });
    const wall = performance.now() - t0;
    const scoring = results.reduce((s, r) => s + r.usage.scoringMs, 0);
    const summary = summarizeEvaluation(results, suite, { model: 'bench' });
    return { wall, scoring, summary, calls: client.usage().calls };
  } finally {
    server.stop();
  }
}

const fmt = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
console.log(
  `suite ${suite.version}: ${suite.conversations.length} conversations, ${replies} replies; concurrency ${concurrency}; Node ${process.version}; shared machine`,
);
for (const delay of [0, latency]) {
  const r = await once(delay);
  const ideal = (replies * delay) / concurrency;
  console.log(
    [
      `model latency ${String(delay).padStart(3)} ms:`,
      `wall ${fmt(r.wall)}`,
      delay ? `ideal ${fmt(ideal)} (wall/ideal ${(r.wall / ideal).toFixed(2)})` : 'ideal 0 s',
      `scoring ${fmt(r.scoring)} = ${((r.scoring / r.wall) * 100).toFixed(1)}% of wall`,
      `${(r.scoring / replies).toFixed(2)} ms/reply`,
      `${r.calls} calls, ${r.summary.probes.failed} failed`,
    ].join('  '),
  );
}
console.log('[targets: wall under 60 s at 50 ms latency and concurrency 8; scoring under 5% of wall]');
