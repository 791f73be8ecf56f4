/**
 * `svc submissions`: the evaluation queue in the store named by SVC_STORE_URL.
 *   svc submissions [list] [--status pending|queued|evaluating|done|failed|rejected] [--json]
 */
import { parseArgs } from 'node:util';
import { loadConfig, isStoreConfigured } from '../config.ts';
import { openStore } from './store.ts';

export const USAGE = `usage:
  svc submissions [list] [--status pending|queued|evaluating|done|failed|rejected] [--json]
Lists model submissions (oldest first) from the store named by SVC_STORE_URL (default sqlite:./data/svc.db).
`;
const STATUSES = ['pending', 'queued', 'evaluating', 'done', 'failed', 'rejected'];

export async function run(args: string[]): Promise<number> {
  if (args[0] === 'help' || args.includes('--help')) {
    process.stdout.write(USAGE);
    return 0;
  }
  let parsed;
  try {
    parsed = parseArgs({
      args,
      options: { status: { type: 'string' }, json: { type: 'boolean' } },
      allowPositionals: true,
    });
  } catch {
    process.stderr.write(USAGE);
    return 2;
  }
  const { values, positionals } = parsed;
  if (
    positionals.length > 1 ||
    (positionals[0] !== undefined && positionals[0] !== 'list') ||
    (values.status !== undefined && !STATUSES.includes(values.status))
  ) {
    process.stderr.write(USAGE);
    return 2;
  }
  const config = loadConfig(process.env);
  if (!isStoreConfigured(config.store)) {
    process.stderr.write('svc submissions: no store is configured (SVC_STORE_URL=memory); submissions are not kept\n');
    return 1;
  }
  const store = openStore(config.store, 'submissions');
  try {
    const subs = (await store.listSubmissions()).filter((s) => !values.status || s.status === values.status);
    if (values.json) {
      for (const s of subs) process.stdout.write(`${JSON.stringify(s)}\n`);
      return 0;
    }
    const clean = (v: string) => v.replace(/[\u0000-\u001f\u007f]/g, '?');
    for (const s of subs) {
      process.stdout.write(
        `${s.id}  ${s.status.padEnd(10)}  ${s.createdAt}  ${clean(s.modelName)} (${clean(s.vendor)})  ${clean(s.contactEmail)}  ${clean(s.apiEndpoint)}\n`,
      );
    }
    process.stdout.write(`${subs.length} submission(s)\n`);
    return 0;
  } finally {
    await store.close();
  }
}
