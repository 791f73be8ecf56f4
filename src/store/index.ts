/**
 * createStore(config.store): the one place that picks the store from the URL setting.
 * - `sqlite:<path>` (the default, ./data/svc.db; the folder is created): durable, one machine.
 * - `redis://…` / `rediss://…`: shared by every instance; `?prefix=` sets the key prefix (default `svc:`).
 * - `memory`: "not configured": nothing persists; keys and waitlist refuse with store_not_configured.
 */
import type { StoreConfig } from '../config.ts';
import { MemoryStore } from './memory/index.ts';
import { RedisStore } from './redis/index.ts';
import { SqliteStore } from './sqlite/index.ts';
import type { Store } from './types.ts';

export function createStore(config: StoreConfig): Store {
  switch (config.kind) {
    case 'memory':
      return new MemoryStore();
    case 'sqlite':
      return new SqliteStore(config.path);
    case 'redis':
      return new RedisStore(config.url);
  }
}

export { MemoryStore, RedisStore, SqliteStore };
export type * from './types.ts';
