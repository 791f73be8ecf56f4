/**
 * Helpers for tests that need Redis: the shared server on 127.0.0.1:6379 (or REDIS_URL). When it does not
 * answer, those tests skip with a message, unless SVC_REQUIRE_REDIS=1 (CI), where they fail.
 */
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';

export const REDIS_URL = process.env.REDIS_URL || 'redis://127.0.0.1:6379';
const required = process.env.SVC_REQUIRE_REDIS === '1';

let cached: Promise<boolean> | undefined;

async function answers(url: string): Promise<boolean> {
  const c = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null, connectTimeout: 1000 });
  c.on('error', () => {});
  try {
    await c.connect();
    return (await c.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    c.disconnect();
  }
}

/** `false` when the Redis tests may run; otherwise the skip message (for `{ skip }`). Throws when Redis is required. */
export async function redisSkip(): Promise<false | string> {
  cached ??= answers(REDIS_URL);
  if (await cached) return false;
  const msg = `Redis is not answering at ${REDIS_URL}: Redis tests skipped (set SVC_REQUIRE_REDIS=1 to make this a failure)`;
  if (required) throw new Error(`SVC_REQUIRE_REDIS=1 but Redis is not answering at ${REDIS_URL}`);
  console.warn(msg);
  return msg;
}

/** A store URL with a fresh key prefix, so tests never touch anyone else's keys. */
export function redisTestUrl(tag: string): string {
  const u = new URL(REDIS_URL);
  u.searchParams.set('prefix', `svctest:${tag}:${randomBytes(4).toString('hex')}:`);
  return u.toString();
}
