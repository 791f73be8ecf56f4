/** The log destination (src/log-sink.ts): every line, in order, bytes intact; bounded when the reader stalls. */
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import path from 'node:path';
import { it } from 'node:test';
import { CHUNK, LogSink } from '../src/log-sink.ts';
import { tmpDir } from './helpers.ts';

const flushed = (s: LogSink) => new Promise<Error | undefined>((resolve) => s.flush(resolve));

it('writes every line in order with its bytes intact, a line longer than a buffer included', async () => {
  const dir = tmpDir();
  const file = path.join(dir, 'a.log');
  const sink = new LogSink(file, { minLength: 4096, flushMs: 0 });
  const expected: string[] = [];
  for (let i = 0; i < 20_000; i++) {
    const line = `{"n":${i},"s":"${i % 7 === 0 ? 'é漢🙂\\"' : 'plain'}"}\n`;
    expected.push(line);
    sink.write(line);
    if (i === 10_000) {
      const big = `{"big":"${'x'.repeat(CHUNK)}"}\n`;
      expected.push(big);
      sink.write(big);
    }
    if (i % 500 === 0) await new Promise((r) => setImmediate(r));
  }
  assert.equal(await flushed(sink), undefined);
  assert.equal(fs.readFileSync(file, 'utf8'), expected.join(''));
  sink.end();
  fs.rmSync(dir, { recursive: true });
});

it('writes a line within flushMs at rest, without a flush', async () => {
  const dir = tmpDir();
  const file = path.join(dir, 'a.log');
  const sink = new LogSink(file, { flushMs: 50 });
  sink.write('{"msg":"one"}\n');
  assert.equal(fs.readFileSync(file, 'utf8'), '', 'gathered, not written at once');
  await new Promise((r) => setTimeout(r, 300));
  assert.equal(fs.readFileSync(file, 'utf8'), '{"msg":"one"}\n');
  sink.end();
  fs.rmSync(dir, { recursive: true });
});

it('holds at most maxQueued bytes for a stalled reader, then logs how many lines it dropped', async () => {
  const dir = tmpDir();
  const fifo = path.join(dir, 'fifo');
  execFileSync('mkfifo', [fifo]);
  // Read-write and non-blocking: opening does not wait for a reader, and a full pipe answers EAGAIN.
  const fd = fs.openSync(fifo, fs.constants.O_RDWR | fs.constants.O_NONBLOCK);
  const sink = new LogSink(fd, { minLength: 1024, flushMs: 20, maxQueued: 256 * 1024, retryMs: 10 });
  const line = `{"msg":"${'y'.repeat(200)}"}\n`;
  let accepted = 0;
  for (let i = 0; i < 10_000; i++) {
    if (sink.write(line)) accepted++;
    if (i % 100 === 0) await new Promise((r) => setTimeout(r, 1));
  }
  const dropped = 10_000 - accepted;
  // The pipe holds 64 KB, the queue 256 KB and one buffer gathers: far fewer than 10,000 lines of 211 bytes.
  assert.ok(dropped > 5000, `dropped ${dropped}`);
  assert.ok(accepted * line.length < 1024 * 1024, `${accepted} lines held`);
  assert.equal(sink.droppedLines, dropped);
  // The reader comes back: everything queued is written, then the count of the lines dropped.
  const reader = spawn('cat', [fifo], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  reader.stdout.on('data', (d) => (out += d));
  const taken = () => out.split('\n').filter((l) => l === line.trim()).length;
  for (let i = 0; i < 200 && taken() < accepted; i++) await new Promise((r) => setTimeout(r, 20));
  assert.equal(sink.write('{"msg":"after"}\n'), true);
  for (let i = 0; i < 200 && !out.includes('"msg":"after"'); i++) await new Promise((r) => setTimeout(r, 20));
  const lines = out.trim().split('\n');
  assert.equal(lines.filter((l) => l === line.trim()).length, accepted);
  const reports = lines.map((l) => JSON.parse(l) as { level: number; dropped?: number }).filter((l) => l.dropped);
  assert.ok(reports.length >= 1 && reports.every((l) => l.level === 40));
  assert.equal(
    reports.reduce((a, l) => a + l.dropped!, 0),
    dropped,
  );
  // In order: the lines taken, the count of those dropped after them, then the next line.
  assert.equal(lines.at(-1), '{"msg":"after"}');
  assert.equal(JSON.parse(lines.at(-2)!).dropped, dropped);
  sink.end();
  fs.closeSync(fd);
  reader.kill();
  await once(reader, 'exit');
  fs.rmSync(dir, { recursive: true });
});

it('reports a reader that went away as an error and a failed flush, without throwing', async () => {
  const dir = tmpDir();
  const fifo = path.join(dir, 'fifo');
  execFileSync('mkfifo', [fifo]);
  const r = fs.openSync(fifo, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
  const fd = fs.openSync(fifo, fs.constants.O_WRONLY | fs.constants.O_NONBLOCK);
  fs.closeSync(r);
  const sink = new LogSink(fd, { flushMs: 0 });
  const errors: NodeJS.ErrnoException[] = [];
  sink.on('error', (e) => errors.push(e));
  assert.equal(sink.write('{"msg":"lost"}\n'), true);
  const err = (await flushed(sink)) as NodeJS.ErrnoException | undefined;
  assert.equal(err?.code, 'EPIPE');
  assert.deepEqual(
    errors.map((e) => e.code),
    ['EPIPE'],
  );
  // Still usable: later lines are gathered (and fail the same way) instead of throwing.
  assert.equal(sink.write('{"msg":"later"}\n'), true);
  assert.equal(((await flushed(sink)) as NodeJS.ErrnoException | undefined)?.code, 'EPIPE');
  sink.end();
  fs.closeSync(fd);
  fs.rmSync(dir, { recursive: true });
});

it('writes what is gathered when the process exits without a flush', async () => {
  const dir = tmpDir();
  const file = path.join(dir, 'a.log');
  const script = path.join(dir, 'exit.ts');
  const logging = path.resolve(import.meta.dirname, '../src/logging.ts');
  fs.writeFileSync(
    script,
    `import { createLogger } from ${JSON.stringify(logging)};\nconst log = createLogger('info', ${JSON.stringify(file)});\nlog.info({ n: 1 }, 'last words');\nprocess.exit(3);\n`,
  );
  const child = spawn(process.execPath, ['--import', 'tsx', script], { stdio: 'inherit' });
  const [code] = await once(child, 'exit');
  assert.equal(code, 3);
  const lines = fs.readFileSync(file, 'utf8').trim().split('\n');
  assert.equal(lines.length, 1);
  assert.equal((JSON.parse(lines[0]!) as { msg: string }).msg, 'last words');
  fs.rmSync(dir, { recursive: true });
});
