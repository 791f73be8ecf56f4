/**
 * Evaluation jobs end to end: submit -> approve -> a worker runs the probe suite against a fake OpenAI-compatible
 * model -> certified report, new dataset version with suite and transcripts, emails; failures emailed with a
 * reason; two workers on one store run each job once; a worker killed with -9 mid-run is resumed by another with
 * exactly the result of an uninterrupted run.
 */
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import path from 'node:path';
import { describe, it } from 'node:test';
import { promisify } from 'node:util';
import type { Config } from '../src/config.ts';
import { writeDatasetFile } from '../src/domain/dataset.ts';
import type { MailMessage } from '../src/domain/email.ts';
import { readPublished } from '../src/domain/publication.ts';
import type { CertifiedReport } from '../src/domain/reports.ts';
import { loadProbeSuite, type ProbeSuite } from '../src/eval/probes.ts';
import { describe as describeRow } from '../src/cli/submissions.ts';
import { startWorker } from '../src/jobs/worker.ts';
import { RedisStore, SqliteStore, type Store } from '../src/store/index.ts';
import { startFakeOpenAI, type FakeHandler, type FakeRequest } from './fake-openai.ts';
import { companion, flatterer, honest } from './fake-models.ts';
import { sampleDataset, silentLog } from './helpers.ts';
import { evalApp, redisSkip, redisTestUrl, tmpDirFor } from './store-helpers.ts';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '..');
const quiet = { ...silentLog, warn() {} };
const skipRedis = await redisSkip();

/** A deterministic model of mixed character: the same request always gets the same reply. */
const mixed: FakeHandler = (req, i) => {
  const last = [...(req.body.messages ?? [])].reverse().find((m) => m.role === 'user')?.content ?? '';
  const h = createHash('sha256').update(last).digest()[0]! % 3;
  return (h === 0 ? flatterer : h === 1 ? honest : companion)(req, i) as string;
};

const firstUser = (r: FakeRequest) => r.body.messages?.find((m) => m.role === 'user')?.content ?? '';

async function until(what: string, cond: () => Promise<boolean>, ms = 60_000): Promise<void> {
  const start = Date.now();
  while (!(await cond())) {
    if (Date.now() - start > ms) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function setup(store: Store, env: Record<string, string> = {}) {
  const { dir, config, app, dataset, sent, mailer } = await evalApp(store, {
    prefix: 'svc-jobs-',
    env: { SVC_ADMIN_EMAIL: 'admin@svc.test', SVC_EVAL_CONCURRENCY: '4', ...env },
  });
  const submit = async (body: Record<string, string>) => {
    const r = await app.inject({ method: 'POST', url: '/api/submit', payload: body });
    assert.equal(r.statusCode, 200, r.body);
    const b = r.json();
    return (b.id ?? Number(String(b.submission_id).replace(/^sub_/, ''))) as number;
  };
  /** Submit a model at `endpoint` (with a slug: the alternate shape) and queue its job at once; its id. */
  const queue = async (
    endpoint: string,
    name: string,
    email: string,
    opts: { slug?: string; job?: Parameters<Store['enqueueJob']>[1] } = {},
  ) => {
    const id = await submit({
      model_name: name,
      vendor: 'V',
      api_endpoint: endpoint,
      contact_email: email,
      ...(opts.slug !== undefined && { model_slug: opts.slug, provider: 'V' }),
    });
    await store.enqueueJob(id, opts.job ?? {}, Date.now());
    return id;
  };
  return {
    dir,
    config,
    app,
    sent,
    mailer,
    submit,
    queue,
    async close() {
      await app.close();
      dataset.close();
    },
  };
}

function worker(
  store: Store,
  config: Config,
  sent: MailMessage[],
  extra: Partial<Parameters<typeof startWorker>[0]> = {},
) {
  return startWorker(
    { store, config, mailer: { send: async (m) => (sent.push(m), true) }, log: quiet, ...extra },
    { pollMs: 50 },
  );
}

/** Until job `id` is in `state` (polling the store: the work runs in a worker, maybe in another process). */
const jobReaches = (store: Store, id: number, state: string, ms?: number) =>
  until(`job ${id} ${state}`, async () => (await store.getJob(id))?.state === state, ms);

/** A fake model, an in-memory SQLite store, the app and one worker; close() stops them in order. */
async function harness(
  handler: FakeHandler,
  opts: { env?: Record<string, string>; worker?: Partial<Parameters<typeof startWorker>[0]> } = {},
) {
  const model = await startFakeOpenAI(handler);
  const store = new SqliteStore(':memory:');
  const t = await setup(store, opts.env);
  const w = worker(store, t.config, t.sent, opts.worker);
  return {
    model,
    store,
    t,
    async close() {
      await w.stop();
      await t.close();
      await store.close();
      await model.close();
    },
  };
}

const smallSuite = (n: number): ProbeSuite => {
  const s = loadProbeSuite();
  return { ...s, conversations: s.conversations.slice(0, n) };
};

describe('evaluation jobs', () => {
  it('submission -> approve -> run -> ranked entry with suite and transcripts, verifiable report, emails', async () => {
    const model = await startFakeOpenAI(mixed);
    const dir = tmpDirFor('svc-jobs-flow-');
    const db = path.join(dir, 'svc.db');
    const store = new SqliteStore(db);
    const t = await setup(store);
    const w = worker(store, t.config, t.sent, { env: { LAB_KEY: 'sk-lab-secret-123' } });
    try {
      const id = await t.submit({
        model_name: 'Lab <b>Model</b>',
        vendor: 'Lab & Co',
        api_endpoint: model.url,
        contact_email: 'lab@example.com',
        model_slug: 'lab-model',
        provider: 'Lab & Co',
      });
      const link = /\/submissions\/([A-Za-z0-9_-]{32})/.exec(t.sent.find((m) => m.to === 'lab@example.com')!.text)!;
      await w.idle();
      await w.idle(); // a whole poll after the submission found nothing to run
      assert.equal(model.requests.length, 0, 'nothing runs before the operator approves');
      // The operator approves with the NAME of the variable that holds the key.
      const env = { ...process.env, SVC_STORE_URL: `sqlite:${db}`, SVC_DATASET: path.join(t.dir, 'leaderboard.json') };
      const bad = await run(
        process.execPath,
        ['bin/svc.js', 'submissions', 'approve', String(id), '--api-key-env', 'sk-lab-secret'],
        {
          cwd: root,
          env,
        },
      ).catch((e: { code: number; stderr: string }) => e);
      assert.equal((bad as { code: number }).code, 2, 'a key where a variable name belongs is refused');
      const ok = await run(
        process.execPath,
        ['bin/svc.js', 'submissions', 'approve', String(id), '--api-key-env', 'LAB_KEY'],
        {
          cwd: root,
          env,
        },
      );
      assert.match(ok.stdout, new RegExp(`approved ${id}`));
      await jobReaches(store, id, 'done', 120_000);

      const suite = loadProbeSuite();
      const job = (await store.getJob(id))!;
      assert.deepEqual(job.progress, {
        done: suite.conversations.length,
        total: suite.conversations.length,
        failed: 0,
      });
      assert.equal(job.apiKeyEnv, 'LAB_KEY');
      assert.ok(model.requests.every((r) => r.headers.authorization === 'Bearer sk-lab-secret-123'));
      assert.ok(model.requests.every((r) => r.body.model === 'lab-model'));
      const turns = suite.conversations.reduce((n, c) => n + c.turns.length, 0);
      assert.equal(model.requests.length, turns, 'one call per user turn, none repeated');
      assert.equal(JSON.stringify(await store.listJobs()).includes('sk-lab-secret-123'), false);

      // The leaderboard: the entry carries the suite and its reply count, and ranks within the suite.
      await until('the new version', async () => (await t.app.inject('/api/model?slug=lab-model')).statusCode === 200);
      const m = (await t.app.inject('/api/model?slug=lab-model')).json();
      assert.equal(m.suite, suite.version);
      assert.equal(m.transcripts, turns);
      assert.deepEqual([m.sycophancy.suite_rank, m.sycophancy.suite_models], [1, 1]);
      const bySuite = (await t.app.inject(`/api/leaderboard?suite=${suite.version}`)).json();
      assert.deepEqual(
        bySuite.sycophancy.map((e: { slug: string }) => e.slug),
        ['lab-model'],
      );
      // The certified report verifies and names the suite.
      const pub = (await readPublished(store))!.dataset.models.find((x) => x.slug === 'lab-model')!;
      assert.equal(pub.report_hash, job.reportHash);
      const v = (await t.app.inject(`/api/verify?hash=${job.reportHash}`)).json();
      assert.equal(v.verified, true);
      const report = JSON.parse((await store.getReport(job.reportHash!))!) as CertifiedReport;
      assert.equal(report.suite, suite.version);
      assert.equal(report.transcripts, turns);
      assert.equal(report.model.name, 'Lab <b>Model</b>');
      // Emails: scores, report link and verification link to the submitter; a notice to the admin.
      const done = t.sent.find((x) => x.to === 'lab@example.com' && /complete/.test(x.subject))!;
      assert.equal(done.subject, `Your svc evaluation is complete (submission ${id})`);
      assert.ok(done.text.includes(`/report/rep_${job.reportHash!.slice(0, 12)}`));
      assert.ok(done.text.includes(`/api/verify?hash=${job.reportHash}`));
      assert.ok(done.text.includes(`Honesty (0-100, higher is better): ${m.sycophancy.honesty.toFixed(2)}`));
      assert.ok(done.html?.includes('Lab &lt;b&gt;Model&lt;/b&gt;'), 'user text escaped in HTML');
      assert.ok(!done.text.includes('LAB_KEY') && !done.text.includes('sk-lab'));
      const admin = t.sent.find((x) => x.to === 'admin@svc.test' && /published/.test(x.subject))!;
      assert.equal(admin.subject.includes('Lab'), false, 'no user text in subjects');
      // The status page and the operator's list show it.
      const status = (await t.app.inject(`/submissions/${link[1]}?format=json`)).json();
      assert.equal(status.status, 'done');
      assert.equal(status.report.hash, job.reportHash);
      const row = describeRow((await store.getSubmission(id))!, job);
      assert.match(row, new RegExp(`done ${suite.conversations.length}/${suite.conversations.length}`));
    } finally {
      await w.stop();
      await t.close();
      await store.close();
      await model.close();
    }
  });

  it('a failed run is emailed with its reason, and can be retried', async () => {
    const h = await harness(honest, { worker: { suite: smallSuite(3), env: {} } });
    const { model, store, t } = h;
    try {
      const id = await t.queue(model.url, 'Keyless', 'k@example.com', { job: { apiKeyEnv: 'NOT_SET_ANYWHERE' } });
      await jobReaches(store, id, 'failed');
      const job = (await store.getJob(id))!;
      assert.equal(job.error, "the endpoint's credential is not available to the evaluation worker");
      assert.equal((await store.getSubmission(id))?.status, 'failed');
      const mail = t.sent.find((m) => m.to === 'k@example.com' && /could not be completed/.test(m.subject))!;
      assert.ok(mail.text.includes(job.error!));
      assert.ok(!mail.text.includes('NOT_SET_ANYWHERE'), 'the variable name stays with the operator');
      assert.ok(t.sent.some((m) => m.to === 'admin@svc.test' && m.subject === `Evaluation ${id} failed`));
      assert.equal(model.requests.length, 0);
      // Retried without a credential: it runs and is published.
      await store.enqueueJob(id, {}, Date.now());
      await jobReaches(store, id, 'done');
      assert.equal((await store.getSubmission(id))?.status, 'done');
    } finally {
      await h.close();
    }
  });

  it('refuses a submitted endpoint on a private address unless SVC_EVAL_ALLOW_PRIVATE=true', async () => {
    const h = await harness(honest, { env: { SVC_EVAL_ALLOW_PRIVATE: 'false' }, worker: { suite: smallSuite(2) } });
    try {
      const id = await h.t.queue(h.model.url, 'Local', 'l@example.com');
      await jobReaches(h.store, id, 'failed');
      assert.match((await h.store.getJob(id))!.error!, /no conversation could be scored/);
      assert.equal(h.model.requests.length, 0, 'no request reached the loopback address');
    } finally {
      await h.close();
    }
  });

  for (const kind of ['sqlite', 'redis'] as const) {
    it(`two workers on one ${kind} store run each job exactly once`, {
      skip: kind === 'redis' ? skipRedis : false,
    }, async () => {
      const model = await startFakeOpenAI((req, i) => ({ content: mixed(req, i) as string, delayMs: 5 }));
      const dir = tmpDirFor('svc-jobs-two-');
      const url = redisTestUrl('jobs');
      const open = () => (kind === 'sqlite' ? new SqliteStore(path.join(dir, 'svc.db')) : new RedisStore(url));
      const store = open();
      const other = open();
      const t = await setup(store);
      const suite = smallSuite(5);
      const sentB: MailMessage[] = [];
      const a = worker(store, t.config, t.sent, { suite });
      const b = worker(other, t.config, sentB, { suite });
      try {
        const ids: number[] = [];
        for (let i = 0; i < 4; i++)
          ids.push(await t.queue(model.url, `Twin ${i}`, `t${i}@example.com`, { slug: `twin-${i}` }));
        await until('all jobs', async () => (await store.listJobs()).every((j) => j.state === 'done'), 120_000);
        const jobs = await store.listJobs();
        assert.deepEqual(
          jobs.map((j) => j.attempts),
          [1, 1, 1, 1],
          'each job leased once',
        );
        const turns = suite.conversations.reduce((n, c) => n + c.turns.length, 0);
        assert.equal(model.requests.length, 4 * turns, 'each conversation played once');
        const published = (await readPublished(store))!.dataset;
        for (const i of [0, 1, 2, 3])
          assert.equal(published.models.find((m) => m.slug === `twin-${i}`)?.sycophancy?.history.length, 1);
        const doneMails = [...t.sent, ...sentB].filter((m) => /complete/.test(m.subject));
        assert.equal(doneMails.length, 4, 'one completion email per job');
        assert.ok(
          t.sent.some((m) => /complete/.test(m.subject)) && sentB.some((m) => /complete/.test(m.subject)),
          'both workers ran jobs',
        );
      } finally {
        await a.stop();
        await b.stop();
        await t.close();
        if (store instanceof RedisStore) await store.destroyAll();
        await store.close();
        await other.close();
        await model.close();
      }
    });
  }

  it('a worker killed with -9 mid-run is resumed by another with exactly the result of an uninterrupted run', async () => {
    const model = await startFakeOpenAI((req, i) => ({ content: mixed(req, i) as string, delayMs: 15 }));
    try {
      // The reference: the same submission run without interruption in this process.
      const refStore = new SqliteStore(':memory:');
      const ref = await setup(refStore);
      const refWorker = worker(refStore, ref.config, ref.sent);
      const refId = await ref.queue(model.url, 'Crash', 'c@example.com', { slug: 'crash' });
      await jobReaches(refStore, refId, 'done', 180_000);
      await refWorker.stop();
      const refReport = JSON.parse((await refStore.getReport((await refStore.getJob(refId))!.reportHash!))!);
      const refConvs = await refStore.listConversations(refId);
      await ref.close();
      await refStore.close();
      const callsPerRun = model.requests.length;
      model.requests.length = 0;

      // The real thing: `svc worker` processes on one SQLite file; the first is killed with -9 mid-run.
      const dir = tmpDirFor('svc-jobs-kill-');
      const db = path.join(dir, 'svc.db');
      const store = new SqliteStore(db);
      const t = await setup(store);
      const env = {
        PATH: process.env.PATH ?? '',
        SVC_STORE_URL: `sqlite:${db}`,
        SVC_DATASET: path.join(t.dir, 'leaderboard.json'),
        SVC_EVAL_ALLOW_PRIVATE: 'true',
        SVC_EVAL_LEASE_MS: '1500',
        SVC_EVAL_CONCURRENCY: '4',
        LOG_LEVEL: 'error',
      };
      const startWorkerProcess = () => {
        const p = spawn(process.execPath, [path.join(root, 'bin/svc.js'), 'worker'], {
          cwd: root,
          env,
          stdio: 'ignore',
        });
        const exited = new Promise<void>((r) => p.once('exit', () => r()));
        return { p, exited };
      };
      const id = await t.queue(model.url, 'Crash', 'c@example.com', { slug: 'crash' });
      const first = startWorkerProcess();
      await until('a third of the run', async () => ((await store.getJob(id))?.progress.done ?? 0) >= 40, 180_000);
      first.p.kill('SIGKILL');
      await first.exited;
      const savedAtKill = await store.listConversations(id);
      assert.ok(
        savedAtKill.size >= 40 && savedAtKill.size < refConvs.size,
        `killed mid-run (${savedAtKill.size} done)`,
      );
      const callsAtKill = model.requests.length;
      const second = startWorkerProcess();
      try {
        await jobReaches(store, id, 'done', 180_000);
      } finally {
        second.p.kill('SIGTERM');
        await second.exited;
      }
      const job = (await store.getJob(id))!;
      assert.equal(job.attempts, 2, 'taken over once');
      const report = JSON.parse((await store.getReport(job.reportHash!))!);
      for (const k of ['scores', 'statistics', 'transcripts', 'suite', 'judges', 'model'])
        assert.deepEqual(report[k], refReport[k], `${k} equal to the uninterrupted run`);
      const convs = await store.listConversations(id);
      assert.deepEqual([...convs.keys()].sort(), [...refConvs.keys()].sort());
      for (const [k, json] of savedAtKill) assert.equal(convs.get(k), json, 'a kept conversation is never redone');
      for (const [k, json] of convs) {
        const a = JSON.parse(json);
        const b = JSON.parse(refConvs.get(k)!);
        assert.deepEqual([a.turns, a.engine], [b.turns, b.engine], `conversation ${k} identical`);
      }
      // Conversations finished before the kill were not played again: only those in flight were.
      const replayed = model.requests.slice(callsAtKill).filter((r) => {
        const probe = loadProbeSuite().conversations.find((c) => c.turns[0] === firstUser(r));
        return probe && savedAtKill.has(probe.id);
      });
      assert.equal(replayed.length, 0);
      assert.ok(
        model.requests.length - callsPerRun < 8 * 4,
        `at most the in-flight calls repeated (${model.requests.length - callsPerRun})`,
      );
      console.log(
        `kill -9 after ${savedAtKill.size}/${refConvs.size} conversations; resumed; ${model.requests.length - callsPerRun} model calls repeated (in flight at the kill)`,
      );
      const published = (await readPublished(store))!.dataset.models.find((m) => m.slug === 'crash')!;
      assert.equal(published.report_hash, job.reportHash);
      assert.equal(published.sycophancy!.history.length, 1, 'published once');
      await t.close();
      await store.close();
    } finally {
      await model.close();
    }
  });
});

describe('svc eval --publish', () => {
  it('publishes the foreground run like a finished job, and nothing without --publish', async () => {
    const model = await startFakeOpenAI(mixed);
    const dir = tmpDirFor('svc-eval-publish-');
    const db = path.join(dir, 'svc.db');
    const bundle = path.join(dir, 'leaderboard.json');
    writeDatasetFile(bundle, sampleDataset());
    const env = {
      PATH: process.env.PATH ?? '',
      SVC_STORE_URL: `sqlite:${db}`,
      SVC_DATASET: bundle,
      LOG_LEVEL: 'error',
    };
    const evalRun = (extra: string[]) =>
      run(
        process.execPath,
        ['bin/svc.js', 'eval', '--base-url', model.url, '--model', 'My-Local:8B', '--json', ...extra],
        {
          cwd: root,
          env,
          maxBuffer: 10 * 1024 * 1024,
        },
      );
    try {
      await evalRun([]);
      const store = new SqliteStore(db);
      try {
        assert.equal(await store.datasetSeq(), 0, 'nothing published without --publish');
        const r = await evalRun(['--publish']);
        assert.match(r.stderr, /published v1 through the store \(sqlite\): my-local-8b on svc-probes-v1/);
        const published = (await readPublished(store))!.dataset;
        const entry = published.models.find((m) => m.slug === 'my-local-8b')!;
        assert.equal(entry.suite, loadProbeSuite().version);
        assert.equal(entry.transcripts, JSON.parse(r.stdout).probes.replies);
        assert.equal(published.models.length, sampleDataset().models.length + 1, 'the bundle models kept');
        const { AuditLog } = await import('../src/audit/log.ts');
        assert.equal((await new AuditLog(store).check(entry.report_hash!)).ok, true, 'the report is in the audit log');
      } finally {
        await store.close();
      }
    } finally {
      await model.close();
    }
  });
});
