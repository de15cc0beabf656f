import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Page, Response } from 'playwright-core';
import { ERROR_SELECTOR, formLocator, readApplicationForm } from './application-form.reader';
import type { AnswerPlan, ApplicationForm, FormFill, SubmitOutcome } from './application-form.types';

/** A fill that did not stick, or a form that cannot be submitted; nothing was clicked. */
export class FormFillError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FormFillError';
  }
}

const ACTION_TIMEOUT_MS = 10_000;

/**
 * Fills every planned value, then reads each control back: a value the page did not take (a select
 * without that option, a file input that kept nothing) fails here, before anything is submitted.
 */
export async function fillApplicationForm(page: Page, plan: AnswerPlan): Promise<void> {
  const form = formLocator(page, plan.formIndex);
  for (const fill of plan.fills) await fillOne(form.locator(fill.question.selector), fill);
  for (const fill of plan.fills) await verifyOne(form.locator(fill.question.selector), fill);
}

type ControlLocator = ReturnType<ReturnType<typeof formLocator>['locator']>;

async function fillOne(control: ControlLocator, fill: FormFill): Promise<void> {
  const options = { timeout: ACTION_TIMEOUT_MS };
  const { value, question } = fill;
  switch (value.kind) {
    case 'text':
      await control.fill(value.text, options);
      return;
    case 'file':
      await control.setInputFiles(value.path, options);
      return;
    case 'check':
      await control.setChecked(value.checked, options);
      return;
    case 'choice':
      if (question.type === 'select') {
        await control.selectOption(
          value.choices.map((c) => ({ index: c.index })),
          options,
        );
        return;
      }
      // A radio group or checkbox group: each input of the group is one choice, in page order.
      for (const choice of question.choices ?? []) {
        const wanted = value.choices.some((c) => c.index === choice.index);
        if (question.type === 'radio' && !wanted) continue;
        await control.nth(choice.index).setChecked(wanted, options);
      }
      return;
  }
}

async function verifyOne(control: ControlLocator, fill: FormFill): Promise<void> {
  const { value, question } = fill;
  const where = `"${question.label}" (${question.key})`;
  switch (value.kind) {
    case 'text': {
      const actual = await control.inputValue({ timeout: ACTION_TIMEOUT_MS });
      // A maxlength or an input mask may alter what was typed: what the board receives must be what we planned.
      if (actual !== value.text) throw new FormFillError(`${where} holds ${JSON.stringify(actual.slice(0, 80))}, not the planned value`);
      return;
    }
    case 'file': {
      const files = await control.evaluate((el: { files?: { length: number } | null }) => el.files?.length ?? 0);
      if (files !== 1) throw new FormFillError(`${where} holds ${files} files, not the planned ${path.basename(value.path)}`);
      return;
    }
    case 'check':
      if ((await control.isChecked()) !== value.checked) throw new FormFillError(`${where} is not ${value.checked ? 'checked' : 'unchecked'}`);
      return;
    case 'choice':
      if (question.type === 'select') {
        const selected = await control.evaluate((el: { selectedIndex: number }) => el.selectedIndex);
        if (!value.choices.some((c) => c.index === selected)) throw new FormFillError(`${where} is not set to ${value.choices[0]?.label}`);
        return;
      }
      for (const choice of question.choices ?? []) {
        const wanted = value.choices.some((c) => c.index === choice.index);
        if ((await control.nth(choice.index).isChecked()) !== wanted) throw new FormFillError(`${where}: "${choice.label}" is not ${wanted ? 'checked' : 'unchecked'}`);
      }
      return;
  }
}

export interface SubmitOptions {
  /**
   * Called once, immediately before the one click that submits (after every check that could stop
   * the submission): the caller persists its submit-intent checkpoint here. If it throws, nothing is
   * clicked and the error propagates.
   */
  beforeSubmit: () => Promise<void>;
  /** How long to wait for the board's answer after the click. */
  timeoutMs: number;
  /** The form as read before filling (read again when absent). */
  form?: ApplicationForm;
}

/** After the new document loaded, how long a confirmation rendered by its scripts may take to show. */
const SETTLE_MS = 2_000;
const POLL_MS = 200;
/** Longest a single look at the page may take before it counts as "no answer yet". */
const PROBE_MS = 1_000;
const DOCUMENT_MARK = '__jobctrlSubmittedFrom';

/**
 * What the page says after the click. Runs in the page (a string: no DOM types in this lib).
 * `marked` is false once the document we clicked in has been replaced.
 */
const PAGE_STATE_SCRIPT = String.raw`(() => {
  const clean = (s) => (s || '').replace(/\s+/g, ' ').trim();
  const rendered = (el) => el.getClientRects().length > 0;
  const body = document.body ? document.body.innerText || '' : '';
  const idNode = document.querySelector('[data-confirmation-id], #confirmation-id, .confirmation-id, [data-testid="confirmation-id"]');
  return {
    marked: window.${DOCUMENT_MARK} === true,
    ready: document.readyState,
    text: body.slice(0, 20000),
    confirmationId: idNode ? clean(idNode.getAttribute('data-confirmation-id') || idNode.textContent) : '',
    hasApplicationForm: !!document.querySelector('form input[type="file"]'),
    errors: Array.from(new Set(Array.from(document.querySelectorAll(${JSON.stringify(ERROR_SELECTOR)})).filter(rendered).map((n) => clean(n.textContent)).filter((t) => t && t.length <= 300))),
  };
})()`;

interface PageState {
  marked: boolean;
  ready: string;
  text: string;
  confirmationId: string;
  hasApplicationForm: boolean;
  errors: string[];
}

const CONFIRMED_TEXT = [
  /thanks? (you )?for (applying|your application)/i,
  /\bapplication (has been |was |is )?(successfully )?(submitted|received)/i,
  /\bwe('ve| have) received your application/i,
  /\byour application (is on its way|has been sent)/i,
];
/** "Confirmation number: GH-12345" — the token must hold a digit, so "confirmation number will follow" is no id. */
const CONFIRMATION_ID = /\b(?:confirmation|reference|application|submission)\s*(?:id|number|no\.?|code|#)\s*[:#]?\s*([A-Za-z0-9][A-Za-z0-9_-]*\d[A-Za-z0-9_-]*)/i;

/** The confirmation a page shows: its id when it has one, else the sentence that confirms. */
export function confirmationIn(state: Pick<PageState, 'text' | 'confirmationId'>): string | null {
  if (state.confirmationId) return state.confirmationId;
  const id = CONFIRMATION_ID.exec(state.text);
  if (id) return id[1];
  for (const pattern of CONFIRMED_TEXT) {
    const m = pattern.exec(state.text);
    if (!m) continue;
    // The sentence around the phrase (bounded, for the record).
    const start = Math.max(state.text.lastIndexOf('.', m.index) + 1, state.text.lastIndexOf('\n', m.index) + 1, m.index - 120);
    const endDot = state.text.slice(m.index).search(/[.!\n]/);
    const end = endDot < 0 ? Math.min(state.text.length, m.index + 160) : Math.min(m.index + endDot + 1, m.index + 160);
    return state.text.slice(start, end).trim();
  }
  return null;
}

/**
 * Submits the filled form with exactly one click and reports what the board answered. Everything
 * that could stop the submission (no submit control, a control not clickable, the browser's own
 * validation refusing) is checked BEFORE `beforeSubmit`, so an intent checkpoint is only written
 * when the click follows at once. After the click nothing is ever clicked again: no answer, an
 * answer without confirmation, or an error of the click itself is `unconfirmed` (a person checks).
 */
export async function submitApplicationForm(page: Page, opts: SubmitOptions): Promise<SubmitOutcome> {
  const form = opts.form ?? (await readApplicationForm(page));
  if (!form) throw new FormFillError('the page has no application form');
  if (!form.submit) throw new FormFillError('the application form has no submit control');
  const button = page.locator(form.submit.selector).first();
  // Actionability (visible, enabled, stable, receives events) without clicking.
  await button.click({ trial: true, timeout: ACTION_TIMEOUT_MS });
  const valid = await formLocator(page, form.formIndex).evaluate((el: { checkValidity(): boolean }) => el.checkValidity());
  if (!valid) throw new FormFillError('the browser refuses to submit the form: a required field is empty or invalid');
  await page.evaluate(`window.${DOCUMENT_MARK} = true`);

  const statuses: number[] = [];
  const onResponse = (response: Response) => {
    try {
      if (response.request().isNavigationRequest() && response.request().frame() === page.mainFrame()) statuses.push(response.status());
    } catch {
      // A service worker's request has no frame; it is not the answer.
    }
  };
  await opts.beforeSubmit();
  page.on('response', onResponse);
  try {
    try {
      // noWaitAfter: the answer is watched below, and a board that never answers must not turn the
      // click itself into a timeout (deprecated only because it is to become the default).
      await button.click({ timeout: ACTION_TIMEOUT_MS, noWaitAfter: true });
    } catch (error) {
      // The click may or may not have reached the page: only a person can tell.
      return { outcome: 'unconfirmed', detail: `the submit click failed: ${(error as Error).message.split('\n')[0]}` };
    }
    return await awaitAnswer(page, opts.timeoutMs, statuses);
  } finally {
    page.off('response', onResponse);
  }
}

async function awaitAnswer(page: Page, timeoutMs: number, statuses: number[]): Promise<SubmitOutcome> {
  const deadline = Date.now() + timeoutMs;
  let settleUntil: number | null = null;
  let last: PageState | null = null;
  const status = () => (statuses.length ? `, HTTP ${statuses[statuses.length - 1]}` : '');
  for (;;) {
    // While a navigation is pending, Playwright holds an evaluation until the new document commits
    // (never, on a board that does not answer): each probe is bounded and a late one is dropped.
    const state = await settledWithin(page.evaluate(PAGE_STATE_SCRIPT) as Promise<PageState>, Math.max(POLL_MS, Math.min(PROBE_MS, deadline - Date.now())));
    if (state) {
      last = state;
      const replaced = !state.marked;
      const confirmation = confirmationIn(state);
      // The form page itself may thank people in advance; only a page without the form confirms.
      if (confirmation && (replaced || !state.hasApplicationForm)) {
        return { outcome: 'confirmed', confirmation, detail: `confirmation shown${status()}` };
      }
      if (replaced && state.ready === 'complete') {
        if (state.hasApplicationForm && state.errors.length > 0) {
          return { outcome: 'rejected', errors: state.errors, detail: `the board answered with the form and its errors${status()}` };
        }
        settleUntil ??= Math.min(deadline, Date.now() + SETTLE_MS);
        if (Date.now() >= settleUntil) return { outcome: 'unconfirmed', detail: `the board answered without a confirmation${status()}` };
      }
    }
    if (Date.now() >= deadline) {
      if (!last || last.marked) await stopWaiting(page);
      const where = last && !last.marked ? `a new page without a confirmation${status()}` : 'no answer from the board';
      return { outcome: 'unconfirmed', detail: `${where} within ${timeoutMs} ms of the submit click` };
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

/** The promise's value, or null when it fails or has not settled within `ms`. */
async function settledWithin<T>(promise: Promise<T>, ms: number): Promise<T | null> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), ms);
  });
  try {
    return await Promise.race([promise.catch(() => null), late]);
  } finally {
    clearTimeout(timer);
  }
}

/** A full-page screenshot (PNG) at `file`, its directory created. */
export async function screenshot(page: Page, file: string): Promise<string> {
  await fs.promises.mkdir(path.dirname(file), { recursive: true, mode: 0o700 }); // private (#39)
  await page.screenshot({ path: file, fullPage: true, timeout: ACTION_TIMEOUT_MS });
  return file;
}

/**
 * Stops the browser's wait for an answer we no longer wait for. The board has the request (or not)
 * either way, and closing the browser would end the wait the same; until then Playwright holds page
 * evaluations and screenshots behind the pending navigation, so the page could not be recorded.
 */
async function stopWaiting(page: Page): Promise<void> {
  const stop = (async () => {
    const session = await page.context().newCDPSession(page);
    try {
      await session.send('Page.stopLoading');
    } finally {
      await session.detach().catch(() => undefined);
    }
  })();
  await settledWithin(stop, PROBE_MS * 2);
}
