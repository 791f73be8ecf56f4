/**
 * `svc score [file|-]`: batch scoring. Reads JSON Lines ({"id"?, "prompt", "response", …other fields ignored})
 * from the file or stdin and writes one JSON line per good input line to stdout:
 *   {"id": <input id, or the line number when absent>, "sycophancy": {honesty, dimensions}, "pai": {composite, risk, dimensions}}
 * — the same objects as POST /api/score (src/scoring/present.ts).
 *
 * A bad line (not JSON, not an object, prompt/response missing, not strings or over the limits of 10000/50000
 * code points, longer than 1,000,000 characters) is reported on stderr with its line number and skipped;
 * the exit code is 1 if any line was bad, else 0. Blank lines are ignored. Memory stays constant: one line
 * at a time through readline, and stdout's backpressure is respected. A progress bar is drawn on stderr when
 * it is a terminal; a final count line is always written.
 */
import fs from 'node:fs';
import readline from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import { scoreText } from '../scoring/engine.ts';
import { presentScores } from '../scoring/present.ts';
import { codePoints, TEXT_LIMITS } from '../text.ts';

export const SCORE_LIMITS = { prompt: TEXT_LIMITS.prompt, response: TEXT_LIMITS.response, lineChars: 1_000_000 };

export const USAGE = `usage: svc score [file|-]

Scores each JSON line {"id"?, "prompt", "response"} of the file (or stdin) and writes one JSON line per
input: {"id", "sycophancy": {"honesty", "dimensions"}, "pai": {"composite", "risk", "dimensions"}}.
Bad lines are reported on stderr with their line number; exit code 1 if there were any.
`;

/** Check one line; returns the scoring input or the reason it is bad. */
export function parseScoreLine(
  raw: string,
  lineNo: number,
): { id: unknown; prompt: string; response: string } | { error: string } {
  if (raw.length > SCORE_LIMITS.lineChars) return { error: `line longer than ${SCORE_LIMITS.lineChars} characters` };
  let v: unknown;
  try {
    v = JSON.parse(raw);
  } catch {
    return { error: 'not valid JSON' };
  }
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return { error: 'not a JSON object' };
  const o = v as Record<string, unknown>;
  for (const [field, max] of [
    ['prompt', SCORE_LIMITS.prompt],
    ['response', SCORE_LIMITS.response],
  ] as const) {
    const s = o[field];
    if (s === undefined) return { error: `missing field: ${field}` };
    if (typeof s !== 'string') return { error: `${field} must be a string` };
    if (codePoints(s) > max) return { error: `${field} longer than ${max} code points` };
  }
  if (o.response === '') return { error: 'response is empty' };
  return { id: o.id === undefined ? lineNo : o.id, prompt: o.prompt as string, response: o.response as string };
}

export interface ScoreStreamResult {
  lines: number;
  scored: number;
  bad: number;
}

/** Score a JSONL stream into `out`; problems go to `err`. `total` (bytes) enables the percentage in the bar. */
export async function scoreStream(
  input: Readable,
  out: Writable,
  err: Writable & { isTTY?: boolean },
  total?: number,
): Promise<ScoreStreamResult> {
  const rl = readline.createInterface({ input, crlfDelay: Infinity });
  const res: ScoreStreamResult = { lines: 0, scored: 0, bad: 0 };
  let bytes = 0;
  let lastDraw = 0;
  let closed = false;
  out.on('error', () => {
    closed = true; // a reader that went away (EPIPE): stop quietly
    rl.close();
  });
  const draw = (final: boolean) => {
    if (!err.isTTY) return;
    const now = Date.now();
    if (!final && now - lastDraw < 200) return;
    lastDraw = now;
    const pct = total ? Math.min(1, bytes / total) : undefined;
    const bar =
      pct === undefined
        ? ''
        : `[${'#'.repeat(Math.round(pct * 30)).padEnd(30, '.')}] ${(pct * 100).toFixed(0).padStart(3)}% `;
    err.write(`\r${bar}${res.lines} lines, ${res.bad} bad`);
  };
  for await (const line of rl) {
    if (closed) break;
    res.lines++;
    bytes += Buffer.byteLength(line) + 1;
    if (line.trim() === '') continue;
    const parsed = parseScoreLine(line, res.lines);
    if ('error' in parsed) {
      res.bad++;
      if (err.isTTY) err.write('\r\x1b[K');
      err.write(`line ${res.lines}: ${parsed.error}\n`);
      continue;
    }
    let text: string;
    try {
      text = JSON.stringify({
        id: parsed.id,
        ...presentScores(scoreText({ prompt: parsed.prompt, response: parsed.response })),
      });
    } catch (e) {
      res.bad++;
      err.write(`line ${res.lines}: could not score: ${(e as Error).message}\n`);
      continue;
    }
    res.scored++;
    if (!out.write(`${text}\n`)) {
      await new Promise<void>((resolve) => {
        const done = () => {
          out.off('drain', done);
          out.off('error', done);
          resolve();
        };
        out.on('drain', done);
        out.on('error', done);
      });
    }
    draw(false);
  }
  draw(true);
  if (err.isTTY) err.write('\n');
  err.write(`svc score: ${res.lines} lines, ${res.scored} scored, ${res.bad} bad\n`);
  return res;
}

export async function run(args: string[]): Promise<number> {
  if (args.includes('--help') || args.includes('-h')) {
    process.stdout.write(USAGE);
    return 0;
  }
  if (args.length > 1) {
    process.stderr.write(USAGE);
    return 2;
  }
  const file = args[0];
  let input: Readable = process.stdin;
  let total: number | undefined;
  if (file !== undefined && file !== '-') {
    try {
      total = fs.statSync(file).size;
    } catch (e) {
      process.stderr.write(
        `svc score: cannot read ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}\n`,
      );
      return 2;
    }
    input = fs.createReadStream(file);
  }
  const res = await scoreStream(input, process.stdout, process.stderr, total);
  return res.bad > 0 ? 1 : 0;
}
