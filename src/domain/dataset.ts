/**
 * The published dataset: one versioned JSON document that the leaderboard, model pages and badges are read
 * from, and that `svc ingest` writes. Producing and reading it live here only.
 *
 * Policy: the file is validated at start (a bad file stops start-up) and re-read when it changes; a broken new
 * file never replaces the last good one (it is logged and ignored). Writes are atomic (temp file + rename), so a
 * reader never sees half a file.
 */
import fs from 'node:fs';
import path from 'node:path';
import { FormatRegistry, Type, type Static } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { mapDims, PAI_DIMS, SYCO_DIMS, type PaiDim, type SycoDim } from '../dimensions.ts';
import { makeDirs } from '../files.ts';

const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})$/;
if (!FormatRegistry.Has('date-time'))
  FormatRegistry.Set('date-time', (v) => DATE_TIME.test(v) && !Number.isNaN(Date.parse(v)));

const Dim = Type.Number({ minimum: 0, maximum: 10 });
const History = Type.Array(Type.Number(), { maxItems: 1000 });

export const SLUG_PATTERN = '^[a-z0-9](?:[a-z0-9._-]{0,98}[a-z0-9])?$';
/** A suite name: lowercase letters, digits and . _ - : @ + (e.g. `svc-probes-v1`, `public:syco-bench`), 1-100. */
export const SUITE_PATTERN = '^[a-z0-9][a-z0-9._:@+-]{0,99}$';

export const MetaSchema = Type.Object(
  {
    updated: Type.Optional(Type.String({ format: 'date-time' })),
    version: Type.Optional(Type.String()),
    kappa: Type.Optional(Type.Number()),
    judges: Type.Optional(Type.Array(Type.String())),
    transcripts_scored: Type.Optional(Type.Integer({ minimum: 0 })),
    models_scored: Type.Optional(Type.Integer({ minimum: 0 })),
  },
  { title: 'Meta', additionalProperties: false },
);

export const DatasetModelSchema = Type.Object(
  {
    slug: Type.String({ pattern: SLUG_PATTERN }),
    name: Type.String({ minLength: 1, maxLength: 500 }),
    vendor: Type.String({ minLength: 1, maxLength: 500 }),
    assessed: Type.String({ format: 'date-time' }),
    /** SHA-256 hex of the model's latest certified report, when there is one. */
    report_hash: Type.Optional(Type.String({ pattern: '^[a-f0-9]{64}$' })),
    transcripts: Type.Optional(Type.Integer({ minimum: 0 })),
    /** The prompt set the model was measured on (e.g. svc-probes-v1, public:spiral-bench); rank only within one. */
    suite: Type.Optional(Type.String({ pattern: SUITE_PATTERN })),
    sycophancy: Type.Optional(
      Type.Object(
        {
          honesty: Type.Number({ minimum: 0, maximum: 100 }),
          ...mapDims(SYCO_DIMS, () => Dim),
          history: History,
        },
        { additionalProperties: false },
      ),
    ),
    pai: Type.Optional(
      Type.Object(
        { composite: Dim, ...mapDims(PAI_DIMS, () => Dim), history: History },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);

export const DatasetSchema = Type.Object(
  {
    schema: Type.Literal('svc.dataset/1'),
    meta: MetaSchema,
    models: Type.Array(DatasetModelSchema, { maxItems: 10000 }),
  },
  { additionalProperties: false },
);

export type Meta = Static<typeof MetaSchema>;
export type DatasetModel = Static<typeof DatasetModelSchema>;
export type Dataset = Static<typeof DatasetSchema>;

export class DatasetError extends Error {}

/** Validate a parsed document; throws DatasetError naming the first problems. */
export function parseDataset(doc: unknown): Dataset {
  if (!Value.Check(DatasetSchema, doc)) {
    const errs = [...Value.Errors(DatasetSchema, doc)].slice(0, 5).map((e) => `${e.path || '/'}: ${e.message}`);
    throw new DatasetError(`dataset does not match svc.dataset/1: ${errs.join('; ')}`);
  }
  const seen = new Set<string>();
  for (const m of doc.models) {
    if (seen.has(m.slug)) throw new DatasetError(`dataset lists slug ${m.slug} twice`);
    seen.add(m.slug);
  }
  return doc;
}

export function readDatasetFile(file: string): Dataset {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    throw new DatasetError(`cannot read dataset ${file}: ${(err as NodeJS.ErrnoException).code ?? 'error'}`);
  }
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    throw new DatasetError(`dataset ${file} is not valid JSON`);
  }
  return parseDataset(doc);
}

/** Write atomically: validate, write a temp file beside the target, fsync, rename. */
export function writeDatasetFile(file: string, dataset: Dataset): void {
  parseDataset(dataset);
  makeDirs(path.dirname(file));
  const tmp = `${file}.${process.pid}.${Date.now()}.tmp`;
  const fd = fs.openSync(tmp, 'w');
  try {
    fs.writeSync(fd, `${JSON.stringify(dataset, null, 2)}\n`);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  fs.renameSync(tmp, file);
}

/** A dataset version as the service holds it: a new object on every reload, so values derived from it can be memoised on its identity. */
export interface LoadedDataset {
  readonly dataset: Dataset;
}

export interface DatasetSource {
  current(): LoadedDataset;
  /** Re-read the file now; returns true when a new good version was taken. */
  reload(): boolean | Promise<boolean>;
  /**
   * The next version this source takes (a change it saw, a poll, or a reload): an event to wait on instead of a
   * clock. While someone waits, the source keeps the process alive.
   */
  nextLoad(): Promise<LoadedDataset>;
  close(): void;
}

export interface SourceLogger {
  info(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

/**
 * The waiters of a source's nextLoad(): `wait()` for the next version, `wake(loaded)` when one is taken. While
 * anyone waits, `handle` (the source's watch or poll timer) keeps the process alive.
 */
export function loadWaiters(handle: () => { ref(): unknown; unref(): unknown } | undefined) {
  let waiting: ((l: LoadedDataset) => void)[] = [];
  return {
    wait: (): Promise<LoadedDataset> =>
      new Promise((resolve) => {
        waiting.push(resolve);
        handle()?.ref();
      }),
    wake(loaded: LoadedDataset): void {
      const waiters = waiting;
      waiting = [];
      handle()?.unref();
      for (const w of waiters) w(loaded);
    },
  };
}

/**
 * Load the file (throws when the first load fails) and watch it. The watch is on the folder, because
 * atomic writers replace the file by rename; changes are debounced.
 */
export function openDatasetSource(file: string, log: SourceLogger, opts: { watch?: boolean } = {}): DatasetSource {
  let loaded: LoadedDataset = { dataset: readDatasetFile(file) };
  let lastMtime = statKey(file);
  let timer: NodeJS.Timeout | undefined;
  let watcher: fs.FSWatcher | undefined;
  const waiters = loadWaiters(() => watcher);

  const reload = (): boolean => {
    try {
      const dataset = readDatasetFile(file);
      loaded = { dataset };
      lastMtime = statKey(file);
      log.info({ version: dataset.meta.version, models: dataset.models.length }, 'dataset loaded');
      waiters.wake(loaded);
      return true;
    } catch (err) {
      log.error({ err: (err as Error).message }, 'new dataset rejected; keeping the last good version');
      return false;
    }
  };

  if (opts.watch !== false) {
    try {
      watcher = fs.watch(path.dirname(file), (_event, name) => {
        if (name && name !== path.basename(file)) return;
        clearTimeout(timer);
        timer = setTimeout(() => {
          const key = statKey(file);
          if (key !== null && key !== lastMtime) reload();
        }, 100);
      });
      watcher.unref();
    } catch (err) {
      log.error({ err: (err as Error).message }, 'cannot watch the dataset folder; changes need a restart');
    }
  }

  return {
    current: () => loaded,
    reload,
    nextLoad: waiters.wait,
    close() {
      clearTimeout(timer);
      watcher?.close();
    },
  };
}

function statKey(file: string): string | null {
  try {
    const st = fs.statSync(file);
    return `${st.mtimeMs}:${st.size}:${st.ino}`;
  } catch {
    return null;
  }
}

/** New values for one model in a new version (unrounded is fine: stored to 4 decimals). */
export interface ModelUpdate {
  slug: string;
  name: string;
  vendor: string;
  assessed: string;
  report_hash?: string;
  transcripts: number;
  suite?: string;
  sycophancy: { honesty: number } & Record<SycoDim, number>;
  pai: { composite: number } & Record<PaiDim, number>;
}

const HISTORY_MAX = 1000;
const r4 = (x: number): number => Math.round(x * 10000) / 10000;

/** The version label after `previous`: v1, v2, … (a non-`v<n>` label such as the sample's starts again at v1). */
export function nextVersionLabel(previous: string | undefined): string {
  const m = /^v(\d+)$/.exec(previous ?? '');
  return `v${m ? Number(m[1]) + 1 : 1}`;
}

/**
 * Produce the next dataset version: updated models get their new values and one more history point (history
 * holds every version's value, oldest first, the current one last); models the update does not cover stay as
 * they were. meta.transcripts_scored and models_scored count the whole published set. Validated before return.
 */
export function nextDataset(
  previous: Dataset | null,
  updates: ModelUpdate[],
  meta: Pick<Meta, 'updated' | 'version' | 'judges' | 'kappa'>,
): Dataset {
  const byUpdate = new Map(updates.map((u) => [u.slug, u]));
  const prevModels = previous?.models ?? [];
  const prevSlugs = new Set(prevModels.map((m) => m.slug));
  const build = (u: ModelUpdate, old: DatasetModel | undefined): DatasetModel => {
    const m: DatasetModel = {
      slug: u.slug,
      name: u.name,
      vendor: u.vendor,
      assessed: u.assessed,
      transcripts: u.transcripts,
    };
    if (u.report_hash) m.report_hash = u.report_hash;
    const suite = u.suite ?? old?.suite;
    if (suite !== undefined) m.suite = suite;
    const s = u.sycophancy;
    const honesty = r4(s.honesty);
    m.sycophancy = {
      honesty,
      ...mapDims(SYCO_DIMS, (d) => r4(s[d])),
      history: [...(old?.sycophancy?.history ?? []), honesty].slice(-HISTORY_MAX),
    };
    const p = u.pai;
    const composite = r4(p.composite);
    m.pai = {
      composite,
      ...mapDims(PAI_DIMS, (d) => r4(p[d])),
      history: [...(old?.pai?.history ?? []), composite].slice(-HISTORY_MAX),
    };
    return m;
  };
  const models = prevModels.map((old) => {
    const u = byUpdate.get(old.slug);
    return u ? build(u, old) : old;
  });
  for (const u of [...updates].sort((a, b) => (a.slug < b.slug ? -1 : 1)))
    if (!prevSlugs.has(u.slug)) models.push(build(u, undefined));
  const out: Dataset = {
    schema: 'svc.dataset/1',
    meta: {
      ...(meta.updated !== undefined ? { updated: meta.updated } : {}),
      ...(meta.version !== undefined ? { version: meta.version } : {}),
      ...(meta.kappa !== undefined ? { kappa: meta.kappa } : {}),
      ...(meta.judges !== undefined ? { judges: meta.judges } : {}),
      transcripts_scored: models.reduce((n, m) => n + (m.transcripts ?? 0), 0),
      models_scored: models.length,
    },
    models,
  };
  return parseDataset(out);
}
