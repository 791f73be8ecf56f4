import type { AuditLog } from '../audit/log.ts';
import type {
  FastifyBaseLogger,
  FastifyInstance,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
} from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Config } from '../config.ts';
import type { DatasetSource } from '../domain/dataset.ts';
import type { Mailer } from '../domain/email.ts';
import type { Readiness } from '../startup.ts';
import type { Store } from '../store/types.ts';

/** Fastify with the TypeBox type provider: route schemas give the handlers their types. */
export type App = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  TypeBoxTypeProvider
>;

/** Everything the HTTP layer needs, built by main (or a test) and passed in. */
export interface AppDeps {
  config: Config;
  store: Store;
  mailer: Mailer;
  dataset: DatasetSource;
  /** Milliseconds since the epoch; injectable for tests. */
  now?: () => number;
  /** The audit log over `store` (built from config.signingKey and `now` when not given; main shares its own). */
  audit?: AuditLog;
  /** Start-up work /healthz waits for (main passes one; tests may). */
  readiness?: Readiness;
  /** Pino options or false; defaults to config.logLevel. */
  logger?: boolean | object;
  /** A pino logger to use instead (main passes its own, with a buffered destination). */
  loggerInstance?: FastifyBaseLogger;
}

/** AppDeps with the defaults filled in, as route plugins receive them. */
export type Deps = AppDeps & { now: () => number; startedAt: number; audit: AuditLog };
