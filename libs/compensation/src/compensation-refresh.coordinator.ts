import type { Effort, LlmClient } from '@jobctrl/shared/llm';
import { PARSER_VERSION, determineCompensation } from './compensation.determination';
import { MODEL_DETERMINATION_VERSION, determineWithModel } from './compensation.model';
import { summarizeCompensation, type CompensationSummary } from './compensation.summary';
import type { CompensationResult } from './compensation.types';
import { sourceIdentity, type CompensationSourceRow, type SourceIdentity } from './compensation-identity';
import type { CompensationRefreshRepository, PublishedRow, RefreshCounts, RefreshState } from './compensation-refresh.repository';

export interface RefreshJob {
  jobKey: string;
  rows: CompensationSourceRow[];
}

/**
 * The model settings a refresh captures when it starts, so a settings change mid-refresh does not
 * mix two models in one refresh. `clientFor` builds a client for one leaf: in the worker it is the
 * LlmRuntime's spend-gated client, so every call passes the spend preflight and is charged to the
 * `compensation` lane.
 */
export interface CapturedModel {
  model: string;
  effort?: Effort;
  clientFor(signal: AbortSignal): LlmClient;
}

export interface RefreshRequest {
  refreshId: string;
  /** This attempt's owner token (a retried activity is a new owner). */
  owner: string;
  jobs: RefreshJob[];
  /** N: worker_activity_slots as read when the refresh started. */
  slots: number;
  /** null: no model step (the extractive provider); undecided rows stay undecided. */
  model: CapturedModel | null;
  leaseMs?: number;
  /** The activity's cancellation: aborting it aborts the refresh. */
  signal?: AbortSignal;
  /** Called after every leaf settles (the activity heartbeats from it). */
  onProgress?: (counts: RefreshCounts) => void;
  /** Run again under a refresh id that already ended (a job's own classification, see startRefresh). */
  restart?: boolean;
}

export interface JobOutcome {
  jobKey: string;
  /** leased: this refresh held the job; published: its compensation was written by this refresh. */
  leased: boolean;
  published: boolean;
  summary: CompensationSummary | null;
}

export interface RefreshOutcome {
  state: Extract<RefreshState, 'completed' | 'cancelled' | 'failed'>;
  counts: RefreshCounts;
  /** In input order. */
  jobs: JobOutcome[];
  /** The distinct leaves in admission order (identity keys): input order, duplicates removed. */
  leafOrder: string[];
  /** The most leaves that ran at once. */
  peakInFlight: number;
}

interface Leaf {
  identity: SourceIdentity;
  row: CompensationSourceRow;
  jobKeys: string[];
  outcome?: { id: string; result: CompensationResult; cached: boolean };
  error?: string;
}

export const DEFAULT_LEASE_MS = 60_000;

/**
 * The per-refresh compensation coordinator (spec, "Compensation provider-row classification …",
 * docs/decisions.md maps each sentence to code and test):
 *
 * - at most N = `slots` determinations (leaves) in flight, N captured when the refresh starts; the
 *   bound lives inside the one activity that runs the refresh, so it adds no Temporal activity slots;
 * - the rows' exact source identities are deduplicated and leaves are admitted in input order;
 * - a leaf whose identity and version are already in the cache reuses that accepted id (no call);
 * - every leaf does its own SQLite work (each repository call is its own unit of work, so no two
 *   leaves share a connection, and none is held across a model call) with the captured model,
 *   effort, lane and spend preflight;
 * - publication and its owner guard run here only, one job at a time, never in a leaf;
 * - one stop signal, which every leaf's model call observes, cancels model attempts;
 * - an aborted refresh first releases the leases it still owns, then waits for admitted calls to
 *   settle (and be charged); they may still store valid cache results, but nothing is published;
 * - leases are renewed while leaves keep succeeding; an expired or taken-over lease can neither be
 *   renewed nor published through.
 */
export class CompensationRefreshCoordinator {
  constructor(private readonly repo: CompensationRefreshRepository) {}

  async run(req: RefreshRequest): Promise<RefreshOutcome> {
    const leaseMs = req.leaseMs ?? DEFAULT_LEASE_MS;
    const slots = Math.max(1, Math.floor(req.slots));
    const stop = new AbortController();
    const forward = () => stop.abort(req.signal?.reason);
    if (req.signal?.aborted) forward();
    req.signal?.addEventListener('abort', forward, { once: true });

    const counts: RefreshCounts = { jobs: 0, admitted: 0, completed: 0, cached: 0, failed: 0, published: 0 };
    if (!(await this.repo.startRefresh(req.refreshId, req.owner, slots, { restart: req.restart }))) {
      // Ended while queued (cancelled or failed): nothing to run, nothing to publish.
      const view = await this.repo.getRefresh(req.refreshId);
      const ended = view?.state === 'failed' ? 'failed' : 'cancelled';
      return { state: ended, counts, jobs: [], leafOrder: [], peakInFlight: 0 };
    }
    const jobKeys = [...new Set(req.jobs.map((j) => j.jobKey))];
    const held = new Set(await this.repo.acquireLeases(req.refreshId, req.owner, jobKeys, leaseMs));
    counts.jobs = held.size;

    // Leaves: the held jobs' rows, one per exact source identity, in input order.
    const leaves = new Map<string, Leaf>();
    const jobLeaves = new Map<string, Leaf[]>();
    for (const job of req.jobs) {
      if (!held.has(job.jobKey) || jobLeaves.has(job.jobKey)) continue;
      const mine: Leaf[] = [];
      for (const row of job.rows) {
        const identity = sourceIdentity(row);
        let leaf = leaves.get(identity.key);
        if (!leaf) leaves.set(identity.key, (leaf = { identity, row, jobKeys: [] }));
        if (!leaf.jobKeys.includes(job.jobKey)) leaf.jobKeys.push(job.jobKey);
        if (!mine.includes(leaf)) mine.push(leaf);
      }
      jobLeaves.set(job.jobKey, mine);
    }
    const order = [...leaves.values()];

    const outcomes = new Map<string, JobOutcome>(jobKeys.map((k) => [k, { jobKey: k, leased: held.has(k), published: false, summary: null }]));
    const waiting = new Map<string, number>([...jobLeaves].map(([k, ls]) => [k, ls.length]));
    let live = new Set(held); // jobs whose lease this owner still holds
    let lastRenewal = Date.now();
    let publishing: Promise<void> = Promise.resolve();
    let publishError: unknown;
    const publish = (jobKey: string) => {
      // One publication at a time, in completion order, each behind the owner guard.
      publishing = publishing.then(async () => {
        if (publishError !== undefined) return;
        if (stop.signal.aborted || !live.has(jobKey)) return;
        const ls = jobLeaves.get(jobKey) ?? [];
        const rows = ls.map(publishedRow);
        const summary = summarizeCompensation(ls.filter((l) => l.outcome).map((l) => ({ row: l.row, result: (l.outcome as NonNullable<Leaf['outcome']>).result })));
        if (await this.repo.publish(req.owner, req.refreshId, jobKey, summary, rows)) {
          counts.published += 1;
          Object.assign(outcomes.get(jobKey) as JobOutcome, { published: true, summary });
        } else live.delete(jobKey);
      }).catch((err: unknown) => {
        publishError ??= err;
      });
    };
    // Jobs with no rows at all have nothing to wait for: publish "no compensation" for them now.
    for (const [jobKey, n] of waiting) if (n === 0) publish(jobKey);

    let next = 0;
    let inFlight = 0;
    let peakInFlight = 0;
    const runLeaves = async () => {
      while (!stop.signal.aborted && next < order.length) {
        const leaf = order[next++];
        counts.admitted += 1;
        peakInFlight = Math.max(peakInFlight, ++inFlight);
        try {
          leaf.outcome = await this.determine(leaf, req.model, stop.signal);
          counts.completed += 1;
          if (leaf.outcome.cached) counts.cached += 1;
        } catch (err) {
          leaf.error = errorCode(err);
          counts.failed += 1;
        } finally {
          inFlight -= 1;
        }
        if (stop.signal.aborted) break;
        if (leaf.outcome && Date.now() - lastRenewal >= leaseMs / 3) {
          // Healthy classification keeps the leases of the jobs still to publish alive.
          lastRenewal = Date.now();
          const pending = [...live].filter((k) => (waiting.get(k) ?? 0) > 0);
          const kept = new Set(await this.repo.renewLeases(req.owner, pending, leaseMs));
          live = new Set([...live].filter((k) => kept.has(k) || !pending.includes(k)));
        }
        for (const jobKey of leaf.jobKeys) {
          const left = (waiting.get(jobKey) ?? 1) - 1;
          waiting.set(jobKey, left);
          if (left === 0) publish(jobKey);
        }
        req.onProgress?.({ ...counts });
      }
    };
    const settled = Promise.all(Array.from({ length: Math.min(slots, order.length) }, runLeaves));
    const aborted = new Promise<void>((resolve) => (stop.signal.aborted ? resolve() : stop.signal.addEventListener('abort', () => resolve(), { once: true })));
    await Promise.race([settled, aborted]);

    let state: RefreshOutcome['state'] = 'completed';
    if (stop.signal.aborted) {
      // Leases first: another refresh may take these jobs while our admitted calls finish.
      await this.repo.releaseLeases(req.owner);
      await settled;
      state = 'cancelled';
    } else {
      await settled;
    }
    await publishing;
    req.signal?.removeEventListener('abort', forward);
    if (state === 'completed') await this.repo.releaseLeases(req.owner);
    if (publishError !== undefined) {
      await this.repo.updateRefresh(req.refreshId, counts, { state: 'failed', error: errorMessage(publishError) });
      throw publishError;
    }
    await this.repo.updateRefresh(req.refreshId, counts, { state, ...(state === 'cancelled' ? { error: 'refresh_cancelled' } : {}) });
    return { state, counts, jobs: jobKeys.map((k) => outcomes.get(k) as JobOutcome), leafOrder: order.map((l) => l.identity.key), peakInFlight };
  }

  /**
   * One leaf: the parser first; a row it cannot decide goes to the captured model unless the cache
   * already holds an accepted answer for this identity and version. Valid results are stored even
   * when the refresh is cancelled meanwhile (they are true, and paid for); publishing is not the
   * leaf's business.
   */
  private async determine(leaf: Leaf, model: CapturedModel | null, signal: AbortSignal): Promise<NonNullable<Leaf['outcome']>> {
    const parsed = determineCompensation(leaf.row);
    const version = parsed.decided || !model ? PARSER_VERSION : `${MODEL_DETERMINATION_VERSION}:${model.model}`;
    const hit = await this.repo.findDetermination(leaf.identity.key, version);
    if (hit) return { ...hit, cached: true };
    if (version === PARSER_VERSION) return { ...(await this.repo.saveDetermination(leaf.identity, version, parsed)), cached: false };
    signal.throwIfAborted();
    const m = model as CapturedModel;
    const result = await determineWithModel(leaf.row, { client: m.clientFor(signal), ...(m.effort ? { effort: m.effort } : {}), signal });
    return { ...(await this.repo.saveDetermination(leaf.identity, version, result)), cached: false };
  }
}

function publishedRow(leaf: Leaf): PublishedRow {
  return {
    sourceId: leaf.identity.sourceId,
    externalJobId: leaf.identity.externalJobId,
    fieldPath: leaf.identity.fieldPath,
    textSha256: leaf.identity.textSha256,
    text: leaf.row.text,
    determinationId: leaf.outcome?.id ?? null,
    result: leaf.outcome?.result ?? null,
    ...(leaf.error ? { error: leaf.error } : {}),
  };
}

/** The taxonomy code of a leaf's failure (llm_timeout, spend_ceiling_reached, …), for the row. */
function errorCode(err: unknown): string {
  const code = (err as { code?: unknown; type?: unknown })?.code ?? (err as { type?: unknown })?.type;
  return typeof code === 'string' ? code : err instanceof Error ? err.name : 'unknown_error';
}

function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
