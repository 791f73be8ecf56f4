/**
 * Publish a finished evaluation as `svc ingest` publishes transcripts: one certified report (stored, appended to
 * the audit log), then a new dataset version through the store with a history point for the model, on the
 * probe suite (`suite` = the suite's version, e.g. svc-probes-v1). Used by the worker and `svc eval --publish`.
 *
 * - Transcripts: every scored reply of the conversations that did not fail (the engine's scores as the runner
 *   kept them; nothing is re-scored). `transcripts` on the entry and in the report is that reply count.
 * - Slug: the submission's model_slug, else its name made into a slug. When that slug is already on the
 *   leaderboard measured on another suite (e.g. the bundled public transcripts of the same model), the
 *   evaluation's entry is `<slug>-<suite>` instead, so the two measurements never share one history.
 * - Examples: the report carries the replies with the most evidence (the summary's `worst`, strongest first) with
 *   the engine's evidence spans, so that the model and report pages can show them with the quotes highlighted.
 *   Bounded (EXAMPLE_LIMITS): at most 5 replies, each cut to 1,500 characters (its prompt to 600), at most 8 spans
 *   each; spans past the cut are dropped. They live in the certified report, so they survive a restart with it.
 * - Idempotent: `generatedAt` is fixed by the caller (the job keeps it), and a version whose entry for the slug
 *   already has that `assessed` time is not published again, so a worker that resumes after a crash in the
 *   middle of publishing neither publishes twice nor makes a second report.
 */
import type { AuditLog } from '../audit/log.ts';
import { nextDataset, nextVersionLabel, SLUG_PATTERN, type Dataset, type DatasetModel } from '../domain/dataset.ts';
import { publishThroughStore, type IngestPlan } from '../domain/ingest.ts';
import { readPublished } from '../domain/publication.ts';
import { buildReport, reportId, sealReport, type ReportExample } from '../domain/reports.ts';
import type { ConversationResult, EvalSummary, WorstReply } from '../eval/run.ts';
import { ENGINE } from '../scoring/engine.ts';
import type { DatasetStore, ReportStore } from '../store/types.ts';

const SLUG = new RegExp(SLUG_PATTERN);

export class PublishError extends Error {}

/** Bounds of a report's examples (see the header): about 12 KB of text at most. */
export const EXAMPLE_LIMITS = { replies: 5, replyChars: 1500, promptChars: 600, spans: 8 };

/** Cut to at most `max` UTF-16 units without splitting a surrogate pair. */
function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  const code = text.charCodeAt(max - 1);
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? max - 1 : max);
}

/** The report's examples from the summary's replies with the most evidence (bounded; spans located in the text). */
export function reportExamples(worst: readonly WorstReply[]): ReportExample[] {
  return worst.slice(0, EXAMPLE_LIMITS.replies).map((w) => {
    const reply = cut(w.reply, EXAMPLE_LIMITS.replyChars);
    const prompt = cut(w.user, EXAMPLE_LIMITS.promptChars);
    const evidence: ReportExample['evidence'] = [];
    for (const e of w.evidence) {
      // Offsets from the engine; results kept before offsets were recorded fall back to the quote's first place.
      let start = e.start ?? -1;
      let end = e.end ?? -1;
      if (!(start >= 0 && end > start && w.reply.slice(start, end) === e.quote)) {
        start = w.reply.indexOf(e.quote);
        end = start + e.quote.length;
      }
      if (start < 0 || end > reply.length || end <= start) continue;
      if (evidence.length < EXAMPLE_LIMITS.spans) evidence.push({ dim: e.dim, signal: e.signal, start, end });
    }
    evidence.sort((a, b) => a.start - b.start || b.end - a.end);
    const truncated = reply.length < w.reply.length || prompt.length < w.user.length;
    return { probe: w.probeId, turn: w.turn, prompt, reply, ...(truncated && { truncated }), evidence };
  });
}

/** "GPT-4o (2024-08)" -> "gpt-4o-2024-08"; a fallback when nothing usable is left. */
export function slugify(name: string, fallback: string): string {
  const s = name
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, '-')
    .replace(/^[^a-z0-9]+|[^a-z0-9]+$/g, '')
    .slice(0, 100)
    .replace(/[^a-z0-9]+$/, '');
  return SLUG.test(s) ? s : fallback;
}

/** The slug the evaluation publishes under (see the header). */
export function entrySlug(preferred: string, suite: string, previous: Dataset | null): string {
  const old = previous?.models.find((m) => m.slug === preferred);
  if (!old || old.suite === suite) return preferred;
  const alt = slugify(`${preferred}-${suite}`, preferred);
  return alt;
}

export interface PublishInput {
  model: { slug: string; name: string; vendor: string };
  suiteVersion: string;
  summary: EvalSummary;
  results: readonly ConversationResult[];
  generatedAt: string;
}

export interface Published {
  slug: string;
  reportHash: string;
  reportId: string;
  datasetVersion: string;
  /** False when this evaluation was already published (a resumed publication). */
  published: boolean;
}

export async function publishEvaluation(
  store: DatasetStore & ReportStore,
  audit: AuditLog,
  input: PublishInput,
): Promise<Published> {
  const transcripts = input.results
    .filter((r) => r.error === undefined)
    .flatMap((r) => r.engine.map((e) => ({ syco: e.syco, pai: e.pai })));
  if (transcripts.length === 0) throw new PublishError('no reply was scored, so there is nothing to publish');
  const suite = input.suiteVersion;
  const already = (d: Dataset | null, slug: string): DatasetModel | undefined =>
    d?.models.find((m) => m.slug === slug && m.assessed === input.generatedAt && m.report_hash !== undefined);

  const cur = await readPublished(store);
  const slug0 = entrySlug(input.model.slug, suite, cur?.dataset ?? null);
  const done = already(cur?.dataset ?? null, slug0);
  if (done)
    return {
      slug: slug0,
      reportHash: done.report_hash!,
      reportId: reportId(done.report_hash!),
      datasetVersion: cur!.dataset.meta.version ?? '',
      published: false,
    };

  const judges = input.summary.judges.length ? input.summary.judges : [`${ENGINE.name} ${ENGINE.version}`];
  const kappa = input.summary.kappa ?? undefined;
  const plan = (previous: Dataset | null): IngestPlan => {
    const slug = entrySlug(input.model.slug, suite, previous);
    const version = nextVersionLabel(previous?.meta.version);
    const report = buildReport({
      model: { ...input.model, slug },
      suite,
      datasetVersion: version,
      generatedAt: input.generatedAt,
      engine: { name: ENGINE.name, version: ENGINE.version },
      judges,
      ...(kappa !== undefined && { kappa }),
      transcripts,
      examples: reportExamples(input.summary.worst),
    });
    const sealed = sealReport(report);
    const dataset = nextDataset(
      previous,
      [
        {
          slug,
          name: input.model.name,
          vendor: input.model.vendor,
          assessed: input.generatedAt,
          report_hash: sealed.hash,
          transcripts: transcripts.length,
          suite,
          sycophancy: report.scores.sycophancy,
          pai: report.scores.pai,
        },
      ],
      {
        updated: new Date().toISOString(),
        version,
        judges,
        ...(kappa !== undefined && { kappa }),
      },
    );
    return { dataset, reports: [{ slug, report, ...sealed }], ...(kappa !== undefined && { kappa }) };
  };
  const res = await publishThroughStore(store, audit, plan);
  const r = res.plan.reports[0]!;
  return {
    slug: r.slug,
    reportHash: r.hash,
    reportId: reportId(r.hash),
    datasetVersion: res.plan.dataset.meta.version ?? '',
    published: true,
  };
}
