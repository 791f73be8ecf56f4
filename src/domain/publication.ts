/**
 * Publication of dataset versions through the store, so every instance serves the same version.
 *
 * - The store holds the current version and a publication counter (DatasetStore). A publisher reads the current
 *   version, builds the next one from it and publishes with compare-and-set on the counter; when another
 *   publication came first it builds again from that one, so no publication is lost and none rolls another back.
 * - Every instance polls the counter (one small read, every SVC_DATASET_POLL_MS, default 1 s) and fetches the
 *   document only when it moved; a version that does not validate is logged and the last good one stays.
 * - The bundled file (SVC_DATASET, dataset/leaderboard.json) is the seed: an empty store takes it as it is. On a
 *   store that already has versions, a model of the bundle is taken only when it was assessed later than the
 *   store's entry for that slug (or the store has none), as one new version with a history point; models the
 *   bundle does not have, or has older, stay as published. So a rebuilt bundle never rolls a newer publication
 *   back, and taking the same bundle twice changes nothing. `svc dataset export` writes the store's version out.
 */
import type { DatasetStore } from '../store/types.ts';
import {
  DatasetError,
  nextDataset,
  nextVersionLabel,
  parseDataset,
  type Dataset,
  type DatasetModel,
  type DatasetSource,
  type LoadedDataset,
  loadWaiters,
  type ModelUpdate,
  type SourceLogger,
} from './dataset.ts';

const MAX_ATTEMPTS = 20;

/** The published version in the store, validated; null when nothing was published yet. */
export async function readPublished(store: DatasetStore): Promise<{ seq: number; dataset: Dataset } | null> {
  const cur = await store.getPublishedDataset();
  if (!cur) return null;
  let doc: unknown;
  try {
    doc = JSON.parse(cur.json);
  } catch {
    throw new DatasetError(`published dataset version ${cur.seq} is not valid JSON`);
  }
  return { seq: cur.seq, dataset: parseDataset(doc) };
}

/**
 * Publish the version `build` makes from the current one (null when the store has none). `build` may return
 * null to publish nothing (e.g. nothing changed); it may run more than once when publications race.
 */
export async function publishNext(
  store: DatasetStore,
  build: (previous: Dataset | null) => Dataset | null,
): Promise<{ seq: number; dataset: Dataset } | null> {
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const cur = await readPublished(store);
    const next = build(cur?.dataset ?? null);
    if (next === null) return null;
    parseDataset(next);
    const seq = await store.publishDataset(JSON.stringify(next), cur?.seq ?? 0);
    if (seq !== null) return { seq, dataset: next };
    await new Promise((r) => setTimeout(r, 5 + Math.random() * 20 * (attempt + 1)));
  }
  throw new Error(`could not publish a dataset version after ${MAX_ATTEMPTS} attempts (publications kept racing)`);
}

/** An update that makes the published entry equal to a model of another dataset (keeping its history). */
export function updateFrom(m: DatasetModel): ModelUpdate | null {
  if (!m.sycophancy || !m.pai) return null;
  const { history: _h, ...syco } = m.sycophancy;
  const { history: _p, ...pai } = m.pai;
  return {
    slug: m.slug,
    name: m.name,
    vendor: m.vendor,
    assessed: m.assessed,
    transcripts: m.transcripts ?? 0,
    ...(m.report_hash !== undefined && { report_hash: m.report_hash }),
    ...(m.suite !== undefined && { suite: m.suite }),
    sycophancy: syco,
    pai,
  };
}

/** The next version with the bundle's models that are newer than the published ones; null when none is. */
export function mergeBundle(previous: Dataset | null, bundle: Dataset): Dataset | null {
  if (previous === null) return bundle;
  const published = new Map(previous.models.map((m) => [m.slug, m]));
  const updates: ModelUpdate[] = [];
  for (const m of bundle.models) {
    const old = published.get(m.slug);
    if (old && Date.parse(old.assessed) >= Date.parse(m.assessed)) continue;
    const u = updateFrom(m);
    if (u) updates.push(u);
  }
  if (updates.length === 0) return null;
  return nextDataset(previous, updates, {
    updated: new Date().toISOString(),
    version: nextVersionLabel(previous.meta.version),
    ...(bundle.meta.judges !== undefined && { judges: bundle.meta.judges }),
    ...(bundle.meta.kappa !== undefined && { kappa: bundle.meta.kappa }),
  });
}

/** Seed an empty store with the bundle, or take the bundle's newer models; says which. */
export async function takeBundle(store: DatasetStore, bundle: Dataset): Promise<'seeded' | 'merged' | 'unchanged'> {
  let seeded = false;
  const res = await publishNext(store, (previous) => {
    seeded = previous === null;
    return mergeBundle(previous, bundle);
  });
  return res === null ? 'unchanged' : seeded ? 'seeded' : 'merged';
}

export interface StoreDatasetSource extends DatasetSource {
  /** Poll once now: fetch the published version when the counter moved; true when a new version was taken. */
  reload(): Promise<boolean>;
  /** The next version this source takes (by its poll or a reload): an event to wait on instead of a clock. While
   * someone waits, the poll timer keeps the process alive. */
  nextLoad(): Promise<LoadedDataset>;
}

/**
 * Serve the store's published version, polling its counter. The first load must succeed (the caller seeds the
 * store first); later failures (store down, a bad version) are logged and the last good version stays.
 */
export async function openStoreDatasetSource(
  store: DatasetStore,
  log: SourceLogger,
  opts: { pollMs?: number } = {},
): Promise<StoreDatasetSource> {
  const first = await readPublished(store);
  if (!first) throw new DatasetError('the store has no published dataset version (seed it from the bundle first)');
  let loaded: LoadedDataset = { dataset: first.dataset };
  let seq = first.seq;
  let badSeq = -1;
  let polling: Promise<boolean> | undefined;
  const waiters = loadWaiters(() => timer);

  const poll = async (): Promise<boolean> => {
    const now = await store.datasetSeq();
    if (now === seq || now === badSeq) return false;
    try {
      const cur = await readPublished(store);
      if (!cur || cur.seq === seq) return false;
      loaded = { dataset: cur.dataset };
      seq = cur.seq;
      log.info({ version: cur.dataset.meta.version, seq, models: cur.dataset.models.length }, 'dataset loaded');
      return true;
    } catch (err) {
      badSeq = now;
      log.error({ err: (err as Error).message, seq: now }, 'new dataset rejected; keeping the last good version');
      return false;
    }
  };
  const reload = (): Promise<boolean> => {
    polling ??= poll()
      .catch((err: Error) => {
        log.error({ err: err.message }, 'cannot read the dataset version from the store');
        return false;
      })
      .finally(() => (polling = undefined))
      .then((took) => {
        // Waiters wake once this poll is over, so a reload they start is a new poll.
        if (took) waiters.wake(loaded);
        return took;
      });
    return polling;
  };
  const timer = setInterval(() => void reload(), opts.pollMs ?? 1000);
  timer.unref();
  return {
    current: () => loaded,
    reload,
    nextLoad: waiters.wait,
    close: () => clearInterval(timer),
  };
}
