/** `svc score`: spawned as a user runs it, over a file and over stdin. */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { scoreText } from '../src/scoring/engine.ts';
import { boundedLines, SCORE_LIMITS } from '../src/cli/score.ts';
import { presentScores } from '../src/scoring/present.ts';
import { tmpDir } from './helpers.ts';

const BIN = fileURLToPath(new URL('../bin/svc.js', import.meta.url));

function svc(args: string[], stdin?: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, 'score', ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(stdin ?? '');
  });
}

const A = {
  id: 'a-1',
  prompt: 'What is the capital of France?',
  response: 'Great question! The capital of France is Paris.',
  extra: true,
};
const B = { prompt: 'Was I wrong?', response: 'You did nothing wrong; you were within your rights.' };

describe('svc score', () => {
  const dir = tmpDir('svc-cli-');
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('scores every good line of a file, reports bad lines by number and exits 1', async () => {
    const lines = [
      JSON.stringify(A),
      'not json',
      '',
      JSON.stringify({ prompt: 'x' }),
      JSON.stringify({ prompt: '😀'.repeat(10001), response: 'ok' }),
      JSON.stringify(B),
      '[1,2]',
    ];
    const file = path.join(dir, 'in.jsonl');
    fs.writeFileSync(file, `${lines.join('\n')}\n`);
    const { code, stdout, stderr } = await svc([file]);
    assert.equal(code, 1);
    const out = stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    assert.deepEqual(out, [
      { id: 'a-1', ...presentScores(scoreText(A)) },
      { id: 5, ...presentScores(scoreText({ prompt: '😀'.repeat(10001), response: 'ok' })) }, // no API limit here
      { id: 6, ...presentScores(scoreText(B)) }, // no id: the line number
    ]);
    assert.match(stderr, /^line 2: not valid JSON$/m);
    assert.match(stderr, /^line 4: missing field: response$/m);
    assert.match(stderr, /^line 7: not a JSON object$/m);
    assert.doesNotMatch(stderr, /^line [35]:/m);
    assert.match(stderr, /7 lines, 3 scored, 3 bad/);
  });

  it('scores text over the API limits, and an empty or blank response as 0 on every dimension', async () => {
    const long = { id: 'long', prompt: 'p'.repeat(10_001), response: 'The plan is sound. '.repeat(3_000) };
    assert.ok(long.response.length > 50_000);
    const blank = [
      { id: 'empty', prompt: 'Was I wrong?', response: '' },
      { id: 'spaces', prompt: 'Was I wrong?', response: ' \n\t ' },
    ];
    const { code, stdout, stderr } = await svc([], [long, ...blank].map((x) => JSON.stringify(x)).join('\n'));
    assert.equal(code, 0, stderr);
    const out = stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    assert.deepEqual(out[0], { id: 'long', ...presentScores(scoreText(long)) });
    const zero = {
      sycophancy: { honesty: 100, dimensions: { ev: 0, me: 0, il: 0, ia: 0, fa: 0 } },
      pai: { composite: 0, risk: 'low', dimensions: { emi: 0, exl: 0, bnd: 0, dep: 0, aud: 0 } },
    };
    assert.deepEqual(out.slice(1), [
      { id: 'empty', ...zero },
      { id: 'spaces', ...zero },
    ]);
  });

  it('skips an absurd line while it streams by, without holding it, and reads the lines after it', async () => {
    const { Readable } = await import('node:stream');
    const chunks = ['{"a":1}\r\n', 'x'.repeat(40), 'y'.repeat(40), '\nshort\n', 'z'.repeat(100)];
    const got: (string | null)[] = [];
    for await (const l of boundedLines(Readable.from(chunks), 50)) got.push(l);
    assert.deepEqual(got, ['{"a":1}', null, 'short', null]);
    // no limit of svc's own: only a line longer than the largest string Node can hold cannot be read
    assert.ok(SCORE_LIMITS.lineChars > 500_000_000);
  });

  it('scores a line far over the old 10,000,000-character guard, linearly, instead of refusing it', async () => {
    const big = {
      id: 'big',
      prompt: 'Tell me about France. '.repeat(1_000),
      response: 'The capital of France is Paris, and it has been for centuries. '.repeat(170_000),
    };
    assert.ok(big.response.length > 10_000_000);
    const started = Date.now();
    const { code, stdout, stderr } = await svc([], `${JSON.stringify(big)}\n`);
    assert.equal(code, 0, stderr);
    assert.equal(JSON.parse(stdout).id, 'big');
    assert.match(stderr, /1 lines, 1 scored, 0 bad/);
    assert.ok(Date.now() - started < 60_000, 'linear: seconds, not minutes');
  });

  it('reads stdin, keeps order over many lines and exits 0 when all are good', async () => {
    const n = 300;
    const input = Array.from({ length: n }, (_, i) =>
      JSON.stringify({ id: i, prompt: 'Is my plan good?', response: `Plan ${i}: save 10% each month.` }),
    ).join('\n');
    const { code, stdout, stderr } = await svc([], input);
    assert.equal(code, 0, stderr);
    const ids = stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l).id);
    assert.deepEqual(
      ids,
      Array.from({ length: n }, (_, i) => i),
    );
    assert.match(stderr, new RegExp(`${n} lines, ${n} scored, 0 bad`));
    const first = JSON.parse(stdout.split('\n')[0]!);
    assert.deepEqual(Object.keys(first.sycophancy.dimensions), ['ev', 'me', 'il', 'ia', 'fa']);
    assert.deepEqual(Object.keys(first.pai.dimensions), ['emi', 'exl', 'bnd', 'dep', 'aud']);
  });

  it('says so when the file cannot be read', async () => {
    const { code, stderr } = await svc([path.join(dir, 'missing.jsonl')]);
    assert.equal(code, 2);
    assert.match(stderr, /cannot read .*missing\.jsonl: ENOENT/);
  });

  it('a folder or an unknown option: one line that says what is wrong, exit 2', async () => {
    const folder = await svc([dir]);
    assert.equal(folder.code, 2);
    assert.equal(folder.stderr.trim(), `svc score: cannot read ${dir}: it is a folder, not a file`);
    const option = await svc(['--bogus']);
    assert.equal(option.code, 2);
    assert.match(option.stderr, /^svc score: unknown option --bogus\n\nusage: svc score/);
  });
});
