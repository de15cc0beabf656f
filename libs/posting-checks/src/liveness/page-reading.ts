import type { AvailabilityEvidence, AvailabilityState, PostingResponse } from '../availability.model';
import { readJobPostingLd, validThroughInstant, type JobPostingLd } from './job-posting-ld';
import { findChallengePhrase, findClosurePhrase, isApplyHref, isApplyLabel } from './liveness-phrases';
import { normalizeSpace, scanPage, type ScannedControl, type ScannedForm, type ScannedPage } from './page-scan';
import { classifyRedirect } from './redirect-target';

/**
 * Reads one fetched posting page (HTTP, or the browser's rendered DOM) into an availability state.
 *
 * Conservative by construction: `closed` needs the board or employer saying so — a 404/410, a
 * redirect to the board's index, closure text in the page's own content, a JobPosting whose
 * `validThrough` has passed, or a disabled apply control — and `open` needs positive evidence: a
 * working apply form or control, or a JobPosting in date whose title the page shows. Everything
 * else is `unknown` with a reason; a page that keeps us out is `blocked`, never `closed`.
 *
 * Precedence, strongest first (each rule is one test in page-reading.spec.ts):
 *  1. status: 404/410 closed; an anti-bot challenge blocked; 401/403 blocked (forbidden); 429
 *     blocked (rate_limited, the fetcher already retried); other 3xx/4xx/5xx unknown;
 *  2. redirects: to the board's index closed (redirect_to_index), to a sign-in page blocked,
 *     to some other page read but never `open` (redirected_elsewhere);
 *  3. a challenge page served with 200 is blocked (captcha);
 *  4. a working apply FORM (applicant fields and a submit control) is `open` whatever else the page
 *     says: an expired-looking page that still takes applications is open. A submit button that is
 *     disabled inside such a form is the usual "fill the required fields first" pattern, not closure;
 *  5. closure text in the main content is `closed` — unless an enabled apply link/button is also
 *     there: the two contradict each other and the state is `unknown` (conflicting_evidence);
 *  6. a client-rendered shell (little text, scripts) needs the browser: unknown, needsJavascript;
 *  7. an enabled apply link/button is `open`; it outweighs a past `validThrough` (boards leave
 *     stale dates in their markup) and a disabled-looking control elsewhere on the page;
 *  8. `validThrough` in the past closed (valid_through_past); a disabled apply control closed
 *     (apply_disabled); a class merely named "disabled" is not read at all;
 *  9. a JobPosting in date whose title the page shows is `open` (json_ld_current);
 * 10. posting text without any apply control: unknown (no_apply_control). Many boards drop the
 *     button when a posting closes, but as many render it with JavaScript or apply by email; the
 *     absence alone is not the board saying the posting closed.
 */

export interface PageReadingContext {
  /** The posting's canonical URL (what the ladder asked for), to judge where redirects went. */
  postingUrl: string;
  now: Date;
}

export interface PageReading {
  verdict: AvailabilityState;
  evidence: AvailabilityEvidence[];
  /** The static HTML is a client-rendered shell: only a browser can read this page. */
  needsJavascript: boolean;
  /** Stable reason: the evidence kind that closed or blocked it, or why it is unknown; null for open. */
  reason: string | null;
}

/** Visible characters below which a page with scripts is a shell rather than a posting. */
const SHELL_TEXT_CHARS = 250;
/** Below this a page without scripts shows no posting at all (an error or placeholder page). */
const EMPTY_TEXT_CHARS = 80;
/** A challenge phrase in page text counts only on short pages; a posting may quote one. */
const CHALLENGE_TEXT_CHARS = 3_000;
const SNIPPET_CHARS = 160;

export function readPostingPage(response: PostingResponse, ctx: PageReadingContext): PageReading {
  const finalUrl = response.finalUrl || response.url;
  const evidence: AvailabilityEvidence[] = [];
  const add = (kind: string, detail: string, status: number | null = response.status): void => {
    evidence.push({ kind, detail, url: finalUrl, status });
  };
  const result = (verdict: AvailabilityState, reason: string | null, needsJavascript = false): PageReading => ({
    verdict, evidence, needsJavascript, reason,
  });

  if (response.hops.length) {
    add('redirect', `${response.hops.length} redirect(s) (${response.hops.map((h) => h.status).join(', ')}) to ${truncate(finalUrl, 200)}`, response.hops[0].status);
  }
  const status = response.status;
  if (status === 404 || status === 410) {
    add('http_status', `the posting page answered ${status}`);
    return result('closed', 'http_status');
  }
  const html = isHtml(response) ? response.body : '';
  const page = html ? scanPage(html) : null;
  if (status >= 300) {
    const challenge = page && challengeOf(page, null);
    if (challenge) {
      add('captcha', challenge);
      return result('blocked', 'captcha');
    }
    if (status === 401 || status === 403) {
      add('http_status', `the posting page answered ${status}: access refused`);
      return result('blocked', 'forbidden');
    }
    if (status === 429) {
      add('http_status', 'the posting page answered 429 (rate limited) after retries');
      return result('blocked', 'rate_limited');
    }
    add('http_status', `the posting page answered ${status}`);
    return result('unknown', status >= 500 ? 'server_error' : `http_${status}`);
  }

  const target = response.hops.length ? classifyRedirect(ctx.postingUrl, finalUrl) : 'same';
  if (target === 'index') {
    add('redirect_to_index', `the posting URL now redirects to ${truncate(finalUrl, 200)}, the board's index or search page`);
    return result('closed', 'redirect_to_index');
  }
  if (target === 'login') {
    add('login_required', `the posting URL redirects to a sign-in page (${truncate(finalUrl, 200)})`);
    return result('blocked', 'login_required');
  }
  if (!page) {
    add('not_html', `the posting URL answered ${response.contentType ?? 'an unknown content type'}, not a page`);
    return result('unknown', 'not_html');
  }
  const reading = readPage(page, readJobPostingLd(html), ctx.now, add);
  if (target === 'elsewhere' && reading.verdict === 'open') {
    add('redirected_elsewhere', `the posting URL now redirects to another page (${truncate(finalUrl, 200)}); what it offers may be another job`);
    return result('unknown', 'redirected_elsewhere');
  }
  return result(reading.verdict, reading.reason, reading.needsJavascript);
}

type Add = (kind: string, detail: string, status?: number | null) => void;

function readPage(page: ScannedPage, ld: JobPostingLd | null, now: Date, add: Add): Omit<PageReading, 'evidence'> {
  const applyForm = page.forms.findIndex((form, i) => isApplicantForm(form, i, page.controls));
  const enabledApply = page.controls.find((c) => !c.disabled && isApplyControl(c) && !(c.form >= 0 && c.form === applyForm));
  const disabledApply = page.controls.find((c) => c.disabled && isApplyControl(c) && !(c.form >= 0 && isApplicantForm(page.forms[c.form], c.form, page.controls)));

  const challenge = challengeOf(page, ld, applyForm >= 0);
  if (challenge) {
    add('captcha', challenge);
    return { verdict: 'blocked', reason: 'captcha', needsJavascript: false };
  }

  const content = page.hasMainRegion && page.mainText.length >= 40 ? page.mainText : page.bodyText;
  const closure = closureIn(content) ?? closureIn(ld?.description ? descriptionText(ld.description) : '');
  const until = validThroughInstant(ld?.validThrough ?? null);
  const expired = until !== null && until.getTime() < now.getTime();

  if (applyForm >= 0) {
    add('apply_form', `the page has an application form${page.forms[applyForm].action ? ` (posting to ${truncate(page.forms[applyForm].action ?? '', 120)})` : ''}`);
    if (closure) add('closed_text', `${closure} — outweighed by the working application form`);
    if (expired) add('valid_through_past', `JobPosting validThrough ${ld?.validThrough} — outweighed by the working application form`);
    return { verdict: 'open', reason: null, needsJavascript: false };
  }
  if (closure) {
    add('closed_text', closure);
    if (enabledApply) {
      add('apply_control', `but an enabled apply control is still offered: ${describeControl(enabledApply)}`);
      return { verdict: 'unknown', reason: 'conflicting_evidence', needsJavascript: false };
    }
    return { verdict: 'closed', reason: 'closed_text', needsJavascript: false };
  }
  if (page.bodyText.length < SHELL_TEXT_CHARS && (page.scripts > 0 || page.appRoot)) {
    add('needs_javascript', `only ${page.bodyText.length} characters of text and ${page.scripts} script(s): the page is rendered in the browser`);
    return { verdict: 'unknown', reason: 'needs_javascript', needsJavascript: true };
  }
  if (enabledApply) {
    add('apply_control', describeControl(enabledApply));
    if (expired) add('valid_through_past', `JobPosting validThrough ${ld?.validThrough} — outweighed by the enabled apply control`);
    return { verdict: 'open', reason: null, needsJavascript: false };
  }
  if (expired) {
    add('valid_through_past', `JobPosting validThrough ${ld?.validThrough} is before ${now.toISOString()}`);
    return { verdict: 'closed', reason: 'valid_through_past', needsJavascript: false };
  }
  if (disabledApply) {
    add('apply_disabled', `the apply control is disabled: ${describeControl(disabledApply)}`);
    return { verdict: 'closed', reason: 'apply_disabled', needsJavascript: false };
  }
  if (ld?.title && titleShown(ld.title, page, content)) {
    add('json_ld_current', `JobPosting "${truncate(ld.title, 80)}"${ld.validThrough ? ` valid through ${ld.validThrough}` : ' without validThrough'}, title shown on the page`);
    return { verdict: 'open', reason: null, needsJavascript: false };
  }
  if (page.bodyText.length < EMPTY_TEXT_CHARS) {
    add('no_posting_content', `the page shows only ${page.bodyText.length} characters of text and no posting`);
    return { verdict: 'unknown', reason: 'no_posting_content', needsJavascript: false };
  }
  add('no_apply_control', 'the page shows text but neither an apply control nor a current JobPosting');
  return { verdict: 'unknown', reason: 'no_apply_control', needsJavascript: false };
}

function isHtml(response: PostingResponse): boolean {
  const type = (response.contentType ?? '').toLowerCase();
  if (!type) return /^\s*</.test(response.body.slice(0, 512));
  return type.includes('html') || type.includes('xml') || type.startsWith('text/');
}

/** Why the page is an anti-bot interstitial, or null. */
function challengeOf(page: ScannedPage, ld: JobPostingLd | null, hasApplyForm = false): string | null {
  if (page.challengeMarkers.length) return `anti-bot challenge page (${page.challengeMarkers.join(', ')})`;
  const inTitle = findChallengePhrase(page.title.toLowerCase());
  if (inTitle) return `anti-bot challenge page: title says "${inTitle}"`;
  if (ld || hasApplyForm || page.bodyText.length > CHALLENGE_TEXT_CHARS) return null;
  const inText = findChallengePhrase(page.bodyText.toLowerCase());
  return inText ? `anti-bot challenge page: "${inText}"` : null;
}

/** A closure phrase in `text`, described with a quoted snippet of ≤ 160 characters. */
function closureIn(text: string): string | null {
  if (!text) return null;
  const lower = text.toLowerCase();
  const hit = findClosurePhrase(lower);
  if (!hit) return null;
  // Lowercasing can change the length of some scripts' text; quote from the lowercased copy then.
  const source = lower.length === text.length ? text : lower;
  const room = Math.max(0, SNIPPET_CHARS - 2 - hit.phrase.length);
  const start = Math.max(0, hit.index - Math.floor(room / 2));
  const snippet = source.slice(start, Math.min(source.length, start + SNIPPET_CHARS - 2)).trim();
  return `"${snippet}" (${hit.lang})`;
}

/** JobPosting descriptions are HTML, sometimes entity-escaped HTML (Greenhouse's `content`). */
function descriptionText(description: string): string {
  const html = /&lt;[a-z/]/i.test(description) && !/<[a-z/]/i.test(description) ? scanPage(description).bodyText : description;
  return scanPage(html).bodyText;
}

const FIELD_STRONG_RE = /resume|résumé|\bcv\b|curriculum|lebenslauf|cover.?letter|anschreiben|motivation/;
const FIELD_EMAIL_RE = /e-?mail|courriel|correo/;
const FIELD_NAME_RE = /name|nom\b|nombre|naam|nome|vorname|prénom|first|last/;
const FIELD_PHONE_RE = /phone|tel\b|telefon|téléphone|teléfono|telefoon|telefone|telefono/;

/**
 * An application form: not a search or sign-in form, with applicant fields (a résumé/CV upload,
 * or e-mail together with a name or phone), and a control to submit it. A newsletter box (e-mail
 * only) or a job search does not qualify.
 */
function isApplicantForm(form: ScannedForm, index: number, controls: readonly ScannedControl[]): boolean {
  if (form.search || form.fields.some((f) => f.type === 'password' || f.type === 'search')) return false;
  const strong = form.fields.some((f) => f.type === 'file' || FIELD_STRONG_RE.test(f.describes));
  const email = form.fields.some((f) => f.type === 'email' || FIELD_EMAIL_RE.test(f.describes));
  const other = form.fields.some(
    (f) => f.type === 'tel' || (f.type !== 'hidden' && (FIELD_NAME_RE.test(f.describes) || FIELD_PHONE_RE.test(f.describes))),
  );
  if (!strong && !(email && other)) return false;
  return controls.some((c) => c.form === index && (c.submit || isApplyLabel(c.label)));
}

/** A control that applies to this job: an apply label, or a real link into an application path. */
function isApplyControl(control: ScannedControl): boolean {
  if (control.tag !== 'a') return isApplyLabel(control.label);
  const href = (control.href ?? '').trim();
  // An in-page anchor or a script link leads nowhere by itself; an application form it scrolls
  // to is read as a form.
  if (!href || href.startsWith('#') || /^javascript:/i.test(href)) return false;
  if (isApplyLabel(control.label)) return true;
  return isApplyHref(hrefPath(href)) && !/filter|how to|tips/.test(control.label);
}

function hrefPath(href: string): string {
  try {
    return new URL(href, 'http://relative.invalid').pathname;
  } catch {
    return '';
  }
}

function describeControl(control: ScannedControl): string {
  const label = control.label ? `"${truncate(control.label, 60)}"` : 'an unlabelled control';
  return control.href ? `${label} → ${truncate(control.href, 120)}` : `${label} (${control.tag})`;
}

function titleShown(title: string, page: ScannedPage, content: string): boolean {
  const wanted = normalizeSpace(title).toLowerCase();
  if (wanted.length < 3) return false;
  return (
    page.title.toLowerCase().includes(wanted) ||
    page.headings.some((h) => h.toLowerCase().includes(wanted)) ||
    content.toLowerCase().includes(wanted)
  );
}

function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
