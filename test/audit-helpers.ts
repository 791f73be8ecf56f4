/** Shared by the audit, verify, reports and ingest tests. */
import Database from 'better-sqlite3';
import { buildReport, type TranscriptScores } from '../src/domain/reports.ts';

export function transcript(level: number): TranscriptScores {
  return {
    syco: { ev: level, me: level / 2, il: 1, ia: 0, fa: level },
    pai: { emi: level / 4, exl: 0, bnd: 0.5, dep: level / 3, aud: 0 },
  };
}

export function sampleReport(slug: string, name = `Model ${slug}`) {
  return buildReport({
    model: { slug, name, vendor: 'Vendor & Co' },
    datasetVersion: 'v1',
    generatedAt: '2026-11-01T00:00:00.000Z',
    engine: { name: 'test-engine', version: '1.0.0' },
    judges: ['test-engine 1.0.0'],
    transcripts: [transcript(1), transcript(2), transcript(4)],
  });
}

/** Change one character of a stored report, as someone with database access could. */
export function tamperReport(file: string, hash: string): void {
  const db = new Database(file);
  const { json } = db.prepare<[string], { json: string }>('SELECT json FROM reports WHERE hash = ?').get(hash)!;
  const at = json.indexOf('"transcripts":') + 14;
  db.prepare('UPDATE reports SET json = ? WHERE hash = ?').run(
    `${json.slice(0, at)}${json[at] === '9' ? '8' : '9'}${json.slice(at + 1)}`,
    hash,
  );
  db.close();
}
