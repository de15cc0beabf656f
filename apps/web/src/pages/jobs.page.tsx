// Jobs: the list with filters in the address bar, sorting and paging. A job's stage change arrives
// live (GET /v1/events `job`): its row's stage changes at once, and the visible page is fetched
// again shortly after (one quiet re-fetch for a burst of events) for its score and for jobs that
// enter or leave the filtered page. While the stream is down the page polls instead.
import { useCallback, useEffect, useRef, useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import { api, type Schemas } from '../api/client';
import { liveModeText, useLiveEvents, type LiveEvent } from '../api/live-events';
import { useApi } from '../api/use-api';
import { Page } from '../components/page';
import { Empty, ErrorBanner, FieldErrors, Loading, fieldErrorId } from '../components/states';
import { errorsFor, type ApiError } from '../api/http';
import { AVAILABILITIES, EMPTY_FILTERS, SORTS, STAGES, filtersFromSearch, filtersToQuery, filtersToSearch, withFilter, type FilterErrors, type JobFilters } from './jobs/job-filters';
import { formatCompensation, formatDate, stageLabel, tone } from './jobs/job-format';

type Job = Schemas['JobView'];
type Stage = Job['stage'];

/** Job events within this window become one re-fetch of the page (a run moves many jobs at once). */
export const LIVE_REFRESH_MS = 1000;

/**
 * The list's live updates: stages from `job` events since the last load, and a quiet re-fetch
 * (`quiet`: the table stays, no Loading line) at most once per LIVE_REFRESH_MS while events come.
 */
function useLiveJobs(reload: () => void, loaded: boolean) {
  const [stages, setStages] = useState<Record<string, Stage>>({});
  const [quiet, setQuiet] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const refresh = useCallback(() => {
    setQuiet(true);
    reload();
  }, [reload]);
  const onEvent = useCallback(
    (e: LiveEvent) => {
      if (e.type !== 'job') return;
      setStages((s) => ({ ...s, [e.data.jobKey]: e.data.stage }));
      timer.current ??= setTimeout(() => {
        timer.current = null;
        refresh();
      }, LIVE_REFRESH_MS);
    },
    [refresh],
  );
  useEffect(() => () => void (timer.current && clearTimeout(timer.current)), []);
  // A finished load is newer than the stages seen before it.
  useEffect(() => {
    if (!loaded) return;
    setQuiet(false);
    setStages({});
  }, [loaded]);
  const mode = useLiveEvents(onEvent, refresh);
  return { stages, quiet, mode };
}

export function JobsPage() {
  const [search, setSearch] = useSearchParams();
  const filters = filtersFromSearch(search);
  const { query, errors } = filtersToQuery(filters);
  const list = useApi((signal) => api.get('/v1/jobs', { query, signal }), [JSON.stringify(query)]);
  const live = useLiveJobs(list.reload, list.state !== 'loading');
  const go = (next: JobFilters) => setSearch(filtersToSearch(next));
  const apiError = list.state === 'error' ? list.error : null;

  return (
    <Page title="Jobs" actions={<span className="muted live-mode">{liveModeText(live.mode)}</span>}>
      <FiltersForm key={search.toString()} filters={filters} localErrors={errors} apiError={apiError} onApply={go} />
      <div className="form-row list-toolbar">
        <label className="inline">
          Sort by
          <select value={filters.sort} onChange={(e) => go(withFilter(filters, 'sort', e.target.value as JobFilters['sort']))}>
            {SORTS.map((s) => (
              <option key={s} value={s}>
                {s === 'newest' ? 'newest first' : s === 'score' ? 'score, best first' : 'salary, highest first'}
              </option>
            ))}
          </select>
        </label>
      </div>
      {list.state === 'loading' && !live.quiet && <Loading what="jobs" />}
      {apiError && <ErrorBanner error={apiError} onRetry={list.reload} />}
      {list.data && list.data.items.length === 0 && (
        <Empty>
          {search.toString() ? (
            <>
              No job matches these filters. <button type="button" className="secondary" onClick={() => go(EMPTY_FILTERS)}>Clear the filters</button>
            </>
          ) : (
            <>
              No jobs yet. Add a source under <Link to="/sources">Sources</Link>, then start a run on <Link to="/pipelines">Pipelines</Link>.
            </>
          )}
        </Empty>
      )}
      {list.data && list.data.items.length > 0 && (
        <>
          <JobsTable jobs={list.data.items} stages={live.stages} />
          <Pager total={list.data.total} offset={list.data.offset} limit={list.data.limit} onPage={(page) => go(withFilter(filters, 'page', page))} />
        </>
      )}
    </Page>
  );
}

function FiltersForm({ filters, localErrors, apiError, onApply }: { filters: JobFilters; localErrors: FilterErrors; apiError: ApiError | null; onApply: (f: JobFilters) => void }) {
  const [draft, setDraft] = useState(filters);
  const set = <K extends keyof JobFilters>(key: K, value: JobFilters[K]) => setDraft((d) => withFilter(d, key, value));
  const submit = (e: FormEvent) => {
    e.preventDefault();
    onApply({ ...draft, page: 0 });
  };
  // A field's trouble: ours (not sent) or the API's 400 for the query parameter of the same name.
  const invalid = (field: keyof FilterErrors | 'company' | 'q' | 'stage' | 'availability') => Boolean((localErrors as Record<string, string>)[field] || errorsFor(apiError, field).length);
  const described = (field: string) => (invalid(field as keyof FilterErrors) ? fieldErrorId(field) : undefined);
  const local = (field: keyof FilterErrors) =>
    localErrors[field] ? (
      <span className="field-error" id={fieldErrorId(field)} role="alert">
        {localErrors[field]}
      </span>
    ) : (
      <FieldErrors error={apiError} field={field} />
    );

  return (
    <form className="panel filters" onSubmit={submit} aria-label="Filter jobs">
      <div className="form-row">
        <label>
          Search
          <input type="search" value={draft.q} onChange={(e) => set('q', e.target.value)} placeholder="title, description" aria-invalid={invalid('q')} aria-describedby={described('q')} />
          <FieldErrors error={apiError} field="q" />
        </label>
        <label>
          Company
          <input value={draft.company} onChange={(e) => set('company', e.target.value)} aria-invalid={invalid('company')} aria-describedby={described('company')} />
          <FieldErrors error={apiError} field="company" />
        </label>
        <label>
          Stage
          <select value={draft.stage} onChange={(e) => set('stage', e.target.value as JobFilters['stage'])} aria-invalid={invalid('stage')} aria-describedby={described('stage')}>
            <option value="">any</option>
            {STAGES.map((s) => (
              <option key={s} value={s}>
                {stageLabel(s)}
              </option>
            ))}
          </select>
          <FieldErrors error={apiError} field="stage" />
        </label>
        <label>
          Min score
          <input type="number" min={0} max={100} step={1} value={draft.minScore} onChange={(e) => set('minScore', e.target.value)} aria-invalid={invalid('minScore')} aria-describedby={described('minScore')} />
          {local('minScore')}
        </label>
        <label>
          Posting
          <select value={draft.availability} onChange={(e) => set('availability', e.target.value as JobFilters['availability'])} aria-invalid={invalid('availability')} aria-describedby={described('availability')}>
            <option value="">any</option>
            {AVAILABILITIES.map((a) => (
              <option key={a} value={a}>
                {a}
              </option>
            ))}
          </select>
          <FieldErrors error={apiError} field="availability" />
        </label>
      </div>
      <div className="form-row">
        <label>
          Min salary (yearly)
          <input inputMode="numeric" value={draft.minSalary} onChange={(e) => set('minSalary', e.target.value)} placeholder="e.g. 120000" aria-invalid={invalid('minSalary')} aria-describedby={described('minSalary')} />
          {local('minSalary')}
        </label>
        <label>
          Currency
          <input value={draft.currency} onChange={(e) => set('currency', e.target.value)} placeholder="USD" maxLength={3} size={5} aria-invalid={invalid('currency')} aria-describedby={described('currency')} />
          {local('currency')}
        </label>
        <label className="inline">
          <input type="checkbox" checked={draft.includeUnknownSalary} onChange={(e) => set('includeUnknownSalary', e.target.checked)} />
          include jobs without a salary
        </label>
        <button type="submit">Filter</button>
        <button type="button" className="secondary" onClick={() => onApply(EMPTY_FILTERS)}>
          Reset
        </button>
      </div>
    </form>
  );
}

function JobsTable({ jobs, stages }: { jobs: Job[]; stages: Record<string, Stage> }) {
  return (
    <table className="data">
      <caption className="visually-hidden">Jobs</caption>
      <thead>
        <tr>
          <th scope="col">Title</th>
          <th scope="col">Company</th>
          <th scope="col">Location</th>
          <th scope="col" className="num">
            Score
          </th>
          <th scope="col">Stage</th>
          <th scope="col">Compensation</th>
          <th scope="col">Posting</th>
          <th scope="col">First seen</th>
        </tr>
      </thead>
      <tbody>
        {jobs.map((listed) => {
          const job = { ...listed, stage: stages[listed.jobKey] ?? listed.stage };
          return (
            <tr key={job.jobKey}>
              <td>
                <Link to={`/jobs/${encodeURIComponent(job.jobKey)}`}>{job.title}</Link>
              </td>
              <td>{job.company}</td>
              <td>{job.location ?? (job.remote ? 'Remote' : '—')}</td>
              <td className="num">{job.score ?? '—'}</td>
              <td>
                <span className={`badge ${tone(job.stage)}`}>{stageLabel(job.stage)}</span>
              </td>
              <td>{formatCompensation(job.compensation) ?? <span className="muted">{job.salaryText ?? '—'}</span>}</td>
              <td>{job.availability ? <span className={`badge ${tone(job.availability.state)}`}>{job.availability.state}</span> : <span className="muted">unchecked</span>}</td>
              <td>{formatDate(job.firstSeenAt)}</td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

function Pager({ total, offset, limit, onPage }: { total: number; offset: number; limit: number; onPage: (page: number) => void }) {
  const page = Math.floor(offset / limit);
  const pages = Math.max(1, Math.ceil(total / limit));
  return (
    <nav className="pager" aria-label="Pages">
      <button type="button" className="secondary" disabled={page === 0} onClick={() => onPage(page - 1)}>
        Previous
      </button>
      <span>
        {offset + 1}–{Math.min(offset + limit, total)} of {total} (page {page + 1} of {pages})
      </span>
      <button type="button" className="secondary" disabled={page + 1 >= pages} onClick={() => onPage(page + 1)}>
        Next
      </button>
    </nav>
  );
}
