/**
 * Where the log lines go: a file descriptor written asynchronously in batches, from reusable buffers.
 *
 * pino's own destination (sonic-boom) gathers lines by appending strings (`buf += line`) and measures the gathered
 * string's UTF-8 length on every write (Buffer.byteLength), which flattens it: each line copied the whole batch
 * gathered so far, so a 4 KB batch of 20 lines cost about 20 times its size in copies and garbage. At one line
 * per request that was most of the remaining cost of request logging (bench/http.ts). Here a line is encoded
 * once, straight into a preallocated buffer, and the buffers are reused:
 *
 * - `write(line)` encodes into the current buffer (CHUNK bytes). When `minLength` bytes are waiting and nothing is
 *   being written, the buffer is handed to fs.write and a free one (or a new one) takes its place; full buffers
 *   queue behind the one being written. Buffers come back to a small free list once written.
 * - Every `flushMs` (a timer that does not keep the process alive) whatever is waiting is written, so at rest a
 *   line shows within `flushMs`.
 * - At most `maxQueued` bytes wait (the reader is slower than the writer, or gone): past that new lines are dropped
 *   and counted, and the count is written as one line of its own once the queue has room again, so memory stays
 *   bounded and the gap is visible.
 * - Short writes are continued; EAGAIN (a non-blocking pipe that is full) is retried after `retryMs`; any other
 *   error (EPIPE: the reader went away) drops that buffer and is emitted as 'error' (createLogger listens).
 * - `flush(cb)` calls back once everything written so far is out (or failed); `flushSync()` writes what is not
 *   already in flight synchronously (used at process exit; it gives up on EAGAIN after a few tries rather than
 *   spinning forever).
 */
import { EventEmitter } from 'node:events';
import fs from 'node:fs';

export const CHUNK = 64 * 1024;
const FREE_BUFFERS = 4;

export interface LogSinkOptions {
  /** Bytes gathered before a write starts (the timer writes smaller batches). */
  minLength?: number;
  /** Longest time a line waits, in ms; 0: no timer. */
  flushMs?: number;
  /** Bytes allowed to wait for a slow or stalled reader before lines are dropped. */
  maxQueued?: number;
  /** Wait before retrying a write that answered EAGAIN. */
  retryMs?: number;
}

export class LogSink extends EventEmitter {
  readonly fd: number;
  private readonly minLength: number;
  private readonly maxQueued: number;
  private readonly retryMs: number;
  private buf: Buffer = Buffer.allocUnsafe(CHUNK);
  private len = 0;
  /** Full buffers waiting, in order, with their lengths. */
  private readonly queue: { buf: Buffer; len: number }[] = [];
  private queuedBytes = 0;
  private readonly free: Buffer[] = [];
  private writing: { buf: Buffer; off: number; len: number } | undefined;
  private waiters: ((err?: Error) => void)[] = [];
  private dropped = 0;
  private readonly timer: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(dest: number | string, opts: LogSinkOptions = {}) {
    super();
    this.fd = typeof dest === 'number' ? dest : fs.openSync(dest, 'a');
    this.minLength = Math.min(opts.minLength ?? 16 * 1024, CHUNK);
    this.maxQueued = opts.maxQueued ?? 16 * 1024 * 1024;
    this.retryMs = opts.retryMs ?? 100;
    const every = opts.flushMs ?? 250;
    if (every > 0) {
      this.timer = setInterval(() => {
        if (this.len > 0 && this.writing === undefined) this.rotate();
      }, every);
      this.timer.unref();
    }
  }

  /** Gather one line (or several); never throws, never blocks. */
  write(line: string): boolean {
    if (this.closed) return false;
    if (this.dropped > 0) {
      // Lines were dropped: nothing more is taken until the report of how many can be queued before it.
      this.rotate();
      if (this.dropped > 0) return this.drop();
    }
    // A UTF-8 encoding takes at most 3 bytes per UTF-16 code unit.
    if (this.len + line.length * 3 > CHUNK) {
      if (this.len > 0) this.rotate();
      if (line.length * 3 > CHUNK) return this.writeLarge(line);
      if (this.len > 0) return this.drop(); // rotate() could not take the buffer: the queue is full
    }
    this.len += this.buf.write(line, this.len);
    if (this.len >= this.minLength && this.writing === undefined) this.rotate();
    return true;
  }

  /** Call back once every line written before this call is out (err: a write failed). */
  flush(cb?: (err?: Error) => void): void {
    if (this.len > 0) this.rotate();
    if (this.writing === undefined && this.queue.length === 0) {
      if (cb) process.nextTick(cb);
      return;
    }
    if (cb) this.waiters.push(cb);
  }

  /** Write synchronously what is not already in flight (process exit). */
  flushSync(): void {
    if (this.len > 0) this.rotate();
    const pending = this.queue.splice(0);
    this.queuedBytes = 0;
    for (const { buf, len } of pending) {
      let off = 0;
      let tries = 0;
      while (off < len) {
        try {
          off += fs.writeSync(this.fd, buf, off, len - off);
        } catch (err) {
          if ((err as NodeJS.ErrnoException).code === 'EAGAIN' && ++tries < 10) continue;
          return;
        }
      }
    }
  }

  /** Stop the timer and take no more lines; what was gathered is still written. */
  end(): void {
    this.flush();
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
  }

  /** Lines dropped since the last report because too much was waiting (tests). */
  get droppedLines(): number {
    return this.dropped;
  }

  private drop(): boolean {
    this.dropped++;
    return false;
  }

  /** A line too long for one buffer gets a buffer of its own. */
  private writeLarge(line: string): boolean {
    const b = Buffer.from(line);
    if (this.queuedBytes + b.length > this.maxQueued) return this.drop();
    this.queue.push({ buf: b, len: b.length });
    this.queuedBytes += b.length;
    this.next();
    return true;
  }

  /**
   * Queue the current buffer and start writing if idle; a no-op when the queue is full (the buffer keeps what it
   * has). A report of dropped lines goes first into the fresh buffer.
   */
  private rotate(): void {
    if (this.len > 0) {
      if (this.queuedBytes + this.len > this.maxQueued) return;
      this.queue.push({ buf: this.buf, len: this.len });
      this.queuedBytes += this.len;
      this.buf = this.free.pop() ?? Buffer.allocUnsafe(CHUNK);
      this.len = 0;
    }
    if (this.dropped > 0) {
      this.len += this.buf.write(
        `{"level":40,"time":${Date.now()},"msg":"log lines dropped: the log's reader is slower than the service","dropped":${this.dropped}}\n`,
      );
      this.dropped = 0;
    }
    this.next();
  }

  private next(): void {
    if (this.writing !== undefined) return;
    if (this.queue.length === 0 && this.len > 0 && this.waiters.length > 0) {
      // A flush waits for lines that stayed in the current buffer while the queue was full.
      this.rotate();
      if (this.writing !== undefined) return;
    }
    const item = this.queue.shift();
    if (item === undefined) {
      const waiters = this.waiters;
      this.waiters = [];
      for (const w of waiters) w();
      return;
    }
    this.writing = { buf: item.buf, off: 0, len: item.len };
    this.writeSome();
  }

  private writeSome(): void {
    const w = this.writing!;
    fs.write(this.fd, w.buf, w.off, w.len - w.off, null, (err, n) => {
      if (err) {
        if ((err as NodeJS.ErrnoException).code === 'EAGAIN') {
          setTimeout(() => this.writeSome(), this.retryMs).unref();
          return;
        }
        this.done(w);
        const waiters = this.waiters;
        this.waiters = [];
        for (const cb of waiters) cb(err);
        this.emit('error', err);
        this.next();
        return;
      }
      w.off += n;
      if (w.off < w.len) {
        this.writeSome();
        return;
      }
      this.done(w);
      // Lines gathered while this write was in flight go out next if there are enough of them.
      if (this.queue.length === 0 && this.len >= this.minLength) this.rotate();
      else this.next();
    });
  }

  private done(w: { buf: Buffer; len: number }): void {
    this.writing = undefined;
    this.queuedBytes -= w.len;
    if (w.buf.length === CHUNK && this.free.length < FREE_BUFFERS) this.free.push(w.buf);
  }
}
