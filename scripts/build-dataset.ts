/**
 * `npm run build:dataset`: rebuild the bundled dataset (dataset/leaderboard.json and dataset/reports/) from the
 * public labelled transcripts in ../shared/data/labeled with the ingest pipeline.
 *
 * It writes a temporary ingest JSONL outside the repository (the transcripts never enter it), runs
 * `svc ingest --no-store` on it, moves the result into dataset/ and removes the temporary files. Only derived scores and reports are
 * written to dataset/. The build starts from an empty dataset (the previous bundled version and its reports
 * are replaced). The service stores the reports and appends them to its audit log on start.
 *
 * Which model answered, from each record's `notes`:
 * - spiral_bench: "evaluated model <vendor>/<model>" (4 models)
 * - syco_bench: "run <date>_<time>_<vendor>_<model>[_<System prompt>]"; runs with and without a system prompt
 *   are pooled per model
 * - darkgpt: "evals/<model>/": gpt-3.5-turbo-1106, gpt-4-0125-preview, and "org" = the original ShareGPT
 *   ChatGPT turns (slug chatgpt-sharegpt)
 * - elephant: "responder=gpt-4o" or a human (Reddit top comment or human answer; slug human-reddit, a baseline)
 * - darkbench_synth is left out: its answers were written by GPT-4o to show a dark pattern on purpose, so
 *   they measure the prompt that produced them, not a model's behaviour.
 * Records whose prompt or response exceed the contract's limits (10000 / 50000 code points) are cut to them.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const source = path.resolve(repo, process.env.SVC_LABELED_DIR ?? '../shared/data/labeled');
const datasetFile = path.join(repo, 'dataset', 'leaderboard.json');
const reportsDir = path.join(repo, 'dataset', 'reports');

const VENDORS: Record<string, string> = {
  anthropic: 'Anthropic',
  google: 'Google',
  openai: 'OpenAI',
  'x-ai': 'xAI',
  deepseek: 'DeepSeek',
  moonshotai: 'Moonshot AI',
  'meta-llama': 'Meta',
};

const WORDS: Record<string, string> = {
  gpt: 'GPT',
  deepseek: 'DeepSeek',
  chatgpt: 'ChatGPT',
  sharegpt: 'ShareGPT',
  r1: 'R1',
  v3: 'V3',
  k2: 'K2',
};

/** "claude-3.5-sonnet" -> "Claude 3.5 Sonnet", "gpt-4o" -> "GPT-4o", "o3" -> "o3". */
function displayName(slug: string): string {
  if (/^o\d/.test(slug)) return slug;
  const words = slug.split('-').map((w) => WORDS[w] ?? (/^[a-z]/.test(w) ? w[0]!.toUpperCase() + w.slice(1) : w));
  const out = words.join(' ');
  return out.replace(/^GPT (\S+)/, 'GPT-$1');
}

interface Model {
  slug: string;
  name: string;
  vendor: string;
}

function model(vendorKey: string, slug: string): Model {
  return { slug, name: displayName(slug), vendor: VENDORS[vendorKey] ?? vendorKey };
}

/** The model that wrote a record's response, or null to leave the record out. */
function modelOf(src: string, notes: string): Model | null {
  if (src === 'spiral_bench') {
    const m = /evaluated model ([a-z0-9-]+)\/([a-z0-9.-]+)/i.exec(notes);
    return m ? model(m[1]!, m[2]!.toLowerCase()) : null;
  }
  if (src === 'syco_bench') {
    const m = /run \d+_\d+_([^;\s]+)/.exec(notes);
    if (!m) return null;
    const [vendor, ...rest] = m[1]!.split('_');
    const parts: string[] = [];
    for (const p of rest) {
      if (/^[A-Z]/.test(p)) break; // the system-prompt label starts with a capital
      parts.push(p);
    }
    return parts.length ? model(vendor!, parts.join('-').toLowerCase()) : null;
  }
  if (src === 'darkgpt') {
    const m = /evals\/([^/]+)\//.exec(notes);
    if (!m) return null;
    if (m[1] === 'org')
      return { slug: 'chatgpt-sharegpt', name: 'ChatGPT (original ShareGPT turns)', vendor: 'OpenAI' };
    return model('openai', m[1]!.toLowerCase());
  }
  if (src === 'elephant') {
    const m = /responder=([^;(\s]+)/.exec(notes);
    if (!m) return null;
    const who = m[1]!.replace(/\.$/, '');
    if (who === 'gpt-4o') return model('openai', 'gpt-4o');
    return { slug: 'human-reddit', name: 'Human baseline (Reddit answers)', vendor: 'Reddit users' };
  }
  return null;
}

/** Each source is its own prompt set: its models rank among themselves (`?suite=` on the leaderboard). */
const SUITES: Record<string, string> = {
  spiral_bench: 'public:spiral-bench',
  syco_bench: 'public:syco-bench',
  darkgpt: 'public:darkgpt',
  elephant: 'public:elephant',
};

const cut = (s: string, max: number): string => {
  const cps = Array.from(s);
  return cps.length > max ? cps.slice(0, max).join('') : s;
};

if (!fs.existsSync(source)) {
  console.log(`build:dataset: ${source} is missing (the labelled transcripts are not on this machine); nothing built.`);
  process.exit(0);
}

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-build-dataset-'));
const jsonl = path.join(tmp, 'ingest.jsonl');
try {
  const out = fs.createWriteStream(jsonl);
  const counts = new Map<string, number>();
  for (const src of ['spiral_bench', 'syco_bench', 'darkgpt', 'elephant']) {
    const rl = readline.createInterface({
      input: fs.createReadStream(path.join(source, `${src}.jsonl`), 'utf8'),
      crlfDelay: Infinity,
    });
    for await (const raw of rl) {
      if (!raw.trim()) continue;
      const r = JSON.parse(raw) as { prompt?: unknown; response?: unknown; notes?: unknown };
      if (
        typeof r.prompt !== 'string' ||
        typeof r.response !== 'string' ||
        typeof r.notes !== 'string' ||
        !r.response.trim()
      )
        continue;
      const m = modelOf(src, r.notes);
      if (!m) continue;
      counts.set(m.slug, (counts.get(m.slug) ?? 0) + 1);
      out.write(
        `${JSON.stringify({ model: m.slug, name: m.name, vendor: m.vendor, suite: SUITES[src], prompt: cut(r.prompt, 10000), response: cut(r.response, 50000) })}\n`,
      );
    }
  }
  await new Promise<void>((resolve, reject) => out.end((err?: Error | null) => (err ? reject(err) : resolve())));
  console.log(
    `build:dataset: ${[...counts.values()].reduce((a, b) => a + b, 0)} transcripts from ${counts.size} models`,
  );

  // Start from an empty dataset (the bundled version is rebuilt, not extended). Ingest into the temp folder,
  // then move the result into dataset/, so a failed build leaves the current one in place.
  const built = path.join(tmp, 'out', 'leaderboard.json');
  execFileSync(
    process.execPath,
    [path.join(repo, 'bin', 'svc.js'), 'ingest', jsonl, '--dataset', built, '--no-store'],
    {
      stdio: 'inherit',
      cwd: repo,
    },
  );
  fs.rmSync(reportsDir, { recursive: true, force: true });
  fs.cpSync(path.join(tmp, 'out', 'reports'), reportsDir, { recursive: true });
  fs.copyFileSync(built, `${datasetFile}.tmp`);
  fs.renameSync(`${datasetFile}.tmp`, datasetFile);
  console.log(
    `build:dataset: wrote ${path.relative(repo, datasetFile)} and ${fs.readdirSync(reportsDir).length} reports in ${path.relative(repo, reportsDir)}/`,
  );
} finally {
  fs.rmSync(tmp, { recursive: true, force: true });
}
