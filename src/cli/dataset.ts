/**
 * `svc dataset`: the published dataset versions in the store (SVC_STORE_URL).
 *   svc dataset status              the version in service: label, publication number, models
 *   svc dataset export [--out FILE] write it (and its certified reports, into reports/ beside FILE) to a file;
 *                                   default FILE: SVC_DATASET, so the bundle can be refreshed from production
 *   svc dataset import [FILE]       take a bundle's models that are newer than the published ones (default
 *                                   SVC_DATASET); never replaces a newer publication
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../config.ts';
import { readDatasetFile, writeDatasetFile } from '../domain/dataset.ts';
import { readPublished, takeBundle } from '../domain/publication.ts';
import { reportsDirOf, writeReportFile } from '../domain/reports.ts';
import { createStore } from '../store/index.ts';

const USAGE = `usage:
  svc dataset status               the published version in the store (SVC_STORE_URL)
  svc dataset export [--out FILE]  write it and its reports to FILE (default: SVC_DATASET) and reports/ beside it
  svc dataset import [FILE]        publish a bundle's models that are newer than the published ones (default: SVC_DATASET)
`;

export async function run(args: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args,
      options: { out: { type: 'string' }, help: { type: 'boolean', default: false } },
      allowPositionals: true,
    });
  } catch {
    process.stderr.write(USAGE);
    return 2;
  }
  const { values, positionals } = parsed;
  const [verb, file, ...rest] = positionals;
  if (values.help || verb === 'help') {
    process.stdout.write(USAGE);
    return 0;
  }
  if (
    rest.length > 0 ||
    !['status', 'export', 'import'].includes(verb ?? '') ||
    (verb !== 'import' && file !== undefined) ||
    (verb !== 'export' && values.out !== undefined)
  ) {
    process.stderr.write(USAGE);
    return 2;
  }
  const config = loadConfig(process.env);
  if (config.store.kind === 'memory') {
    process.stderr.write(
      'svc dataset: no store is configured (SVC_STORE_URL=memory); versions live in the service only\n',
    );
    return 1;
  }
  const store = createStore(config.store);
  try {
    if (verb === 'import') {
      const source = path.resolve(file ?? config.datasetPath);
      const outcome = await takeBundle(store, readDatasetFile(source));
      const cur = await readPublished(store);
      process.stdout.write(
        `${outcome === 'unchanged' ? 'nothing newer in' : outcome === 'seeded' ? 'seeded the store from' : 'published the newer models of'} ${source}; in service: ${cur?.dataset.meta.version} (publication ${cur?.seq})\n`,
      );
      return 0;
    }
    const cur = await readPublished(store);
    if (!cur) {
      process.stderr.write(
        'svc dataset: nothing published yet (the service seeds the store from the bundle on start)\n',
      );
      return 1;
    }
    if (verb === 'status') {
      const m = cur.dataset.meta;
      process.stdout.write(
        `version ${m.version ?? '(none)'}, publication ${cur.seq}, updated ${m.updated ?? '?'}, ${cur.dataset.models.length} model(s)\n`,
      );
      return 0;
    }
    const out = path.resolve(values.out ?? config.datasetPath);
    const dir = reportsDirOf(out);
    let reports = 0;
    for (const m of cur.dataset.models) {
      if (!m.report_hash) continue;
      const json = await store.getReport(m.report_hash);
      if (json === null) continue;
      writeReportFile(dir, m.report_hash, json);
      reports += 1;
    }
    writeDatasetFile(out, cur.dataset);
    process.stdout.write(
      `exported ${cur.dataset.meta.version} (publication ${cur.seq}) to ${out} with ${reports} report(s) in ${dir}\n`,
    );
    return 0;
  } finally {
    await store.close();
  }
}
