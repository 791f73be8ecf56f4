/**
 * What a starting process must get right before it calls itself ready, and how it says what went wrong.
 *
 * - Start-up failures an operator can fix (a port in use, a host that is not an address of this machine, a
 *   missing or broken dataset file, a store that cannot be opened, a Redis that does not persist writes when
 *   SVC_REDIS_DURABILITY=require) are a `StartupError`: main prints `svc: <message>` as one line on stderr and
 *   exits with 1, never a stack trace.
 * - Certification of the bundled reports (store them, append them to the audit log) is retried with backoff
 *   until it succeeds; until then /healthz answers 503 `not_ready` naming the reason, so a store that was
 *   unreachable at start no longer leaves a service that says ok while verify answers "Unknown report hash".
 */
import type { AuditLog } from './audit/log.ts';
import { ensureBundledReports } from './domain/reports.ts';
import type { ReportStore } from './store/types.ts';

export class StartupError extends Error {}

/** Readiness shared with /healthz: null when ready, else why not. */
export class Readiness {
  private readonly pending = new Map<string, string>();
  set(part: string, reason: string | null): void {
    if (reason === null) this.pending.delete(part);
    else this.pending.set(part, reason);
  }
  reason(): string | null {
    const [first] = this.pending.values();
    return first ?? null;
  }
}

export interface StartLogger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
}

/**
 * Certify the bundled reports; on failure retry after 0.5 s, 1 s, 2 s … (at most `maxDelayMs`) until it works or
 * `stopped()` says the process is shutting down. Resolves after the first attempt (so a healthy start is ready at
 * once); the retries run in the background. `readiness` carries "certifying" until one attempt succeeded.
 */
export async function certifyWithRetry(
  store: ReportStore,
  reportsDir: string,
  audit: AuditLog,
  log: StartLogger,
  readiness: Readiness,
  opts: { firstDelayMs?: number; maxDelayMs?: number; stopped?: () => boolean } = {},
): Promise<void> {
  const first = opts.firstDelayMs ?? 500;
  const max = opts.maxDelayMs ?? 30_000;
  readiness.set('certify', 'the bundled reports are not certified yet (store unreachable at start?)');
  const attempt = async (n: number): Promise<boolean> => {
    try {
      const r = await ensureBundledReports(store, reportsDir, audit);
      readiness.set('certify', null);
      log.info({ ...r, attempt: n }, 'bundled reports are in the store and the audit log');
      return true;
    } catch (err) {
      const delay = Math.min(max, first * 2 ** (n - 1));
      log.warn(
        { err: (err as Error).message, attempt: n, retry_in_ms: delay },
        'could not certify the bundled reports; retrying',
      );
      return false;
    }
  };
  if (await attempt(1)) return;
  void (async () => {
    for (let n = 2; !opts.stopped?.(); n++) {
      await new Promise((r) => setTimeout(r, Math.min(max, first * 2 ** (n - 2))).unref());
      if (opts.stopped?.()) return;
      if (await attempt(n)) return;
    }
  })();
}

/**
 * One line for a listen() failure, naming the settings that chose the address (`PORT`/`HOST` for the service,
 * `SVC_METRICS_PORT`/`SVC_METRICS_HOST` for the metrics port), so the operator knows which one to change.
 */
/** The settings that place the metrics listener, for listenErrorMessage. */
export const METRICS_VARS = { port: 'SVC_METRICS_PORT', host: 'SVC_METRICS_HOST' };

export function listenErrorMessage(
  err: NodeJS.ErrnoException,
  host: string,
  port: number,
  vars: { port: string; host: string } = { port: 'PORT', host: 'HOST' },
): string {
  switch (err.code) {
    case 'EADDRINUSE':
      return `port ${port} on ${host} is already in use (set ${vars.port} to a free port, or stop the other process)`;
    case 'EADDRNOTAVAIL':
      return `${vars.host}=${host} is not an address of this machine (use 0.0.0.0, 127.0.0.1 or one of its addresses)`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `${vars.host}=${host} does not resolve to an address (use an IP address such as 0.0.0.0 or 127.0.0.1)`;
    case 'EACCES':
      return `not allowed to listen on port ${port} (ports below 1024 need privileges; use ${vars.port}=${vars.port === 'PORT' ? 3000 : 9464})`;
    default:
      return `cannot listen on ${host}:${port}: ${err.message}`;
  }
}

/**
 * Redis must keep what the service acknowledged (a waitlist position, a key, a submission). Checked once at
 * start: without AOF persistence, SVC_REDIS_DURABILITY=warn (default) logs a warning naming the setting to use,
 * `require` refuses to start. A server that refuses CONFIG is logged as unchecked.
 */
export async function checkRedisDurability(
  store: { persistence(): Promise<{ durable: boolean | null; detail: string }> },
  mode: 'warn' | 'require',
  log: StartLogger,
): Promise<void> {
  const p = await store.persistence();
  const fix = 'set "appendonly yes" and "appendfsync everysec" (or always) in redis.conf, or CONFIG SET them';
  if (p.durable === true) return;
  if (p.durable === null) {
    if (mode === 'require')
      throw new StartupError(
        `cannot check Redis persistence (${p.detail}); SVC_REDIS_DURABILITY=require needs it: ${fix}, or set SVC_REDIS_DURABILITY=warn once checked`,
      );
    log.warn({ detail: p.detail }, `Redis persistence could not be checked; make sure that ${fix}`);
    return;
  }
  if (mode === 'require') throw new StartupError(`Redis does not persist acknowledged writes (${p.detail}): ${fix}`);
  log.warn(
    { detail: p.detail },
    `Redis does not persist acknowledged writes: a crash loses sign-ups, keys and submissions; ${fix} (SVC_REDIS_DURABILITY=require refuses to start)`,
  );
}
