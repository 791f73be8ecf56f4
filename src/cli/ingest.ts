/**
 * `svc ingest <file.jsonl>`: score transcripts and publish a new dataset version with certified reports.
 * The work is in src/domain/ingest.ts; this file reads the input, shows progress and prints the outcome.
 */
import fs from 'node:fs';
import readline from 'node:readline';
import { parseArgs } from 'node:util';
import { auditLogFor } from '../audit/log.ts';
import { loadConfig, isStoreConfigured } from '../config.ts';
import { SYCO_DIMS } from '../dimensions.ts';
import { readDatasetFile, type Dataset } from '../domain/dataset.ts';
import {
  IngestError,
  parseIngestLine,
  planIngest,
  publishPlan,
  publishThroughStore,
  scoreLine,
  type IngestLine,
  type IngestPlan,
  type ScoredLine,
} from '../domain/ingest.ts';
import { takeBundle } from '../domain/publication.ts';
import { reportId } from '../domain/reports.ts';
import { scoreText } from '../scoring/engine.ts';
import { openStore } from './store.ts';
import type { Store } from '../store/types.ts';

export const USAGE = `usage: svc ingest <file.jsonl> [options]

Each line: {"model": "<slug>", "name"?, "vendor"?, "prompt", "response",
            "judge_scores"?: {"<judge>": {${SYCO_DIMS.map((d) => `"${d}"`).join(', ')}}}}
Scores every transcript and publishes a new dataset version with one certified report per model in it: the
reports are stored and appended to the audit log, and the version is published through the store
(SVC_STORE_URL), where every running instance picks it up within seconds. An empty store is first seeded
from the bundled dataset (SVC_DATASET).

options:
  --dataset <file>   the bundled dataset (default: SVC_DATASET or dataset/leaderboard.json); with --no-store
                     the file that is updated
  --version <label>  version label (default: v<n+1>)
  --force            publish even when the cross-judge kappa is under 0.700
  --skip-invalid     publish the valid lines when some are invalid (default: refuse)
  --no-store         update the dataset file and write report files instead (how the bundle is built); the
                     service certifies those reports on its next start
`;

const MAX_ERRORS_SHOWN = 20;

export async function run(args: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args,
      allowPositionals: true,
      options: {
        dataset: { type: 'string' },
        version: { type: 'string' },
        force: { type: 'boolean', default: false },
        'skip-invalid': { type: 'boolean', default: false },
        'no-store': { type: 'boolean', default: false },
        help: { type: 'boolean', default: false },
      },
    });
  } catch (err) {
    process.stderr.write(`svc ingest: ${(err as Error).message}\n\n${USAGE}`);
    return 2;
  }
  const { values, positionals } = parsed;
  if (values.help) {
    process.stdout.write(USAGE);
    return 0;
  }
  const file = positionals[0];
  if (!file || positionals.length > 1) {
    process.stderr.write(USAGE);
    return 2;
  }
  if (values.version !== undefined && !/^[\w.+-]{1,100}$/.test(values.version))
    return fail('--version must be 1-100 of letters, digits, . _ + -', 2);
  const config = loadConfig({ ...process.env, ...(values.dataset ? { SVC_DATASET: values.dataset } : {}) });

  // 1. Read and check every line.
  const lines: IngestLine[] = [];
  const errors: string[] = [];
  let lineNo = 0;
  try {
    const rl = readline.createInterface({ input: fs.createReadStream(file, 'utf8'), crlfDelay: Infinity });
    for await (const raw of rl) {
      lineNo += 1;
      if (raw.trim() === '') continue;
      try {
        lines.push(parseIngestLine(raw));
      } catch (err) {
        if (!(err instanceof IngestError)) throw err;
        errors.push(`${file}:${lineNo}: ${err.message}`);
      }
    }
  } catch (err) {
    return fail(`cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  if (errors.length > 0) {
    process.stderr.write(`${errors.slice(0, MAX_ERRORS_SHOWN).join('\n')}\n`);
    if (errors.length > MAX_ERRORS_SHOWN) process.stderr.write(`… and ${errors.length - MAX_ERRORS_SHOWN} more\n`);
    process.stderr.write(`${errors.length} invalid line(s) of ${lineNo}.\n`);
    if (!values['skip-invalid']) return fail('nothing published (use --skip-invalid to publish the valid lines)');
  }
  if (lines.length === 0) return fail('no valid transcripts in the file');

  // 2. Score, with a progress bar.
  const progress = progressBar(lines.length);
  const scored: ScoredLine[] = [];
  let engine = { name: 'unknown', version: '0' };
  for (const [i, line] of lines.entries()) {
    const r = scoreLine(line, scoreText);
    scored.push(r.scored);
    engine = r.engine;
    progress(i + 1);
  }

  // 3. Plan the version, then publish it.
  const planFrom = (previous: Dataset | null) =>
    planIngest({
      previous,
      scored,
      engine,
      now: new Date(),
      force: values.force,
      ...(values.version ? { version: values.version } : {}),
    });
  let bundle: Dataset | null = null;
  if (fs.existsSync(config.datasetPath)) {
    try {
      bundle = readDatasetFile(config.datasetPath);
    } catch (err) {
      return fail(`the current dataset cannot be read, so its history cannot be kept: ${(err as Error).message}`);
    }
  }

  if (values['no-store'] || !isStoreConfigured(config.store)) {
    let plan;
    try {
      plan = planFrom(bundle);
    } catch (err) {
      if (err instanceof IngestError) return fail(err.message);
      throw err;
    }
    await publishPlan(plan, { datasetFile: config.datasetPath });
    printPlan(plan, `to ${config.datasetPath}`, scored.length);
    process.stdout.write(
      'Reports written beside the dataset; the service stores them and appends them to the audit log on its next start.\n',
    );
    return 0;
  }

  const store: Store = openStore(config.store, 'ingest');
  try {
    if (bundle) await takeBundle(store, bundle);
    const res = await publishThroughStore(store, auditLogFor(store, config.signingKey), planFrom);
    printPlan(res.plan, `through the store (${config.store.kind}, publication ${res.seq})`, scored.length);
    process.stdout.write(`${res.appended} report(s) appended to the audit log (${config.store.kind}).\n`);
    return 0;
  } catch (err) {
    if (err instanceof IngestError) return fail(err.message);
    throw err;
  } finally {
    await store.close();
  }
}

function printPlan(plan: IngestPlan, where: string, transcripts: number): void {
  const m = plan.dataset.meta;
  process.stdout.write(
    `published ${m.version} ${where}: ${plan.reports.length} model(s) from ${transcripts} transcript(s)` +
      `${plan.kappa !== undefined ? `, kappa ${plan.kappa.toFixed(3)}` : ''}\n`,
  );
  for (const r of plan.reports) process.stdout.write(`  ${r.slug.padEnd(32)} ${reportId(r.hash)}  ${r.hash}\n`);
}

/** A bar on stderr when it is a terminal; plain lines every 10% for large inputs otherwise; nothing for small ones. */
function progressBar(total: number): (done: number) => void {
  const tty = process.stderr.isTTY === true;
  if (!tty && total < 1000) return () => {};
  let lastPct = -1;
  const started = Date.now();
  return (done) => {
    const pct = Math.floor((done / total) * 100);
    if (pct === lastPct && done !== total) return;
    if (!tty && pct % 10 !== 0) return;
    lastPct = pct;
    const secs = ((Date.now() - started) / 1000).toFixed(1);
    if (tty) {
      const width = 30;
      const fill = Math.round((done / total) * width);
      process.stderr.write(
        `\rscoring [${'#'.repeat(fill)}${'.'.repeat(width - fill)}] ${String(pct).padStart(3)}% ${done}/${total} ${secs}s`,
      );
      if (done === total) process.stderr.write('\n');
    } else {
      process.stderr.write(`scoring: ${pct}% (${done}/${total}, ${secs}s)\n`);
    }
  };
}

function fail(message: string, code = 1): number {
  process.stderr.write(`svc ingest: ${message}\n`);
  return code;
}
