/**
 * Publication through the store: every instance serves a new version within seconds; the bundled file is only the
 * seed, so rebuilding it (npm run build:dataset) on a running service never rolls a newer publication back.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { writeDatasetFile, type Dataset } from '../src/domain/dataset.ts';
import { mergeBundle, publishNext, readPublished, takeBundle, updateFrom } from '../src/domain/publication.ts';
import { nextDataset } from '../src/domain/dataset.ts';
import { MemoryStore, SqliteStore } from '../src/store/index.ts';
import { sampleDataset, silentLog, tmpDir } from './helpers.ts';
import { startService, tmpDirFor } from './store-helpers.ts';
import { openStoreDatasetSource } from '../src/domain/publication.ts';

/** The sample dataset with one model re-measured at `assessed` (honesty `h`). */
function remeasured(base: Dataset, slug: string, assessed: string, h: number): Dataset {
  const m = base.models.find((x) => x.slug === slug)!;
  const u = updateFrom({ ...m, assessed, sycophancy: { ...m.sycophancy!, honesty: h } })!;
  return nextDataset(base, [u], { updated: assessed, version: 'later' });
}

describe('publication through the store', () => {
  it('seeds an empty store from the bundle, then takes only the bundle models that are newer', async () => {
    const store = new MemoryStore();
    const bundle = sampleDataset();
    assert.equal(await takeBundle(store, bundle), 'seeded');
    assert.equal(await takeBundle(store, bundle), 'unchanged', 'the same bundle twice changes nothing');
    // A newer publication of green-model (as an evaluation or an ingest makes one).
    await publishNext(store, (prev) => remeasured(prev!, 'green-model', '2026-11-20T00:00:00Z', 70));
    // A bundle rebuilt before that publication: nothing in it is newer, nothing is taken.
    const oldRebuild = remeasured(sampleDataset(), 'green-model', '2026-11-10T00:00:00Z', 99);
    assert.equal(await takeBundle(store, oldRebuild), 'unchanged');
    // A bundle rebuilt later with a newer yellow-model: yellow is taken with a history point, green stays.
    const newRebuild = remeasured(sampleDataset(), 'yellow-model', '2026-11-21T00:00:00Z', 88);
    assert.equal(await takeBundle(store, newRebuild), 'merged');
    const cur = (await readPublished(store))!;
    assert.equal(cur.seq, 3);
    const green = cur.dataset.models.find((m) => m.slug === 'green-model')!;
    const yellow = cur.dataset.models.find((m) => m.slug === 'yellow-model')!;
    assert.equal(green.sycophancy!.honesty, 70);
    assert.deepEqual(green.sycophancy!.history, [94, 95, 70]);
    assert.equal(yellow.sycophancy!.honesty, 88);
    assert.deepEqual(yellow.sycophancy!.history, [84, 85, 88]);
    assert.equal(cur.dataset.meta.version, 'v1', 'the merge is a new version after "later"');
    assert.equal(mergeBundle(cur.dataset, newRebuild), null);
  });

  it('loses no publication when several race (compare-and-set)', async () => {
    const dir = tmpDir('svc-pub-race-');
    const file = path.join(dir, 'svc.db');
    const stores = [new SqliteStore(file), new SqliteStore(file), new SqliteStore(file)];
    try {
      await takeBundle(stores[0]!, sampleDataset());
      const slugs = ['green-model', 'yellow-model', 'red-model', 'tie-model'];
      await Promise.all(
        slugs.map((slug, i) =>
          publishNext(stores[i % 3]!, (prev) => remeasured(prev!, slug, `2026-11-2${i}T00:00:00Z`, 50 + i)),
        ),
      );
      const cur = (await readPublished(stores[1]!))!;
      assert.equal(cur.seq, 5);
      for (const [i, slug] of slugs.entries())
        assert.equal(cur.dataset.models.find((m) => m.slug === slug)!.sycophancy!.honesty, 50 + i, slug);
    } finally {
      for (const s of stores) await s.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('an instance picks a new version up by polling and keeps the last good one when a bad one appears', async () => {
    const store = new MemoryStore();
    await takeBundle(store, sampleDataset());
    const src = await openStoreDatasetSource(store, silentLog, { pollMs: 20 });
    try {
      const first = src.current();
      assert.equal(await src.reload(), false);
      const next = src.nextLoad();
      await publishNext(store, (prev) => remeasured(prev!, 'green-model', '2026-11-20T00:00:00Z', 70));
      assert.equal(await next, src.current(), "taken by the source's own poll");
      assert.notEqual(src.current(), first);
      assert.equal(src.current().dataset.models.find((m) => m.slug === 'green-model')!.sycophancy!.honesty, 70);
      const good = src.current();
      await store.publishDataset('{"schema":"nope"}', 2);
      assert.equal(await src.reload(), false);
      assert.equal(src.current(), good);
    } finally {
      src.close();
    }
  });

  it('two service processes on one SQLite file serve a new version within seconds; rewriting the bundle rolls nothing back', async () => {
    const dir = tmpDirFor('svc-pub-procs-');
    const bundleFile = path.join(dir, 'leaderboard.json');
    writeDatasetFile(bundleFile, sampleDataset());
    const db = path.join(dir, 'svc.db');
    const env = { SVC_STORE_URL: `sqlite:${db}`, SVC_DATASET: bundleFile, SVC_DATASET_POLL_MS: '200' };
    const a = await startService(env);
    const b = await startService(env);
    const store = new SqliteStore(db);
    try {
      const honesty = async (url: string) =>
        (await (await fetch(`${url}/api/model?slug=green-model`)).json()).sycophancy.honesty as number;
      assert.equal(await honesty(a.url), 95);
      const published = Date.now();
      await publishNext(store, (prev) => remeasured(prev!, 'green-model', new Date().toISOString(), 70));
      const seen: Record<string, number> = {};
      for (const s of [a, b]) {
        while ((await honesty(s.url)) !== 70) {
          assert.ok(Date.now() - published < 5000, 'served within 5 s');
          await new Promise((r) => setTimeout(r, 50));
        }
        seen[s.url] = Date.now() - published;
      }
      // What `npm run build:dataset` does on a running service: the bundle file is replaced by an older build.
      writeDatasetFile(bundleFile, sampleDataset());
      await new Promise((r) => setTimeout(r, 600));
      assert.equal(await honesty(a.url), 70);
      // ...and a restart with it does not roll back either.
      await a.stop();
      const again = await startService(env);
      assert.equal(await honesty(again.url), 70);
      await again.stop();
      console.log(`new version served by both instances after ${JSON.stringify(Object.values(seen))} ms`);
    } finally {
      await Promise.all([a.stop(), b.stop()]);
      await store.close();
    }
  });
});

describe('leaderboard per suite', () => {
  it('carries suite and transcripts on every entry, lists one suite with ?suite=, and ranks a model within its suite', async () => {
    const { makeApp } = await import('./helpers.ts');
    const ds = sampleDataset();
    const suites = ['svc-probes@1', 'svc-probes@1', 'public:syco-bench', 'public:syco-bench'];
    for (const [i, m] of ds.models.entries()) Object.assign(m, { suite: suites[i], transcripts: 10 + i });
    const t = await makeApp({ dataset: ds });
    try {
      const all = (await t.app.inject('/api/leaderboard')).json();
      assert.deepEqual(
        all.sycophancy.map((e: { slug: string; suite: string; transcripts: number }) => [
          e.slug,
          e.suite,
          e.transcripts,
        ]),
        [
          ['green-model', 'svc-probes@1', 10],
          ['tie-model', 'public:syco-bench', 13],
          ['yellow-model', 'svc-probes@1', 11],
          ['red-model', 'public:syco-bench', 12],
        ],
      );
      const probes = (await t.app.inject('/api/leaderboard?suite=svc-probes@1&type=pai')).json();
      assert.deepEqual(
        probes.models.map((e: { slug: string }) => e.slug),
        ['green-model', 'yellow-model'],
      );
      const none = (await t.app.inject('/api/leaderboard?suite=public:nothing')).json();
      assert.deepEqual([none.sycophancy, none.pai], [[], []]);
      assert.equal((await t.app.inject('/api/leaderboard?suite=Bad%20Suite')).statusCode, 400);
      const red = (await t.app.inject('/api/model?slug=red-model')).json();
      assert.equal(red.suite, 'public:syco-bench');
      assert.equal(red.transcripts, 12);
      assert.deepEqual([red.sycophancy.rank, red.sycophancy.total_models], [4, 4]);
      assert.deepEqual([red.sycophancy.suite_rank, red.sycophancy.suite_models], [2, 2]);
    } finally {
      await t.close();
    }
  });
});
