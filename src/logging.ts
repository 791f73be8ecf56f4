/**
 * The process's logger: pino JSON lines on stdout (or a file), at LOG_LEVEL.
 *
 * Writes are asynchronous (pino.destination with sync: false): lines that arrive while a write is in flight are
 * joined into the next write, so under load there is one write(2) per batch instead of one per line, and at rest
 * every line is written at once. `flushLogs()` is called on shut-down; a hard crash loses at most the lines of
 * the write in flight.
 */
import pino from 'pino';

export type Logger = pino.Logger;

let destination: ReturnType<typeof pino.destination> | undefined;

export function createLogger(level: string, dest: number | string = 1): Logger {
  destination = pino.destination({ dest, sync: false });
  return pino({ level }, destination);
}

export function flushLogs(): void {
  try {
    destination?.flushSync();
  } catch {
    // nothing left to do with a log that cannot be written
  }
}
