// Readers for the four job fields the OpenAPI document types as `unknown` (scoreDetail,
// tailoredResume, coverLetter, coverReview: JSON the producing stage stores as it is). Each reads only
// what it can show and checks every value's type at run time, so an older or newer shape renders what
// it has instead of throwing.
const rec = (v: unknown): Record<string, unknown> | null => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : null);
const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const strs = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

export interface ScoreRationale {
  matched: string[];
  missing: string[];
  rationale: string | null;
  components: Array<{ name: string; value: number }>;
}

export function readScoreDetail(v: unknown): ScoreRationale | null {
  const r = rec(v);
  if (!r) return null;
  const components = Object.entries(rec(r.components) ?? {})
    .map(([name, value]) => ({ name, value: num(value) }))
    .filter((c): c is { name: string; value: number } => c.value !== null);
  return { matched: strs(r.matched), missing: strs(r.missing), rationale: str(r.rationale), components };
}

export interface ResumeView {
  summary: string | null;
  skills: string[];
  experience: Array<{ title: string | null; employer: string | null; location: string | null; start: string | null; end: string | null; bullets: string[] }>;
  education: Array<{ school: string | null; degree: string | null; field: string | null; start: string | null; end: string | null }>;
  method: string | null;
}

export function readResume(v: unknown): ResumeView | null {
  const r = rec(v);
  if (!r) return null;
  const list = (x: unknown) => (Array.isArray(x) ? x.map(rec).filter((e): e is Record<string, unknown> => e !== null) : []);
  return {
    summary: str(r.summary),
    skills: strs(r.skills),
    experience: list(r.experience).map((e) => ({
      title: str(e.title),
      employer: str(e.employer),
      location: str(e.location),
      start: str(e.start),
      end: str(e.end),
      bullets: strs(e.bullets),
    })),
    education: list(r.education).map((e) => ({
      school: str(e.school),
      degree: str(e.degree),
      field: str(e.field),
      start: str(e.start),
      end: str(e.end),
    })),
    method: str(r.method),
  };
}

export function readLetter(v: unknown): { text: string; method: string | null } | null {
  if (typeof v === 'string') return { text: v, method: null };
  const r = rec(v);
  const text = r && str(r.text);
  return text !== null && r ? { text, method: str(r.method) } : null;
}

export type ReviewKind = 'factual' | 'quality';
export interface ReviewRow {
  kind: ReviewKind;
  /** passed / failed: a verdict; errored: no verdict (model error…); not_run: it never reported. */
  result: 'passed' | 'failed' | 'errored' | 'not_run';
  issues: string[];
  error: string | null;
}

export interface LetterReview {
  accepted: boolean;
  outcome: string;
  attempt: number | null;
  reviews: ReviewRow[];
}

/**
 * The review pair's decision (libs/cover-letter's PairDecision) → one row per review. An accepted
 * letter carries both verdicts; a rejected or errored one names the review that decided and lists
 * the others that also failed or never reported.
 */
export function readReview(v: unknown): LetterReview | null {
  const r = rec(v);
  if (!r || typeof r.accepted !== 'boolean') return null;
  const kinds: ReviewKind[] = ['factual', 'quality'];
  const alsoFailed = strs(r.alsoFailed);
  const missing = strs(r.missing);
  const verdicts = rec(r.verdicts);
  const row = (kind: ReviewKind): ReviewRow => {
    const verdict = rec(verdicts?.[kind]);
    if (verdict) return { kind, result: verdict.passed === true ? 'passed' : 'failed', issues: strs(verdict.issues), error: null };
    if (r.by === kind) {
      const err = rec(r.error);
      return r.outcome === 'errored'
        ? { kind, result: 'errored', issues: [], error: err ? `${str(err.code) ?? 'error'}: ${str(err.message) ?? ''}`.trim() : 'errored' }
        : { kind, result: 'failed', issues: strs(r.issues), error: null };
    }
    if (alsoFailed.includes(kind)) return { kind, result: 'failed', issues: [], error: null };
    if (missing.includes(kind)) return { kind, result: 'not_run', issues: [], error: null };
    // Not the deciding one, not failed, not missing: it passed (its advisories are not kept on a rejection).
    return { kind, result: 'passed', issues: [], error: null };
  };
  return { accepted: r.accepted, outcome: str(r.outcome) ?? (r.accepted ? 'accepted' : 'rejected'), attempt: num(r.attempt), reviews: kinds.map(row) };
}
