/**
 * GET /healthz (self-hosted). Ready = the dataset is loaded and, when a store is configured, it answers a ping.
 * kv is true only when a store is configured and reachable, i.e. rate limiting is durable. `memory` is
 * "not configured": 200 with kv false. A configured store that does not answer: 503.
 */
import { Type } from '@sinclair/typebox';
import { isStoreConfigured } from '../../config.ts';
import { AppError } from '../../errors.ts';
import { SERVICE_VERSION } from '../../version.ts';
import { ErrorSchema } from '../schemas/core.ts';
import type { App, Deps } from '../types.ts';

export async function healthRoutes(app: App, deps: Deps): Promise<void> {
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
