import { Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import type { DiscoveryActivities, DiscoveryPlan, FamilyOutcome, FamilyPlan } from '@jobctrl/pipeline/contracts';
import type { HttpClient } from '@jobctrl/shared/http';
import { cancelledFailureOf } from '@jobctrl/shared/temporal';
import type { DiscoveryRunRepository, JobRepository, ObservedPosting, SkippedFeedEntry } from '@jobctrl/shared/jobs';
import { JobStreamingAdapter } from './adapters/jobstreaming.adapter';
import type { DiscoverContext, DiscoveredPosting } from './adapters/source-adapter.model';
import { SOURCE_ADAPTERS } from './adapters/source-adapter.registry';
import type { DiscoveryRuntimeRepository } from './discovery-runtime.repository';
import { contentKey, idempotencyKey, jobKey, tryCanonicalizeUrl } from './identity';
import type { SourceRepository } from './sources/source.repository';
import type { SourceEntity } from './sources/source.entity';

export interface DiscoveryActivityDeps {
  sources: SourceRepository;
  runtime: DiscoveryRuntimeRepository;
  jobs: JobRepository;
  runs: DiscoveryRunRepository;
  http: HttpClient;
  /** pipeline_internal_concurrency as configured now; a run snapshots it into its plan. */
  internalConcurrency: () => number;
  /** file_source_dirs: the only folders a file source is read from (#15). */
  fileSourceDirs?: readonly string[];
  /** file_source_max_bytes: the largest file source read (#39). */
  fileSourceMaxBytes?: number;
  /** Starts prep-{idempotency_key} with USE_EXISTING (composed by the worker app). */
  /** mode full carries a scored-but-not-tailored straggler on (a new execution under the same id). */
  startPreparation: (job: { jobKey: string; idempotencyKey: string }, mode?: 'score' | 'full') => Promise<void>;
  /**
   * Called after each committed batch of a run's observations: the worker wakes its live enrichment
   * consumer for that run instead of leaving the jobs to its next poll. Best effort by design (the
   * consumer's durable poll is the fallback), so it must not throw.
   */
  onJobsCommitted?: (runId: string) => void;
}

/** Observations are committed in batches: the live enrichment consumer sees jobs while a family still crawls. */
const COMMIT_BATCH = 10;
/** A fan-out's starts in flight at once (each one round trip to the Temporal server). */
const FAN_OUT_STARTS_AT_ONCE = 16;

export function createDiscoveryActivities(deps: DiscoveryActivityDeps): DiscoveryActivities {
  return {
    /**
     * Plans once: freezes the families and their sources, resolves max_parallel_families from the
     * Discovery Runtime settings and snapshots pipeline_internal_concurrency. No historical-job
     * hygiene here (that stays in terminal enrichment), so producers start without delay.
     */
    async planDiscoverySources(input): Promise<DiscoveryPlan> {
      const all = await deps.sources.list();
      const chosen = all.filter((s) => (input.sourceIds ? input.sourceIds.includes(s.id) : s.enabled));
      if (input.sourceIds) {
        const missing = input.sourceIds.filter((id) => !all.some((s) => s.id === id));
        if (missing.length > 0) throw ApplicationFailure.nonRetryable(`unknown source ids: ${missing.join(', ')}`, 'unknown_source');
        // Disabled after the API accepted the run: the user switched it off, so it is not crawled.
        const disabled = chosen.filter((s) => !s.enabled);
        if (disabled.length > 0) throw ApplicationFailure.nonRetryable(`disabled sources: ${disabled.map((s) => `${s.name} (${s.id})`).join(', ')}`, 'source_disabled');
      }
      const families = new Map<string, string[]>();
      for (const s of chosen) families.set(s.family, [...(families.get(s.family) ?? []), s.id]);
      const runtime = await deps.runtime.get();
      const plan: DiscoveryPlan = {
        runId: input.runId,
        families: [...families.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([family, sourceIds]) => ({ family, sourceIds })),
        maxParallelFamilies: runtime.maxParallelFamilies,
        internalConcurrency: input.internalConcurrency ?? deps.internalConcurrency(),
      };
      // A retried planning attempt gets the plan that was frozen first.
      return (await deps.runs.create(input.runId, plan, plan.families.length + 1)) as DiscoveryPlan;
    },

    async discoverySourceFamily({ runId, family, internalConcurrency }): Promise<FamilyOutcome> {
      const ctx = Context.current();
      const signal = ctx.cancellationSignal;
      const errors: Array<{ source: string; error: unknown }> = [];
      // Entries a board's feed holds that are no posting (a blank title or company): left out and
      // recorded with the family's result, never failing the board.
      const skipped: SkippedFeedEntry[] = [];
      let jobs = 0;
      for (const sourceId of family.sourceIds) {
        const source = await deps.sources.find(sourceId);
        if (!source) continue; // deleted after planning: nothing to crawl
        const skip = (entry: { where: string; externalId: string | null; reason: string }) => skipped.push({ family: family.family, source: source.name, ...entry });
        try {
          jobs += await crawlSource(deps, runId, family, source, { http: deps.http, signal, internalConcurrency, fileSourceDirs: deps.fileSourceDirs, fileSourceMaxBytes: deps.fileSourceMaxBytes, skipped: skip }, (n) => ctx.heartbeat({ sourceId, jobs: n }));
        } catch (err) {
          // A cancel (run cancelled, or the attempt given up) that interrupted a fetch or a host
          // cooldown is a cancellation, not a family failure.
          if (signal.aborted) throw cancelledFailureOf(err, `family ${family.family} cancelled`);
          errors.push({ source: source.name, error: err });
        }
      }
      if (errors.length > 0) {
        const message = errors.map((e) => `${e.source}: ${e.error instanceof Error ? e.error.message : String(e.error)}`).join('; ');
        const retryable = errors.some((e) => (e.error as { retryable?: boolean }).retryable !== false);
        const type = errors.every((e) => (e.error as { code?: string }).code === 'malformed_response') ? 'malformed_response' : 'family_failed';
        throw ApplicationFailure.create({ type, message, nonRetryable: !retryable });
      }
      await deps.runs.recordFamily(runId, family.family, 'completed', jobs, null, Date.now(), skipped);
      return { family: family.family, status: 'completed', jobs };
    },

    async recordFamilyFailure({ runId, family, error }) {
      await deps.runs.recordFamily(runId, family, 'failed', 0, error);
    },

    async advanceDiscoveryProgress({ runId, completed }) {
      await deps.runs.advance(runId, completed);
      // A draining live consumer waits for the run's families to be done: tell it now rather than at its next poll.
      deps.onJobsCommitted?.(runId);
    },

    async finishDiscoveryRun({ runId, state }) {
      await deps.runs.finish(runId, state);
    },

    /** Starts preparation for every waiting job; idempotent (USE_EXISTING) and progress-silent. */
    async fanOutPreparation({ runId, includePendingTailor }) {
      const pending = await deps.jobs.selectPendingPreparation({ runId, includePendingTailor });
      // Liveness (and a cancel) comes from the worker's timer heartbeats while the starts run.
      // FAN_OUT_STARTS_AT_ONCE starts go out together: the run's next family waits for this call,
      // and most of a backstop's starts find the handoff's execution already running (a round trip
      // each). A failed start fails the call once its group was attempted; the retry starts again,
      // and jobs already started keep their one execution.
      for (let i = 0; i < pending.length; i += FAN_OUT_STARTS_AT_ONCE) {
        const starts = await Promise.allSettled(
          pending.slice(i, i + FAN_OUT_STARTS_AT_ONCE).map((job) =>
            // Only the one-time straggler sweep selects pending_tailor: pre-existing scored jobs whose
            // tailoring never ran. Fresh jobs are always started score-only (never double-fanned).
            deps.startPreparation(job, job.stage === 'pending_tailor' ? 'full' : 'score'),
          ),
        );
        const failed = starts.find((r): r is PromiseRejectedResult => r.status === 'rejected');
        if (failed) throw failed.reason;
      }
      return { started: pending.length };
    },
  };
}

async function crawlSource(
  deps: DiscoveryActivityDeps,
  runId: string,
  family: FamilyPlan,
  source: SourceEntity,
  /** The shared host policy, the attempt's cancel and the run's internal concurrency. */
  context: DiscoverContext & { signal: AbortSignal },
  beat: (jobs: number) => void,
): Promise<number> {
  const adapter = SOURCE_ADAPTERS[source.kind as keyof typeof SOURCE_ADAPTERS];
  const config = adapter.validateConfig(JSON.parse(source.config));
  let total = 0;
  const commit = async (postings: DiscoveredPosting[]) => {
    await deps.jobs.recordObservations(runId, family.family, postings.map((p) => observe(source.id, p)));
    deps.onJobsCommitted?.(runId);
    total += postings.length;
    beat(total);
  };
  const drain = async (iterable: AsyncIterable<DiscoveredPosting>) => {
    let batch: DiscoveredPosting[] = [];
    for await (const posting of iterable) {
      batch.push(posting);
      beat(total + batch.length); // throttled by the SDK; keeps a slow board from looking dead
      if (batch.length >= COMMIT_BATCH) {
        await commit(batch);
        batch = [];
      }
    }
    if (batch.length > 0) await commit(batch);
  };

  if (adapter instanceof JobStreamingAdapter) {
    // Sequential by immutable unit; a restarted run skips the units it already finished.
    const done = await deps.runs.finishedUnits(runId, source.id);
    for (const unit of (config as { units: Parameters<JobStreamingAdapter['discoverUnit']>[0][] }).units) {
      const key = adapter.unitKey(unit);
      if (done.has(key)) continue;
      const before = total;
      await drain(adapter.discoverUnit(unit, context));
      await deps.runs.markUnitFinished(runId, source.id, key, total - before);
    }
    return total;
  }
  await drain(adapter.discover(config, context));
  return total;
}

function observe(sourceId: string, p: DiscoveredPosting): ObservedPosting {
  const identity = { url: p.url, company: p.company, title: p.title, location: p.location };
  return {
    jobKey: jobKey(identity),
    idempotencyKey: idempotencyKey(identity),
    contentKey: contentKey(identity),
    canonicalUrl: tryCanonicalizeUrl(p.url),
    sourceId,
    sourceKind: p.sourceKind,
    externalId: p.externalId,
    title: p.title,
    company: p.company,
    companyFromToken: p.companyFromToken,
    location: p.location,
    locations: p.locations,
    remote: p.remote,
    url: p.url,
    applyUrl: p.applyUrl,
    descriptionHtml: p.descriptionHtml,
    descriptionText: p.descriptionText,
    postedAt: p.postedAt,
    salaryText: p.salaryText,
    employmentType: p.employmentType,
    tags: p.tags,
    compensation: p.compensation,
  };
}
