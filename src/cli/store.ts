/**
 * The store a CLI command works on: the one the service uses (SVC_STORE_URL, relative paths and the default
 * resolved against the package folder; see src/config.ts), named on stderr so the operator sees which one it was.
 */
import type { StoreConfig } from '../config.ts';
import { createStore } from '../store/index.ts';
import type { Store } from '../store/types.ts';

/** The store setting as shown to an operator: the SQLite file, or the Redis URL without its credentials. */
export function describeStore(config: StoreConfig): string {
  switch (config.kind) {
    case 'memory':
      return 'memory (not configured: nothing is kept)';
    case 'sqlite':
      return `sqlite:${config.path}`;
    case 'redis':
      try {
        const u = new URL(config.url);
        u.username = '';
        u.password = '';
        return u.toString();
      } catch {
        return 'redis (unparsable URL)';
      }
  }
}

/**
 * A command with subcommands, given none it knows: its usage on stdout with exit 0 when help was asked for
 * (`svc keys help`), else on stderr with exit 2 (`svc keys`, `svc keys frobnicate`).
 */
export function usage(sub: string | undefined, text: string): number {
  if (sub === 'help' || sub === '--help' || sub === '-h') {
    process.stdout.write(text);
    return 0;
  }
  process.stderr.write(text);
  return 2;
}

/** A command that takes no arguments was given one: say so (settings are environment variables) and exit 2. */
export function noArguments(command: string, arg: string, text: string): number {
  process.stderr.write(
    `svc ${command}: unexpected argument ${JSON.stringify(arg)}; settings come from the environment\n\n${text}`,
  );
  return 2;
}

/** Open the configured store and say which one on stderr (`svc <command>: store sqlite:/…/data/svc.db`). */
export function openStore(config: StoreConfig, command: string): Store {
  process.stderr.write(`svc ${command}: store ${describeStore(config)}\n`);
  return createStore(config);
}
