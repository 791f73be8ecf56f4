/**
 * `svc eval`: run the probe suite against a developer's own model in the foreground (issue 11 item 9).
 * Any endpoint is allowed (allowPrivate: a local Ollama or vLLM is the point). Judges come from
 * SVC_EVAL_JUDGES; the call timeout and response cap from SVC_EVAL_REQUEST_TIMEOUT_MS and
 * SVC_EVAL_MAX_RESPONSE_BYTES. The work is in src/eval/run.ts.
 */
import fs from 'node:fs';
import { parseArgs } from 'node:util';
import { AuditLog } from '../audit/log.ts';
import { type Config, ConfigError, isStoreConfigured, loadConfig } from '../config.ts';
import { readDatasetFile } from '../domain/dataset.ts';
import { takeBundle } from '../domain/publication.ts';
import { publishEvaluation, slugify } from '../jobs/publish.ts';
import { loadProbeSuite, type ProbeSuite, ProbeSuiteError } from '../eval/probes.ts';
import {
  type ConversationResult,
  type EvalSummary,
  EVAL_LIMITS,
  runEvaluation,
  summarizeEvaluation,
} from '../eval/run.ts';
import { createChatClient, LlmError } from '../llm/client.ts';
import { PAI_DIMS, SYCO_DIMS } from '../scoring/types.ts';
import { openStore } from './store.ts';

const USAGE = `usage: svc eval --base-url URL --model NAME [options]

Plays every conversation of the probe suite (src/eval/probes/suite-v1.json) against an OpenAI-compatible
chat-completions endpoint, turn by turn, scores every reply with the engine and the LLM judges configured in
SVC_EVAL_JUDGES, and prints a summary. Nothing is published unless --publish is given.

options:
  --base-url URL       the endpoint's base URL, e.g. http://localhost:11434/v1 (Ollama) or
                       http://localhost:8000/v1 (vLLM); any address is allowed here
  --model NAME         the model name sent in each request
  --api-key-env VAR    the environment variable holding the endpoint's API key (the key itself is never
                       taken on the command line, printed or logged)
  --concurrency N      conversations played at once, 1-${EVAL_LIMITS.concurrency} (default SVC_EVAL_CONCURRENCY or 4)
  --json               print one JSON object on stdout instead of the table
  --publish            publish the run as a worker publishes an evaluation: a certified report (stored and
                       appended to the audit log) and a new dataset version through the store (SVC_STORE_URL)
                       with the model on the probe suite (slug from --model); nothing is published without it
  --help               this text

Progress goes to stderr. Exit status: 0 when the run finished (failed conversations are listed), 1 when no
conversation could be scored or the run could not start, 2 for bad options.
`;

export async function run(args: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args,
      options: {
        'base-url': { type: 'string' },
        model: { type: 'string' },
        'api-key-env': { type: 'string' },
        concurrency: { type: 'string' },
        json: { type: 'boolean', default: false },
        publish: { type: 'boolean', default: false },
        help: { type: 'boolean', default: false },
      },
    });
  } catch (err) {
    process.stderr.write(`svc eval: ${(err as Error).message}\n\n${USAGE}`);
    return 2;
  }
  const v = parsed.values;
  if (v.help) {
    process.stdout.write(USAGE);
    return 0;
  }
  const usage = (msg: string) => {
    process.stderr.write(`svc eval: ${msg}\n\n${USAGE}`);
    return 2;
  };
  if (!v['base-url'] || !v.model) return usage('--base-url and --model are required');
  let config;
  try {
    config = loadConfig(process.env);
  } catch (err) {
    if (err instanceof ConfigError) return usage(err.message);
    throw err;
  }
  let concurrency = Math.min(config.evalJobs.concurrency, EVAL_LIMITS.concurrency);
  if (v.concurrency !== undefined) {
    concurrency = Number(v.concurrency);
    if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > EVAL_LIMITS.concurrency)
      return usage(`--concurrency must be an integer from 1 to ${EVAL_LIMITS.concurrency}`);
  }
  let apiKey: string | undefined;
  if (v['api-key-env'] !== undefined) {
    apiKey = process.env[v['api-key-env']];
    if (!apiKey) return usage(`the variable ${v['api-key-env']} named by --api-key-env is not set`);
  }
  let client;
  let suite;
  try {
    client = createChatClient({
      baseUrl: v['base-url'],
      model: v.model,
      apiKey,
      allowPrivate: true,
      concurrency,
      timeoutMs: config.evalJobs.requestTimeoutMs,
      maxResponseBytes: config.evalJobs.maxResponseBytes,
    });
    suite = loadProbeSuite();
  } catch (err) {
    if (err instanceof LlmError || err instanceof RangeError) return usage(err.message);
    if (err instanceof ProbeSuiteError) {
      process.stderr.write(`svc eval: ${err.message}\n`);
      return 1;
    }
    throw err;
  }

  const bar = progressBar();
  const ac = new AbortController();
  const onSigint = () => ac.abort(new Error('interrupted'));
  process.once('SIGINT', onSigint);
  let results;
  try {
    results = await runEvaluation({
      client,
      suite,
      concurrency,
      judges: config.evalJudges.map((j) => ({ ...j, apiKey: j.apiKey })),
      onProgress: bar,
      signal: ac.signal,
    });
  } catch (err) {
    process.stderr.write(`\nsvc eval: stopped: ${(err as Error).message}\n`);
    return 1;
  } finally {
    process.off('SIGINT', onSigint);
  }
  process.stderr.write('\n');
  const summary = summarizeEvaluation(results, suite, { model: v.model });
  if (v.publish) {
    const code = await publish(config, v.model, suite, summary, results);
    if (code !== 0) return code;
  }
  if (v.json) process.stdout.write(`${JSON.stringify(jsonOutput(summary))}\n`);
  else process.stdout.write(table(summary));
  return summary.probes.replies > 0 ? 0 : 1;
}

/** The --json object (issue 11 item 9), plus failures, the gate, per-judge scores and usage. */
export function jsonOutput(s: EvalSummary) {
  return {
    model: s.model,
    probes: s.probes,
    sycophancy: s.sycophancy,
    pai: s.pai,
    judges: s.judges,
    kappa: s.kappa,
    gate: s.gate,
    perJudge: s.perJudge,
    worst: s.worst,
    failures: s.failures,
    usage: s.usage,
  };
}

function progressBar() {
  const tty = process.stderr.isTTY === true;
  let lastLine = -1;
  return (p: { done: number; total: number; failed: number }) => {
    const width = 30;
    const filled = p.total ? Math.round((p.done / p.total) * width) : width;
    const text = `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${p.done}/${p.total} conversations${
      p.failed ? `, ${p.failed} failed` : ''
    }`;
    if (tty) process.stderr.write(`\r${text}`);
    else {
      const step = Math.floor((p.done / Math.max(1, p.total)) * 10);
      if (step !== lastLine) {
        lastLine = step;
        process.stderr.write(`${text}\n`);
      }
    }
  };
}

const f2 = (x: number) => x.toFixed(2);

function table(s: EvalSummary): string {
  const judges = Object.keys(s.perJudge);
  const head = ['', ...judges.map((j, i) => (i === 0 ? 'engine' : j))];
  const rows: string[][] = [
    ['honesty (0-100)', ...judges.map((j) => f2(s.perJudge[j]!.sycophancy.honesty))],
    ...SYCO_DIMS.map((d) => [`  ${d}`, ...judges.map((j) => f2(s.perJudge[j]!.sycophancy.dimensions[d]))]),
    ['PAI composite (0-10)', ...judges.map((j) => f2(s.perJudge[j]!.pai.composite))],
    ['  risk', ...judges.map((j) => s.perJudge[j]!.pai.risk)],
    ...PAI_DIMS.map((d) => [`  ${d}`, ...judges.map((j) => f2(s.perJudge[j]!.pai.dimensions[d]))]),
    ['replies scored', ...judges.map((j) => String(s.perJudge[j]!.replies))],
  ];
  const widths = head.map((_, c) => Math.max(...[head, ...rows].map((r) => (r[c] ?? '').length)));
  const line = (r: string[]) => r.map((x, c) => (c === 0 ? x.padEnd(widths[c]!) : x.padStart(widths[c]!))).join('  ');
  const heading =
    `model ${s.model} on ${s.probes.version}: ${s.probes.conversations} conversations, ${s.probes.replies} replies` +
    (s.probes.failed ? `, ${s.probes.failed} failed` : '');
  // No reply scored: a table of zeros would read as scores (honesty 0.00 the worst, PAI 0.00 the best), so none.
  const scores =
    s.probes.replies === 0
      ? ['no reply was scored, so there are no scores (the reasons are below)']
      : [line(head), ...rows.map(line)];
  const out = [
    heading,
    '',
    ...scores,
    '',
    `judges: ${s.judges.join(', ')}`,
    s.kappa === null
      ? 'kappa: none (one judge)'
      : `kappa: ${s.kappa.toFixed(3)} (${s.gate!.passed ? 'passes' : 'fails'} the ${s.gate!.threshold.toFixed(3)} publication gate)`,
    `tokens: ${s.usage.promptTokens} prompt, ${s.usage.completionTokens} completion, ${s.usage.calls} model calls`,
  ];
  if (s.worst.length) {
    out.push('', 'replies with the most evidence:');
    for (const w of s.worst)
      out.push(
        `  ${w.probeId} turn ${w.turn} (${w.evidenceCount} items): ${w.evidence
          .slice(0, 3)
          .map((e) => `${e.dim} "${e.quote.slice(0, 60)}"`)
          .join('; ')}`,
      );
  }
  if (s.failures.length) {
    out.push('', 'failed conversations:');
    for (const f of s.failures) out.push(`  ${f.probeId}: ${f.error}`);
  }
  return `${out.join('\n')}\n`;
}

/** --publish: the same publication as a finished evaluation job (src/jobs/publish.ts). */
async function publish(
  config: Config,
  model: string,
  suite: ProbeSuite,
  summary: EvalSummary,
  results: ConversationResult[],
): Promise<number> {
  if (!isStoreConfigured(config.store)) {
    process.stderr.write('svc eval: --publish needs a store (SVC_STORE_URL=sqlite:… or redis://…)\n');
    return 1;
  }
  if (summary.gate && !summary.gate.passed) {
    process.stderr.write(`svc eval: not published: cross-judge kappa ${summary.kappa} is under the publication gate\n`);
    return 1;
  }
  const store = openStore(config.store, 'eval');
  try {
    if (fs.existsSync(config.datasetPath)) await takeBundle(store, readDatasetFile(config.datasetPath));
    const pub = await publishEvaluation(store, new AuditLog(store, { signingKey: config.signingKey }), {
      model: { slug: slugify(model, 'model'), name: model, vendor: 'Unknown' },
      suiteVersion: suite.version,
      summary,
      results,
      generatedAt: new Date().toISOString(),
    });
    process.stderr.write(
      `published ${pub.datasetVersion} through the store (${config.store.kind}): ${pub.slug} on ${suite.version}, report ${pub.reportId} (${pub.reportHash})\n`,
    );
    return 0;
  } catch (err) {
    process.stderr.write(`svc eval: not published: ${(err as Error).message}\n`);
    return 1;
  } finally {
    await store.close();
  }
}
