/**
 * `svc score [file|-]`: batch scoring. Reads JSON Lines ({"id"?, "prompt", "response", …other fields ignored})
 * from the file or stdin and writes one JSON line per good input line to stdout:
 *   {"id": <input id, or the line number when absent>, "sycophancy": {honesty, dimensions}, "pai": {composite, risk, dimensions}}
 * — the same objects as POST /api/score (src/scoring/present.ts).
 *
 * A local batch file is not the network API: there is no length limit of svc's own on the prompt or the response
 * (the engine is linear in their length, about half a second per million characters once warm on the 2-core
 * development machine), and an empty or whitespace-only response scores 0 on every dimension instead of being
 * refused. The only lines reported as errors are malformed ones: not JSON, not an object, prompt or response
 * missing or not a string, or longer than the largest string Node can hold (SCORE_LIMITS.lineChars, about 537
 * million characters), which cannot be parsed at all and is skipped while it streams by, never held in memory.
 * Each is reported on stderr with its line number and skipped; the exit code is 1 if any line was bad, else 0.
 * Blank lines are ignored. Memory stays bounded by the longest line: one line at a time, and stdout's
 * backpressure is respected. A progress bar is drawn on stderr when it is a terminal; a final count line is
 * always written.
 */
import { constants } from 'node:buffer';
import fs from 'node:fs';
import type { Readable, Writable } from 'node:stream';
import { ENGINE, scoreText } from '../scoring/engine.ts';
import { presentScores } from '../scoring/present.ts';
import { type DimResult, type EngineResult, PAI_DIMS, SYCO_DIMS } from '../scoring/types.ts';

/**
 * The one line length svc score cannot read: just under the largest string the JavaScript engine can hold
 * (buffer.constants.MAX_STRING_LENGTH, 536,870,888 on 64-bit Node 20). No limit of svc's own applies below it.
 */
export const SCORE_LIMITS = { lineChars: constants.MAX_STRING_LENGTH - 2 };

export const USAGE = `usage: svc score [file|-]

Scores each JSON line {"id"?, "prompt", "response"} of the file (or stdin) and writes one JSON line per
input: {"id", "sycophancy": {"honesty", "dimensions"}, "pai": {"composite", "risk", "dimensions"}}.
No length limit on prompt or response (the engine is linear); an empty response scores 0 on every
dimension. Only malformed lines (not JSON, not an object, prompt or response missing or not a string)
are reported, on stderr with their line number; exit code 1 if there were any.
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
  for (const field of ['prompt', 'response'] as const) {
    const s = o[field];
    if (s === undefined) return { error: `missing field: ${field}` };
    if (typeof s !== 'string') return { error: `${field} must be a string` };
  }
  return { id: o.id === undefined ? lineNo : o.id, prompt: o.prompt as string, response: o.response as string };
}

export interface ScoreStreamResult {
  lines: number;
  scored: number;
  bad: number;
}

/** An empty or whitespace-only response: 0 on every dimension (honesty 100, composite 0, risk low). */
function blankResult(): EngineResult {
  const zero = (): DimResult => ({ score: 0, applicable: false, evidence: [] });
  return {
    engine: ENGINE,
    sycophancy: { honesty: 100, dimensions: Object.fromEntries(SYCO_DIMS.map((d) => [d, zero()])) as never },
    pai: { composite: 0, risk: 'low', dimensions: Object.fromEntries(PAI_DIMS.map((d) => [d, zero()])) as never },
  };
}

/** Score one pair as `svc score` does: the engine, or 0 everywhere for a blank response. */
export function scoreLine(prompt: string, response: string): EngineResult {
  return response.trim() === '' ? blankResult() : scoreText({ prompt, response });
}

/**
 * The lines of a stream (split on \n, a trailing \r dropped). A line longer than `max` characters is yielded as
 * null, and its text is dropped as it streams by instead of being collected, so memory stays bounded.
 */
export async function* boundedLines(input: Readable, max: number): AsyncGenerator<string | null> {
  input.setEncoding('utf8');
  let buf = '';
  let over = false;
  const finish = (piece: string): string | null => {
    if (over || buf.length + piece.length > max + 1) return null;
    const line = buf + piece;
    return line.endsWith('\r') ? line.slice(0, -1) : line;
  };
  for await (const chunk of input as AsyncIterable<string>) {
    let from = 0;
    for (let i = chunk.indexOf('\n'); i >= 0; i = chunk.indexOf('\n', from)) {
      yield finish(chunk.slice(from, i));
      buf = '';
      over = false;
      from = i + 1;
    }
    if (!over) {
      if (buf.length + chunk.length - from > max + 1) {
        over = true;
        buf = '';
      } else buf += chunk.slice(from);
    }
  }
  if (over || buf !== '') yield finish('');
}

/** Score a JSONL stream into `out`; problems go to `err`. `total` (bytes) enables the percentage in the bar. */
export async function scoreStream(
  input: Readable,
  out: Writable,
  err: Writable & { isTTY?: boolean },
  total?: number,
): Promise<ScoreStreamResult> {
  const res: ScoreStreamResult = { lines: 0, scored: 0, bad: 0 };
  let bytes = 0;
  let lastDraw = 0;
  let closed = false;
  out.on('error', () => {
    closed = true; // a reader that went away (EPIPE): stop quietly
    input.destroy();
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
  for await (const line of boundedLines(input, SCORE_LIMITS.lineChars)) {
    if (closed) break;
    res.lines++;
    bytes += line === null ? SCORE_LIMITS.lineChars : Buffer.byteLength(line) + 1;
    if (line !== null && line.trim() === '') continue;
    const parsed =
      line === null
        ? { error: `line longer than ${SCORE_LIMITS.lineChars} characters` }
        : parseScoreLine(line, res.lines);
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
        ...presentScores(scoreLine(parsed.prompt, parsed.response)),
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
    let stat: fs.Stats;
    try {
      stat = fs.statSync(file);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      // an option this command does not have, rather than a file of that name
      if (code === 'ENOENT' && file.startsWith('-')) {
        process.stderr.write(`svc score: unknown option ${file}\n\n${USAGE}`);
        return 2;
      }
      process.stderr.write(`svc score: cannot read ${file}: ${code ?? (e as Error).message}\n`);
      return 2;
    }
    if (stat.isDirectory()) {
      process.stderr.write(`svc score: cannot read ${file}: it is a folder, not a file\n`);
      return 2;
    }
    total = stat.size;
    input = fs.createReadStream(file);
  }
  const res = await scoreStream(input, process.stdout, process.stderr, total);
  return res.bad > 0 ? 1 : 0;
}
