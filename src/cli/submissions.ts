/**
 * `svc submissions`: the evaluation queue in the store named by SVC_STORE_URL.
 *   svc submissions [list] [--status S] [--json]     submissions with their evaluation's progress
 *   svc submissions approve <id> [--api-key-env VAR] [--model NAME]
 *   svc submissions reject <id>
 *   svc submissions retry <id> [--api-key-env VAR] [--model NAME]
 * The credential of a submitted endpoint is never given to this command: --api-key-env names the environment
 * variable that holds it on the machines that run the worker (`svc serve` or `svc worker`), which read it when
 * the run starts. Only the name is stored.
 */
import { parseArgs } from 'node:util';
import { isStoreConfigured, loadConfig } from '../config.ts';
import type { EvalJob, Store, SubmissionRecord } from '../store/types.ts';
import { openStore } from './store.ts';

export const USAGE = `usage:
  svc submissions [list] [--status pending|queued|evaluating|done|failed|rejected] [--json]
  svc submissions approve <id> [--api-key-env VAR] [--model NAME]
  svc submissions reject <id>
  svc submissions retry <id> [--api-key-env VAR] [--model NAME]

Lists model submissions (oldest first) with their evaluation's progress, from the store named by SVC_STORE_URL
(default sqlite:./data/svc.db); approves one for evaluation, rejects one, or runs a failed one again.
  --api-key-env VAR  the NAME of the environment variable that holds the endpoint's API key on the machines
                     that run the worker (svc serve / svc worker); the key itself is never given here or stored
  --model NAME       the model id sent to the endpoint (default: the submission's model_slug, else model_name)
`;
const STATUSES = ['pending', 'queued', 'evaluating', 'done', 'failed', 'rejected'];
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,127}$/;

export async function run(args: string[]): Promise<number> {
  if (args[0] === 'help' || args.includes('--help')) {
    process.stdout.write(USAGE);
    return 0;
  }
  let parsed;
  try {
    parsed = parseArgs({
      args,
      options: {
        status: { type: 'string' },
        json: { type: 'boolean' },
        'api-key-env': { type: 'string' },
        model: { type: 'string' },
      },
      allowPositionals: true,
    });
  } catch {
    process.stderr.write(USAGE);
    return 2;
  }
  const { values, positionals } = parsed;
  const [verb = 'list', idArg, ...rest] = positionals;
  const usage = (msg: string) => {
    process.stderr.write(`svc submissions: ${msg}\n\n${USAGE}`);
    return 2;
  };
  if (rest.length > 0) return usage('too many arguments');
  if (verb === 'list') {
    if (idArg !== undefined) return usage('list takes no id');
    if (values.status !== undefined && !STATUSES.includes(values.status)) return usage('unknown --status');
  } else if (['approve', 'reject', 'retry'].includes(verb)) {
    if (!idArg || !/^\d{1,16}$/.test(idArg)) return usage(`${verb} needs a submission id`);
    if (values['api-key-env'] !== undefined && !ENV_NAME.test(values['api-key-env']))
      return usage('--api-key-env must be an environment variable NAME (letters, digits, _), not a key');
    if (values.model !== undefined && (values.model.trim() === '' || values.model.length > 500))
      return usage('--model must be 1-500 characters');
    if (verb === 'reject' && (values['api-key-env'] !== undefined || values.model !== undefined))
      return usage('reject takes no options');
  } else {
    return usage(`unknown command ${verb}`);
  }
  const config = loadConfig(process.env);
  if (!isStoreConfigured(config.store)) {
    process.stderr.write('svc submissions: no store is configured (SVC_STORE_URL=memory); submissions are not kept\n');
    return 1;
  }
  const store = openStore(config.store, 'submissions');
  try {
    if (verb === 'list') return await list(store, values.status, values.json === true);
    const id = Number(idArg);
    const sub = await store.getSubmission(id);
    if (!sub) {
      process.stderr.write(`svc submissions: no submission ${id}\n`);
      return 1;
    }
    if (verb === 'reject') {
      if (!(await store.rejectSubmission(id))) {
        process.stderr.write(`svc submissions: ${id} is ${sub.status}; only pending or failed ones can be rejected\n`);
        return 1;
      }
      process.stdout.write(`rejected ${id}\n`);
      return 0;
    }
    if (verb === 'approve' && sub.status !== 'pending') {
      process.stderr.write(`svc submissions: ${id} is ${sub.status}, not pending (use retry to run it again)\n`);
      return 1;
    }
    if (verb === 'retry' && sub.status === 'pending') {
      process.stderr.write(`svc submissions: ${id} is pending; approve it first\n`);
      return 1;
    }
    const old = verb === 'retry' ? await store.getJob(id) : null;
    const apiKeyEnv = values['api-key-env'] ?? old?.apiKeyEnv;
    const model = values.model ?? old?.model;
    const job = await store.enqueueJob(
      id,
      { ...(apiKeyEnv !== undefined && { apiKeyEnv }), ...(model !== undefined && { model }) },
      Date.now(),
    );
    if (!job) {
      process.stderr.write(
        `svc submissions: ${id} cannot be queued now (${sub.status}${sub.status === 'evaluating' ? ': a worker holds it; retry after its lease runs out' : ''})\n`,
      );
      return 1;
    }
    process.stdout.write(
      `${verb === 'approve' ? 'approved' : 'queued again'} ${id}${apiKeyEnv ? ` (credential from $${apiKeyEnv} on the worker)` : ''}\n`,
    );
    return 0;
  } finally {
    await store.close();
  }
}

/** One submission with its job, as listed. */
export function describe(s: SubmissionRecord, job: EvalJob | undefined): string {
  const clean = (v: string) => v.replace(/[\u0000-\u001f\u007f]/g, '?');
  let state: string = s.status;
  if (job && s.status !== 'pending' && s.status !== 'rejected') {
    const p = job.progress;
    if (p.total > 0) state += ` ${p.done}/${p.total}${p.failed ? ` (${p.failed} failed)` : ''}`;
    if (job.attempts > 1) state += ` attempt ${job.attempts}`;
    if (job.state === 'failed' && job.error) state += `: ${clean(job.error)}`;
  }
  return `${s.id}  ${state.padEnd(10)}  ${s.createdAt}  ${clean(s.modelName)} (${clean(s.vendor)})  ${clean(s.contactEmail)}  ${clean(s.apiEndpoint)}`;
}

async function list(store: Store, status: string | undefined, json: boolean): Promise<number> {
  const subs = (await store.listSubmissions()).filter((s) => !status || s.status === status);
  const jobs = new Map((await store.listJobs()).map((j) => [j.id, j]));
  if (json) {
    for (const s of subs) {
      const { statusTokenHash: _t, ...rest } = s;
      const j = jobs.get(s.id);
      const job = j && {
        state: j.state,
        progress: j.progress,
        attempts: j.attempts,
        ...(j.error !== undefined && { error: j.error }),
        ...(j.reportHash !== undefined && { reportHash: j.reportHash }),
        ...(j.apiKeyEnv !== undefined && { apiKeyEnv: j.apiKeyEnv }),
        ...(j.model !== undefined && { model: j.model }),
        updatedAt: j.updatedAt,
      };
      process.stdout.write(`${JSON.stringify({ ...rest, ...(job && { job }) })}\n`);
    }
    return 0;
  }
  for (const s of subs) process.stdout.write(`${describe(s, jobs.get(s.id))}\n`);
  process.stdout.write(`${subs.length} submission(s)\n`);
  return 0;
}
