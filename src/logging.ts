/**
 * The process's logger: pino JSON lines on stdout (or a file), at LOG_LEVEL.
 *
 * Writes are asynchronous and gathered (src/log-sink.ts): a write(2) when 16 KB of lines are waiting or every
 * 250 ms, whichever comes first, so under load there is one write per batch (about 80 request lines) instead of
 * one per line, and at rest a line is written within a quarter second. Lines are encoded once into reused buffers.
 * `flushLogs()` is awaited on shut-down (for at most a second) and what is left is written synchronously at exit;
 * a hard crash loses at most the last 250 ms of lines. A reader that stalls holds at most 16 MB of lines; past
 * that lines are dropped and their count is logged.
 */
import pino from 'pino';
import { LogSink } from './log-sink.ts';

export type Logger = pino.Logger;

let destination: LogSink | undefined;
let exitHook = false;

export function createLogger(level: string, dest: number | string = 1): Logger {
  const sink = new LogSink(dest, { minLength: 16 * 1024, flushMs: 250 });
  destination = sink;
  // A log that cannot be written (its reader went away: EPIPE) loses lines; it must not take the service down
  // with an unhandled 'error' event.
  sink.on('error', () => {});
  if (!exitHook) {
    // What an exit without flushLogs() left (process.exit from elsewhere): written synchronously, best effort.
    exitHook = true;
    process.once('exit', () => destination?.flushSync());
  }
  return pino({ level }, sink as unknown as pino.DestinationStream);
}

/**
 * Write out the gathered lines before the process exits, waiting at most `ms`. Asynchronous on purpose: pino's former
 * destination (sonic-boom) retried a failing write forever (EPIPE included), so a log reader that went away (`svc serve | head`, a
 * dead log shipper, a test that stopped reading stdout) used to keep the process from ever exiting on SIGTERM.
 */
export function flushLogs(ms = 1000): Promise<void> {
  const d = destination;
  if (d === undefined) return Promise.resolve();
  return new Promise<void>((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      d.off('error', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    d.on('error', done);
    try {
      d.flush(done);
    } catch {
      done(); // nothing left to do with a log that cannot be written
    }
  });
}

type Bindings = Record<string, unknown>;
type Methods = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';
type ChildOf = {
  child(bindings: Bindings, opts?: object): unknown;
  level: string;
  isLevelEnabled?(l: string): boolean;
};

/**
 * A request's logger made only when something logs through it. Fastify gives every request a child logger with
 * its request id; pino builds a child per call, which was a measurable part of a cached read's cost, and most
 * requests never log through it (the request line is written by src/http/plugins/request-log.ts).
 */
class LazyChild {
  #real: Record<Methods, (...a: unknown[]) => void> | undefined;
  constructor(
    private readonly parent: ChildOf,
    private readonly bindings: Bindings,
    private readonly opts: object,
  ) {}
  #get(): Record<Methods, (...a: unknown[]) => void> & ChildOf {
    this.#real ??= this.parent.child(this.bindings, this.opts) as never;
    return this.#real as never;
  }
  get level(): string {
    return this.#real ? (this.#real as unknown as ChildOf).level : this.parent.level;
  }
  set level(l: string) {
    (this.#get() as unknown as ChildOf).level = l;
  }
  isLevelEnabled(l: string): boolean {
    return ((this.#real as unknown as ChildOf | undefined) ?? this.parent).isLevelEnabled?.(l) ?? true;
  }
  child(bindings: Bindings, opts?: object): unknown {
    return this.#get().child(bindings, opts);
  }
  fatal(...a: unknown[]): void {
    this.#get().fatal(...a);
  }
  error(...a: unknown[]): void {
    this.#get().error(...a);
  }
  warn(...a: unknown[]): void {
    this.#get().warn(...a);
  }
  info(...a: unknown[]): void {
    this.#get().info(...a);
  }
  debug(...a: unknown[]): void {
    this.#get().debug(...a);
  }
  trace(...a: unknown[]): void {
    this.#get().trace(...a);
  }
  silent(): void {}
}

/** Fastify's `childLoggerFactory`: request loggers made on first use (see LazyChild). */
export function lazyChildLoggerFactory(logger: unknown, bindings: Bindings, opts: object): never {
  return new LazyChild(logger as ChildOf, bindings, opts) as never;
}
