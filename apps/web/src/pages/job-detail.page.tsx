import { useCallback, useState, type ReactNode } from 'react';
import { Link, useParams } from 'react-router';
import { api, type Schemas } from '../api/client';
import { asApiError, type ApiError } from '../api/http';
import { useApi } from '../api/use-api';
import { useLiveEvents, type LiveEvent } from '../api/live-events';
import { Page } from '../components/page';
import { Empty, ErrorBanner, Loading } from '../components/states';
import { jobActions, type ActionState, type WorkerStatus } from './jobs/job-actions';
import { readLetter, readResume, readReview, readScoreDetail } from './jobs/job-artifacts';
import { formatCompensation, formatDateTime, stageLabel, tone } from './jobs/job-format';

type Job = Schemas['JobDetailView'];
const noop = () => undefined;

export function JobDetailPage() {
  const { jobKey = '' } = useParams();
  const job = useApi((signal) => api.get('/v1/jobs/{jobKey}', { params: { jobKey }, signal }), [jobKey]);
  const health = useApi((signal) => api.get('/v1/health', { signal }), [jobKey]);
  const worker: WorkerStatus = health.state === 'ok' ? health.data.worker.status : health.state === 'error' ? 'missing' : 'unknown';
  // This job's stage changes (a preparation it started, say) reload it; without the stream, the
  // page shows its last load and the actions' own answers, so the fallback does nothing.
  const reloadJob = job.reload;
  const onEvent = useCallback((e: LiveEvent) => void (e.type === 'job' && e.data.jobKey === jobKey && reloadJob()), [jobKey, reloadJob]);
  useLiveEvents(onEvent, noop);

  if (!job.data) {
    return (
      <Page title="Job">
        <p>
          <Link to="/jobs">← All jobs</Link>
        </p>
        {job.state === 'loading' && <Loading what="the job" />}
        {job.state === 'error' && (job.error.status === 404 ? <Empty>There is no job {jobKey}.</Empty> : <ErrorBanner error={job.error} onRetry={job.reload} />)}
      </Page>
    );
  }
  const j = job.data;
  return (
    <Page title={j.title}>
      <p>
        <Link to="/jobs">← All jobs</Link>
      </p>
      <JobSummary job={j} />
      {job.state === 'error' && <ErrorBanner error={job.error} onRetry={job.reload} />}
      <Actions job={j} worker={worker} workerReason={health.state === 'ok' ? health.data.worker.reason : null} onDone={() => (job.reload(), health.reload())} />
      <Section title="Application">
        <ApplicationPanel job={j} onVerified={job.reload} />
      </Section>
      <Section title="Score">
        <ScorePanel job={j} />
      </Section>
      <Section title="Cover letter">
        <LetterPanel job={j} />
      </Section>
      <Section title="Tailored resume">
        <ResumePanel value={j.tailoredResume} />
      </Section>
      <Section title="Compensation">
        <CompensationPanel job={j} />
      </Section>
      <Section title="Posting availability">
        <AvailabilityPanel job={j} />
      </Section>
      <Section title="Description">{j.descriptionText ? <div className="prose">{j.descriptionText}</div> : <Empty>No description captured yet ({j.enrichmentStatus}).</Empty>}</Section>
    </Page>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  const id = `sec-${title.toLowerCase().replace(/\W+/g, '-')}`;
  return (
    <section className="panel" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      {children}
    </section>
  );
}

function JobSummary({ job }: { job: Job }) {
  return (
    <dl className="facts">
      <dt>Company</dt>
      <dd>{job.company}</dd>
      <dt>Location</dt>
      <dd>{job.location ?? (job.remote ? 'Remote' : '—')}</dd>
      <dt>Stage</dt>
      <dd>
        <span className={`badge ${tone(job.stage)}`}>{stageLabel(job.stage)}</span>
      </dd>
      <dt>Score</dt>
      <dd>{job.score ?? '—'}</dd>
      <dt>Compensation</dt>
      <dd>{formatCompensation(job.compensation) ?? job.salaryText ?? '—'}</dd>
      <dt>First seen</dt>
      <dd>{formatDateTime(job.firstSeenAt)}</dd>
      <dt>Posting</dt>
      <dd>
        <a href={job.url} target="_blank" rel="noreferrer">
          {job.url}
        </a>
      </dd>
    </dl>
  );
}

type ActionKey = 'reprepare' | 'checkAvailability' | 'approve' | 'revoke' | 'dryRun' | 'apply';

function Actions({ job, worker, workerReason, onDone }: { job: Job; worker: WorkerStatus; workerReason: string | null; onDone: () => void }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const rules = jobActions(job, worker, busy);
  const params = { params: { jobKey: job.jobKey } };

  const run = async (key: ActionKey) => {
    if (key === 'apply' && !window.confirm(`Submit a real application to ${job.company} for “${job.title}”? This cannot be undone.`)) return;
    setBusy(true);
    setError(null);
    setNotice(null);
    try {
      if (key === 'reprepare') {
        const r = await api.post('/v1/jobs/{jobKey}/prepare', params);
        setNotice(`Preparation started (${r.workflowId}). The stage below follows it.`);
      } else if (key === 'checkAvailability') {
        const r = await api.post('/v1/jobs/{jobKey}/availability-check', params);
        setNotice(`Posting check started (${r.workflowId}). Reload in a few seconds for its result.`);
      } else if (key === 'approve') {
        await api.post('/v1/jobs/{jobKey}/approval', params);
        setNotice('Approved: the current resume, letter and answers.');
      } else if (key === 'revoke') {
        await api.delete('/v1/jobs/{jobKey}/approval', params);
        setNotice('Approval revoked.');
      } else {
        const r = await api.post('/v1/jobs/{jobKey}/apply', { ...params, body: { dryRun: key === 'dryRun' } });
        setNotice(`${key === 'dryRun' ? 'Dry run' : 'Application'} started (${r.workflowId}).`);
      }
      onDone();
    } catch (err) {
      setError(asApiError(err));
    } finally {
      setBusy(false);
    }
  };

  const button = (key: ActionKey, label: string, state: ActionState, className = '') => (
    <div className="action">
      <button type="button" className={className} disabled={!state.enabled} aria-describedby={state.reason ? `why-${key}` : undefined} onClick={() => void run(key)}>
        {label}
      </button>
      {state.reason && (
        <span className="muted" id={`why-${key}`}>
          {state.reason}
        </span>
      )}
    </div>
  );

  return (
    <section className="panel" aria-labelledby="sec-actions">
      <h2 id="sec-actions">Actions</h2>
      {worker !== 'ready' && worker !== 'unknown' && <p className="muted">Worker: {workerReason ?? worker}</p>}
      <div className="actions">
        {button('reprepare', 'Re-prepare', rules.reprepare, 'secondary')}
        {button('checkAvailability', 'Check availability', rules.checkAvailability, 'secondary')}
        {job.approval ? button('revoke', 'Revoke approval', rules.revoke, 'secondary') : button('approve', 'Approve', rules.approve)}
        {button('dryRun', 'Dry run', rules.dryRun, 'secondary')}
        {button('apply', 'Apply', rules.apply, 'danger')}
      </div>
      {busy && <Loading what="the answer" />}
      {notice && (
        <p className="notice" role="status">
          {notice}
        </p>
      )}
      {error && <ErrorBanner error={error} />}
    </section>
  );
}

function ApplicationPanel({ job, onVerified }: { job: Job; onVerified: () => void }) {
  const a = job.application;
  return (
    <>
      <p>
        Approval:{' '}
        {job.approval ? (
          <>
            <span className="badge ok">approved</span> {formatDateTime(job.approval.approvedAt)}
          </>
        ) : (
          <span className="badge">not approved</span>
        )}
      </p>
      {!a ? (
        <Empty>No application attempt yet.</Empty>
      ) : (
        <>
          <dl className="facts">
            <dt>State</dt>
            <dd>
              <span className={`badge ${tone(a.state)}`}>{a.state.replace(/_/g, ' ')}</span>
              {a.dryRun && ' (dry run)'}
            </dd>
            {a.reason && (
              <>
                <dt>Why</dt>
                <dd>{a.reason}</dd>
              </>
            )}
            <dt>Started</dt>
            <dd>{formatDateTime(a.startedAt)}</dd>
            <dt>Submitted</dt>
            <dd>{formatDateTime(a.submittedAt)}</dd>
            {a.confirmation && (
              <>
                <dt>Confirmation</dt>
                <dd>{a.confirmation}</dd>
              </>
            )}
          </dl>
          {a.state === 'needs_verification' && <Verification job={job} onDone={onVerified} />}
          {a.questions.length > 0 && (
            <>
              <h3>Questions to answer</h3>
              <ul>
                {a.questions.map((q) => (
                  <li key={q.key}>
                    {q.label} <span className="muted">({q.type})</span>
                  </li>
                ))}
              </ul>
            </>
          )}
          {a.screenshots.length > 0 && (
            <p>
              Screenshots:{' '}
              {a.screenshots.map((name) => (
                <a key={name} href={`/v1/jobs/${encodeURIComponent(job.jobKey)}/screenshots/${encodeURIComponent(name)}`} target="_blank" rel="noreferrer" className="spaced">
                  {name}
                </a>
              ))}
            </p>
          )}
        </>
      )}
    </>
  );
}

/**
 * needs_verification: the attempt clicked submit and then lost the board's answer (or died), so only
 * the person, looking at the board or their inbox, can say whether it went through. "Not submitted"
 * lets an apply run again, so it asks first.
 */
function Verification({ job, onDone }: { job: Job; onDone: () => void }) {
  const [confirmation, setConfirmation] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError | null>(null);
  const send = async (submitted: boolean) => {
    if (!submitted && !window.confirm(`Record that the application to ${job.company} was NOT submitted? jobctrl may then submit it again.`)) return;
    setBusy(true);
    setError(null);
    try {
      const trimmed = confirmation.trim();
      await api.post('/v1/jobs/{jobKey}/application/verification', {
        params: { jobKey: job.jobKey },
        body: submitted && trimmed ? { submitted, confirmation: trimmed } : { submitted },
      });
      onDone();
    } catch (err) {
      setError(asApiError(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="panel" role="group" aria-label="Verify the application">
      <p>The last attempt clicked submit but its outcome is not known. Check the board (or your email), then record what you found.</p>
      <label>
        Confirmation (optional){' '}
        <input type="text" maxLength={500} value={confirmation} onChange={(e) => setConfirmation(e.target.value)} disabled={busy} />
      </label>
      <div className="actions">
        <button type="button" disabled={busy} onClick={() => void send(true)}>
          It was submitted
        </button>
        <button type="button" className="secondary" disabled={busy} onClick={() => void send(false)}>
          It was not submitted
        </button>
      </div>
      {error && <ErrorBanner error={error} />}
    </div>
  );
}

function ScorePanel({ job }: { job: Job }) {
  const detail = readScoreDetail(job.scoreDetail);
  if (job.score === null || !detail) return <Empty>Not scored yet.</Empty>;
  return (
    <>
      <p>
        <strong className="score">{job.score}</strong> / 100 {detail.rationale && <span>— {detail.rationale}</span>}
      </p>
      <div className="columns">
        <div>
          <h3>Matched</h3>
          {detail.matched.length ? <ul className="chips ok">{detail.matched.map((m) => <li key={m}>{m}</li>)}</ul> : <p className="muted">none</p>}
        </div>
        <div>
          <h3>Missing</h3>
          {detail.missing.length ? <ul className="chips bad">{detail.missing.map((m) => <li key={m}>{m}</li>)}</ul> : <p className="muted">none</p>}
        </div>
      </div>
      {detail.components.length > 0 && (
        <p className="muted">
          {detail.components.map((c) => `${c.name} ${Math.round(c.value * 100)} %`).join(' · ')}
        </p>
      )}
    </>
  );
}

function LetterPanel({ job }: { job: Job }) {
  const letter = readLetter(job.coverLetter);
  const review = readReview(job.coverReview);
  if (!letter) return <Empty>No cover letter yet{job.coverAttempts ? ` (${job.coverAttempts} attempt${job.coverAttempts > 1 ? 's' : ''})` : ''}.</Empty>;
  return (
    <>
      <div className="prose letter">{letter.text}</div>
      <h3>Reviews</h3>
      {!review ? (
        <p className="muted">Not reviewed yet.</p>
      ) : (
        <>
          <p>
            <span className={`badge ${review.accepted ? 'ok' : 'bad'}`}>{review.outcome}</span>
            {review.attempt !== null && <span className="muted"> attempt {review.attempt}</span>}
          </p>
          <table className="data">
            <thead>
              <tr>
                <th scope="col">Review</th>
                <th scope="col">Result</th>
                <th scope="col">Issues</th>
              </tr>
            </thead>
            <tbody>
              {review.reviews.map((r) => (
                <tr key={r.kind}>
                  <td>{r.kind}</td>
                  <td>
                    <span className={`badge ${tone(r.result)}`}>{r.result.replace('_', ' ')}</span>
                  </td>
                  <td>{r.error ?? (r.issues.length ? <ul>{r.issues.map((i) => <li key={i}>{i}</li>)}</ul> : <span className="muted">none</span>)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
    </>
  );
}

function ResumePanel({ value }: { value: unknown }) {
  const r = readResume(value);
  if (!r) return <Empty>No tailored resume yet.</Empty>;
  return (
    <article className="resume">
      {r.summary && <p>{r.summary}</p>}
      {r.skills.length > 0 && (
        <>
          <h3>Skills</h3>
          <ul className="chips">{r.skills.map((s) => <li key={s}>{s}</li>)}</ul>
        </>
      )}
      {r.experience.length > 0 && <h3>Experience</h3>}
      {r.experience.map((e, i) => (
        <div key={i} className="resume-entry">
          <strong>{[e.title, e.employer].filter(Boolean).join(', ')}</strong>{' '}
          <span className="muted">
            {e.start ?? ''}–{e.end ?? 'present'}
            {e.location ? ` · ${e.location}` : ''}
          </span>
          <ul>{e.bullets.map((b, k) => <li key={k}>{b}</li>)}</ul>
        </div>
      ))}
      {r.education.length > 0 && <h3>Education</h3>}
      {r.education.map((e, i) => (
        <p key={i}>
          {[e.degree, e.field].filter(Boolean).join(', ')} {e.school && `— ${e.school}`} <span className="muted">{[e.start, e.end].filter(Boolean).join('–')}</span>
        </p>
      ))}
    </article>
  );
}

function CompensationPanel({ job }: { job: Job }) {
  const c = job.compensation;
  if (!c) return <Empty>{job.salaryText ? `Stated: ${job.salaryText} (not classified yet).` : 'No compensation stated.'}</Empty>;
  return (
    <>
      <p>{formatCompensation(c) ?? 'No figures.'}</p>
      {c.rows.length > 0 && (
        <table className="data">
          <thead>
            <tr>
              <th scope="col">Text</th>
              <th scope="col">Field</th>
              <th scope="col">Reading</th>
              <th scope="col">Method</th>
              <th scope="col">Note</th>
            </tr>
          </thead>
          <tbody>
            {c.rows.map((row, i) => (
              <tr key={i}>
                <td>{row.text}</td>
                <td>
                  <code>{row.fieldPath}</code>
                </td>
                <td>{row.decided ? (formatCompensation({ ...row, field: null, rows: [] }) ?? row.kind ?? '—') : <span className="badge warn">undecided</span>}</td>
                <td>{row.method ?? '—'}</td>
                <td>{row.error ?? row.reason ?? (row.flags.length ? row.flags.join(', ') : '')}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}

function AvailabilityPanel({ job }: { job: Job }) {
  const a = job.availability;
  if (!a) return <Empty>Never checked.</Empty>;
  return (
    <>
      <p>
        <span className={`badge ${tone(a.state)}`}>{a.state}</span> checked {formatDateTime(a.checkedAt)} by {a.method}
        {a.reason && <> — {a.reason}</>}
      </p>
      {a.evidence.length > 0 && (
        <ul>
          {a.evidence.map((e, i) => (
            <li key={i}>
              <code>{e.kind}</code> {e.status !== null && <span>HTTP {e.status}</span>} {e.detail} {e.url && <span className="muted">({e.url})</span>}
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
