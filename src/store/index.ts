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
import type { Store, StoreOptions } from './types.ts';

/** `opts.now`: the clock for report lifetimes (tests inject one). */
export function createStore(config: StoreConfig, opts: StoreOptions = {}): Store {
  switch (config.kind) {
    case 'memory':
      return new MemoryStore(opts);
    case 'sqlite':
      return new SqliteStore(config.path, opts);
    case 'redis':
      return new RedisStore(config.url, opts);
  }
}

export { MemoryStore, RedisStore, SqliteStore };
export type * from './types.ts';
