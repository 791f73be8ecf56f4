/**
 * The evaluation worker: takes approved submissions' jobs from the store and runs them with the evaluation runner
 * (src/eval/run.ts), inside `svc serve` (unless SVC_EVAL_WORKER=false) or as `svc worker`.
 *
 * Leases (src/store/types.ts, JobStore): a job is leased for SVC_EVAL_LEASE_MS and renewed every third of it
 * while the run goes on; any number of workers (processes, instances, cluster workers) may poll one store and
 * each job runs in one of them at a time. A worker killed with -9 stops renewing; when the lease has run out
 * another worker (or the restarted one) takes the job over and resumes it: every conversation is kept in the
 * store as it finishes (onConversation, awaited before it counts as done) and is handed back to the runner as
 * `done`, so no reply is lost and none is played or scored twice. Every write of a worker whose lease was lost
 * is refused by the store (fencing by owner), and that worker stops its run.
 *
 * The end of a run: a summary (pure), then, once per job, the report's time is fixed in the job (so a resumed
 * publication makes the same report), the certified report and a new dataset version are published
 * (src/jobs/publish.ts), the job is marked done, and the submitter and the admin are emailed. A run that cannot
 * be scored (no reply, the endpoint refused, the kappa gate, a missing credential) fails with a reason that is
 * stored, shown on the status page and emailed. A run stopped by a lost lease or a shutdown is not failed: the
 * next holder resumes it.
 *
 * Credentials: the job holds only the NAME of an environment variable (given at approval); the worker reads the
 * value from its own environment when the run starts, passes it to the client and never stores or logs it.
 * Bounds per run: the runner's maxCalls (SVC_EVAL_MAX_CALLS) and maxRunMs (SVC_EVAL_MAX_RUN_MS), the client's
 * timeout and response size cap, and private addresses refused unless SVC_EVAL_ALLOW_PRIVATE=true.
 */
import { randomBytes } from 'node:crypto';
import { AuditLog } from '../audit/log.ts';
import type { Config } from '../config.ts';
import type { Mailer } from '../domain/email.ts';
import { reportId } from '../domain/reports.ts';
import { loadProbeSuite, type ProbeSuite } from '../eval/probes.ts';
import { runEvaluation, summarizeEvaluation, type ConversationResult } from '../eval/run.ts';
import { createChatClient, type ChatClient, type ChatClientOptions } from '../llm/client.ts';
import type { EvalJob, JobProgress, Store, SubmissionRecord } from '../store/types.ts';
import {
  evaluationDoneAdminMail,
  evaluationDoneMail,
  evaluationFailedAdminMail,
  evaluationFailedMail,
  type EvaluationOutcome,
} from './emails.ts';
import { publishEvaluation, slugify } from './publish.ts';

export interface WorkerLogger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface WorkerDeps {
  store: Store;
  config: Config;
  mailer: Mailer;
  log: WorkerLogger;
  /** Where credentials are read from (process.env by default). */
  env?: NodeJS.ProcessEnv;
  now?: () => number;
  /** Tests: another suite, another client factory. */
  suite?: ProbeSuite;
  makeClient?: (opts: ChatClientOptions) => ChatClient;
}

export interface Worker {
  /** Stop taking jobs; abort the run in progress (its lease then runs out and another worker resumes it). */
  stop(): Promise<void>;
  /** Resolves the next time this worker looks for a job and finds none: an event to wait on instead of a clock. */
  idle(): Promise<void>;
}

/** A run stopped because this worker no longer holds the job (or is shutting down): not a failure. */
class Stopped extends Error {}
/** A run that cannot succeed: the job fails with this message (no user text, no credential). */
class RunFailure extends Error {}

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,127}$/;

export function startWorker(deps: WorkerDeps, opts: { pollMs?: number } = {}): Worker {
  const pollMs = opts.pollMs ?? 1000;
  let stopping = false;
  let current: AbortController | undefined;
  let wake: (() => void) | undefined;
  let idlers: (() => void)[] = [];
  const loop = (async () => {
    while (!stopping) {
      let job: EvalJob | null = null;
      try {
        const owner = `w_${randomBytes(9).toString('base64url')}`;
        job = await deps.store.leaseJob(owner, (deps.now ?? Date.now)(), deps.config.evalJobs.leaseMs);
      } catch (err) {
        deps.log.warn({ err: (err as Error).message }, 'eval worker: cannot reach the store; retrying');
      }
      if (job) {
        current = new AbortController();
        try {
          await runJob(deps, job, current.signal);
        } catch (err) {
          deps.log.error({ job: job.id, err: (err as Error).message }, 'eval worker: run stopped by an error');
        }
        current = undefined;
        continue;
      }
      const waiting = idlers;
      idlers = [];
      for (const f of waiting) f();
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, pollMs);
        wake = () => {
          clearTimeout(t);
          resolve();
        };
      });
    }
  })();
  return {
    async stop() {
      stopping = true;
      current?.abort(new Stopped('worker stopping'));
      wake?.();
      await loop;
    },
    idle: () => new Promise<void>((resolve) => idlers.push(resolve)),
  };
}

/** Run (or resume) one leased job to its end. Exported for tests. */
export async function runJob(deps: WorkerDeps, job: EvalJob, stop: AbortSignal): Promise<void> {
  const { store, config, log } = deps;
  const now = deps.now ?? Date.now;
  const owner = job.leaseOwner!;
  const leaseMs = config.evalJobs.leaseMs;
  const ac = new AbortController();
  const onStop = () => ac.abort(stop.reason);
  stop.addEventListener('abort', onStop);
  const renew = setInterval(
    () => {
      store.renewLease(job.id, owner, now(), leaseMs).then(
        (held) => {
          if (!held) ac.abort(new Stopped('lease lost'));
        },
        (err: Error) => log.warn({ job: job.id, err: err.message }, 'eval worker: lease renewal failed; retrying'),
      );
    },
    Math.max(100, Math.floor(leaseMs / 3)),
  );
  let sub: SubmissionRecord | null = null;
  try {
    sub = await store.getSubmission(job.id);
    if (!sub) throw new RunFailure('the submission no longer exists');
    log.info({ job: job.id, attempt: job.attempts }, 'eval worker: run started');
    const suite = deps.suite ?? loadProbeSuite();
    const client = makeClient(deps, job, sub);
    const done = new Map<string, ConversationResult>();
    for (const [key, json] of await store.listConversations(job.id))
      done.set(key, JSON.parse(json) as ConversationResult);
    const total = suite.conversations.length;
    let failed = [...done.values()].filter((r) => r.error !== undefined).length;
    let finished = done.size;
    await fenced(store.updateJob(job.id, owner, { progress: { done: finished, total, failed } }));
    const results = await runEvaluation({
      client,
      suite,
      judges: config.evalJudges.map((j) => ({ ...j, apiKey: j.apiKey })),
      concurrency: config.evalJobs.concurrency,
      done,
      signal: ac.signal,
      maxCalls: config.evalJobs.maxCalls,
      maxRunMs: config.evalJobs.maxRunMs,
      onConversation: async (r) => {
        finished += 1;
        if (r.error !== undefined) failed += 1;
        const progress: JobProgress = { done: finished, total, failed };
        await fenced(store.saveConversation(job.id, owner, r.probeId, JSON.stringify(r), progress));
      },
    });
    if (ac.signal.aborted) throw ac.signal.reason;
    const modelId = job.model ?? sub.modelSlug ?? sub.modelName;
    const summary = summarizeEvaluation(results, suite, { model: modelId });
    if (summary.probes.replies === 0) {
      const why = summary.failures[0]?.error ?? 'no reply';
      throw new RunFailure(`no conversation could be scored (first failure: ${why})`);
    }
    if (summary.gate && !summary.gate.passed)
      throw new RunFailure(
        `cross-judge kappa ${summary.kappa?.toFixed(3)} is under the ${summary.gate.threshold.toFixed(3)} publication gate`,
      );
    const generatedAt = job.finishedAt ?? new Date(now()).toISOString();
    if (!job.finishedAt) await fenced(store.updateJob(job.id, owner, { finishedAt: generatedAt }));
    const pub = await publishEvaluation(store, new AuditLog(store, { signingKey: config.signingKey }), {
      model: {
        slug: sub.modelSlug ?? slugify(sub.modelName, `model-${sub.id}`),
        name: sub.modelName,
        vendor: sub.vendor,
      },
      suiteVersion: suite.version,
      summary,
      results,
      generatedAt,
    });
    await fenced(store.finishJob(job.id, owner, { state: 'done', reportHash: pub.reportHash }, now()));
    log.info({ job: job.id, report: pub.reportId, version: pub.datasetVersion }, 'eval worker: run published');
    const outcome: EvaluationOutcome = {
      suite: suite.version,
      conversations: summary.probes.conversations,
      replies: summary.probes.replies,
      failed: summary.probes.failed,
      honesty: summary.sycophancy.honesty,
      composite: summary.pai.composite,
      risk: summary.pai.risk,
      reportId: reportId(pub.reportHash),
      reportUrl: `${config.publicUrl}/report/${reportId(pub.reportHash)}`,
      verifyUrl: `${config.publicUrl}/api/verify?hash=${pub.reportHash}`,
      datasetVersion: pub.datasetVersion,
      slug: pub.slug,
    };
    await mail(deps, evaluationDoneMail(sub, outcome), config.email.admin, (a) =>
      evaluationDoneAdminMail(a, sub!, outcome),
    );
  } catch (err) {
    if (err instanceof Stopped || ac.signal.aborted) {
      log.info(
        { job: job.id, why: (ac.signal.reason as Error)?.message },
        'eval worker: run stopped; it resumes later',
      );
      return;
    }
    const reason = err instanceof RunFailure ? err.message : `internal error: ${(err as Error).message}`;
    if (!(err instanceof RunFailure))
      log.error({ job: job.id, err: (err as Error).message }, 'eval worker: run failed');
    const ended = await store.finishJob(job.id, owner, { state: 'failed', error: reason }, now()).catch(() => false);
    if (ended && sub) {
      log.info({ job: job.id, reason }, 'eval worker: run failed');
      await mail(deps, evaluationFailedMail(sub, reason), config.email.admin, (a) =>
        evaluationFailedAdminMail(a, sub!, reason),
      );
    }
  } finally {
    clearInterval(renew);
    stop.removeEventListener('abort', onStop);
  }
}

/** A store write of a lease holder: a refusal means the lease was lost, and the run stops. */
async function fenced(write: Promise<boolean>): Promise<void> {
  if (!(await write)) throw new Stopped('lease lost');
}

function makeClient(deps: WorkerDeps, job: EvalJob, sub: SubmissionRecord): ChatClient {
  let apiKey: string | undefined;
  if (job.apiKeyEnv !== undefined) {
    if (!ENV_NAME.test(job.apiKeyEnv)) throw new RunFailure('the credential variable name is not valid');
    apiKey = (deps.env ?? process.env)[job.apiKeyEnv];
    if (!apiKey) throw new RunFailure("the endpoint's credential is not available to the evaluation worker");
  }
  const opts: ChatClientOptions = {
    baseUrl: sub.apiEndpoint,
    model: job.model ?? sub.modelSlug ?? sub.modelName,
    ...(apiKey !== undefined && { apiKey }),
    allowPrivate: deps.config.evalJobs.allowPrivate,
    timeoutMs: deps.config.evalJobs.requestTimeoutMs,
    concurrency: deps.config.evalJobs.concurrency,
    maxResponseBytes: deps.config.evalJobs.maxResponseBytes,
  };
  try {
    return (deps.makeClient ?? createChatClient)(opts);
  } catch (err) {
    throw new RunFailure(`the endpoint cannot be called: ${(err as Error).message}`);
  }
}

async function mail(
  deps: WorkerDeps,
  toSubmitter: Parameters<Mailer['send']>[0],
  admin: string | undefined,
  adminMail: (admin: string) => Parameters<Mailer['send']>[0],
): Promise<void> {
  await Promise.all([deps.mailer.send(toSubmitter), ...(admin ? [deps.mailer.send(adminMail(admin))] : [])]);
}
