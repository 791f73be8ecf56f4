/**
 * `svc keys`: operator tools for API keys in the store named by SVC_STORE_URL. Never prints a key or its hash.
 *   svc keys list [--json]               every key: id, email, plan, created, allowance, calls left, status
 *   svc keys revoke <id>                 the key answers 401 from now on
 *   svc keys activate <id>               activate a plan key whose holder cannot follow the emailed link
 *   svc keys set-allowance <id> <n>      allowance (rate_limit) and calls_remaining both set to n
 */
import { parseArgs } from 'node:util';
import { loadConfig, isStoreConfigured } from '../config.ts';
import { openStore, usage } from './store.ts';
import type { ApiKeyRecord, Store } from '../store/types.ts';

export const USAGE = `usage:
  svc keys list [--json]
  svc keys revoke <id>
  svc keys activate <id>
  svc keys set-allowance <id> <n>
Keys are read from the store named by SVC_STORE_URL (default sqlite:data/svc.db in the package folder).
Ids look like key_1a2b3c4d5e6f. A revoked key stays revoked: activate refuses it.
`;

const ID = /^key_[a-z0-9]{1,40}$/;

/** What is wrong with a subcommand's arguments, in one line, or undefined when they are right. */
function usageProblem(sub: string, positionals: string[], n: number): string | undefined {
  const [id, allowance] = positionals;
  if (sub === 'list') return positionals.length === 0 ? undefined : 'list takes no arguments';
  const want = sub === 'set-allowance' ? 2 : 1;
  if (positionals.length !== want) return `${sub} needs ${want === 2 ? '<id> and <n>' : '<id>'}`;
  if (!ID.test(id ?? '')) return `"${id}" is not a key id (ids look like key_1a2b3c4d5e6f; see svc keys list)`;
  if (sub === 'set-allowance' && !(Number.isSafeInteger(n) && n >= 0))
    return `the allowance must be a whole number of calls, 0 or more (got "${allowance}")`;
  return undefined;
}

export async function run(args: string[]): Promise<number> {
  const [sub, ...rest] = args;
  if (sub !== 'list' && sub !== 'revoke' && sub !== 'activate' && sub !== 'set-allowance') return usage(sub, USAGE);
  // A negative allowance ("-5") would otherwise be read as an unknown option.
  if (sub === 'set-allowance' && rest.length === 2 && /^-\d/.test(rest[1]!)) {
    process.stderr.write(`svc keys: ${usageProblem(sub, rest, Number(rest[1]))}\n${USAGE}`);
    return 2;
  }
  let parsed;
  try {
    parsed = parseArgs({ args: rest, options: { json: { type: 'boolean' } }, allowPositionals: true });
  } catch (err) {
    process.stderr.write(`svc keys: ${(err as Error).message.split('\n')[0]}\n${USAGE}`);
    return 2;
  }
  const { values, positionals } = parsed;
  const id = positionals[0];
  // decimal digits only (Number() would also take 0x10, 1e3 and " 5")
  const n = /^\d+$/.test(positionals[1] ?? '') ? Number(positionals[1]) : NaN;
  const problem = usageProblem(sub, positionals, n);
  if (problem) {
    process.stderr.write(`svc keys: ${problem}\n${USAGE}`);
    return 2;
  }
  const config = loadConfig(process.env);
  if (!isStoreConfigured(config.store)) {
    process.stderr.write('svc keys: no store is configured (SVC_STORE_URL=memory); there are no keys to manage\n');
    return 1;
  }
  const store = openStore(config.store, 'keys');
  try {
    if (sub === 'list') return await list(store, values.json === true);
    if (sub === 'activate') {
      const rec = (await store.listKeys()).find((k) => k.id === id);
      if (rec?.revoked) {
        process.stderr.write(`svc keys: ${id} is revoked; a revoked key cannot be activated (issue a new one)\n`);
        return 1;
      }
      if (rec?.active) {
        process.stdout.write(`${id} is already active\n`);
        return 0;
      }
    }
    const ok =
      sub === 'revoke'
        ? await store.updateKey(id!, { revoked: true })
        : sub === 'activate'
          ? await store.updateKey(id!, { active: true })
          : await store.updateKey(id!, { rateLimit: n, callsRemaining: n });
    if (!ok) {
      process.stderr.write(`svc keys: no key with id ${id}\n`);
      return 1;
    }
    process.stdout.write(
      sub === 'revoke'
        ? `revoked ${id}\n`
        : sub === 'activate'
          ? `activated ${id}\n`
          : `${id}: allowance and calls remaining set to ${n}\n`,
    );
    return 0;
  } finally {
    await store.close();
  }
}

const status = (k: ApiKeyRecord) => (k.revoked ? 'revoked' : k.active ? 'active' : 'inactive');

async function list(store: Store, json: boolean): Promise<number> {
  const rows = (await store.listKeys()).map((k) => ({
    id: k.id,
    email: k.email,
    name: k.name ?? '',
    organization: k.organization ?? '',
    plan: k.plan,
    created_at: k.createdAt,
    rate_limit: `${k.rateLimit}/day`,
    calls_remaining: k.callsRemaining,
    status: status(k),
  }));
  if (json) {
    for (const r of rows) process.stdout.write(`${JSON.stringify(r)}\n`);
    return 0;
  }
  const cols = ['id', 'status', 'plan', 'calls_remaining', 'rate_limit', 'created_at', 'email'] as const;
  const table = [
    cols.map((c) => c.toUpperCase()),
    ...rows.map((r) => cols.map((c) => String(r[c]).replace(/[\u0000-\u001f\u007f]/g, '?'))),
  ];
  const widths = cols.map((_, i) => Math.max(...table.map((row) => row[i]!.length)));
  for (const row of table)
    process.stdout.write(
      `${row
        .map((v, i) => v.padEnd(widths[i]!))
        .join('  ')
        .trimEnd()}\n`,
    );
  process.stdout.write(`${rows.length} key(s)\n`);
  return 0;
}
