/**
 * GET /healthz (self-hosted). Ready = the dataset is loaded and, when a store is configured, it answers a ping.
 * kv is true only when a store is configured and reachable, i.e. rate limiting is durable. `memory` is
 * "not configured": 200 with kv false. 503 `not_ready` when a configured store does not answer, while the bundled
 * reports are not yet certified (start-up retries that), or when the audit log fails its integrity check (e.g. the
 * store was wiped under a running process, so the log shrank).
 */
import { Type } from '@sinclair/typebox';
import { isStoreConfigured } from '../../config.ts';
import { AppError } from '../../errors.ts';
import { SERVICE_VERSION } from '../../version.ts';
import { ErrorSchema } from '../schemas/core.ts';
import type { App, Deps } from '../types.ts';

export async function healthRoutes(app: App, deps: Deps): Promise<void> {
  const { audit } = deps;
  app.get(
    '/healthz',
    {
      schema: {
        summary: 'Health (self-hosted only)',
        description:
          'ok, version, uptime_seconds and kv (true when the key-value store is configured and reachable). 503 when not ready.',
        tags: ['ops'],
        response: {
          200: Type.Object({
            ok: Type.Boolean(),
            version: Type.String(),
            uptime_seconds: Type.Integer({ minimum: 0 }),
            kv: Type.Boolean(),
          }),
          503: ErrorSchema,
        },
      },
    },
    async (_request, reply) => {
      const configured = isStoreConfigured(deps.store);
      const reachable = configured ? await deps.store.ping() : false;
      if (configured && !reachable) throw new AppError('not_ready', 'Not ready: the configured store is not reachable');
      const pending = deps.readiness?.reason();
      if (pending) throw new AppError('not_ready', `Not ready: ${pending}`);
      const broken = configured ? await audit.integrity().catch((err: Error) => err.message) : null;
      if (broken) throw new AppError('not_ready', `Not ready: the audit log failed its integrity check: ${broken}`);
      reply.header('cache-control', 'no-store');
      return {
        ok: true,
        version: SERVICE_VERSION,
        uptime_seconds: Math.max(0, Math.floor((deps.now() - deps.startedAt) / 1000)),
        kv: configured && reachable,
      };
    },
  );
}
