import type { Page } from 'playwright-core';
import type { ApplicationForm } from './application-form.types';

/**
 * Selectors of the messages a form shows next to a field it refused. Shared by the reader (a
 * re-rendered form's errors) and the submit watcher (errors that appeared after the click).
 */
export const ERROR_SELECTOR = '[role="alert"], .error, .errors, .field-error, .error-message, .invalid-feedback, [data-error]';

/**
 * Runs in the page (a string: this lib compiles without DOM types, and the code must not depend on
 * the bundler's function serialisation). Picks the application form (the one with a file input,
 * else the one with the most controls) and reads each visible control's label the way a person or
 * a screen reader would: aria-labelledby, then <label for>/a wrapping label, then aria-label; a
 * radio or checkbox group is labelled by its fieldset legend or group role; a control with none of
 * these by the text of the smallest enclosing block that holds only it (Lever-style markup puts the
 * question in a div beside the field); the placeholder last.
 */
const READ_FORM_SCRIPT = String.raw`(() => {
  const ERR = ${JSON.stringify(ERROR_SELECTOR)};
  const clean = (s) => (s || '').replace(/\s+/g, ' ').trim();
  const REQUIRED_MARK = /[*\u2731\u2217]|\(\s*required\s*\)/i;
  const stripMarks = (s) => clean(clean(s).replace(/\(\s*(required|optional)\s*\)/gi, ' ').replace(/[*\u2731\u2217]+/g, ' ')).replace(/[\s:]+$/, '');
  const CONTROLS = 'input, select, textarea, button, script, style, template';
  // Text of a node without its controls, hidden parts and error messages; raw keeps the required marks.
  const textOf = (node, dropLabels) => {
    if (!node) return { text: '', raw: '' };
    const clone = node.cloneNode(true);
    clone.querySelectorAll(CONTROLS + ', ' + ERR + (dropLabels ? ', label' : '')).forEach((n) => n.remove());
    const raw = clean(clone.textContent);
    clone.querySelectorAll('[hidden], [aria-hidden="true"], .visually-hidden, .sr-only').forEach((n) => n.remove());
    return { text: clean(clone.textContent), raw };
  };
  const join = (parts) => ({ text: clean(parts.map((p) => p.text).join(' ')), raw: clean(parts.map((p) => p.raw).join(' ')) });
  const byIds = (ids) => join(ids.split(/\s+/).filter(Boolean).map((id) => textOf(document.getElementById(id), false)));
  const rendered = (el) => el.getClientRects().length > 0;
  const named = (el) => {
    const by = el.getAttribute('aria-labelledby');
    if (by) { const t = byIds(by); if (t.text) return t; }
    if (el.labels && el.labels.length) { const t = join(Array.from(el.labels).map((l) => textOf(l, false))); if (t.text) return t; }
    const aria = el.getAttribute('aria-label');
    if (aria && clean(aria)) return { text: clean(aria), raw: clean(aria) };
    return null;
  };
  const controlsIn = (node) => Array.from(node.querySelectorAll('input, select, textarea')).filter((c) => !['hidden', 'submit', 'button', 'reset', 'image'].includes(c.type));
  // The smallest ancestor (below the form) whose controls are exactly these and that says something
  // besides its options' labels.
  const enclosing = (els, form) => {
    let node = els[0].parentElement;
    for (let depth = 0; node && node !== form && depth < 6; depth += 1, node = node.parentElement) {
      // An option's own label ("Yes") is not the question.
      if (node.tagName === 'LABEL') continue;
      const inside = controlsIn(node);
      if (inside.some((c) => !els.includes(c))) return null;
      const t = textOf(node, true);
      if (t.text) return t;
    }
    return null;
  };
  const groupLabel = (els, form) => {
    const group = els[0].closest('fieldset, [role="radiogroup"], [role="group"]');
    if (group && form.contains(group) && controlsIn(group).every((c) => els.includes(c))) {
      const legend = group.tagName === 'FIELDSET' ? group.querySelector(':scope > legend') : null;
      if (legend) { const t = textOf(legend, false); if (t.text) return t; }
      const t = named(group);
      if (t) return t;
    }
    return enclosing(els, form);
  };
  const cssq = (s) => '"' + String(s).replace(/["\\]/g, '\\$&') + '"';

  const forms = Array.from(document.forms);
  let formIndex = -1;
  let best = -1;
  forms.forEach((f, i) => {
    const score = controlsIn(f).length + (f.querySelector('input[type="file"]') ? 1000 : 0);
    if (score > best) { best = score; formIndex = i; }
  });
  if (formIndex < 0) return null;
  const form = forms[formIndex];
  const controls = Array.from(form.elements).filter((el) => {
    if (!['INPUT', 'SELECT', 'TEXTAREA'].includes(el.tagName)) return false;
    if (['hidden', 'submit', 'button', 'reset', 'image'].includes(el.type) || el.disabled) return false;
    if (el.closest('[aria-hidden="true"]')) return false;
    // File inputs are often visually hidden behind a styled button; anything else a person cannot
    // see (honeypots) is not a question.
    return el.type === 'file' || rendered(el);
  });
  const questions = [];
  const seen = new Set();
  let anonymous = 0;
  for (const el of controls) {
    if (seen.has(el)) continue;
    const tag = el.tagName.toLowerCase();
    const kind = tag === 'input' ? el.type : tag;
    const grouped = (kind === 'radio' || kind === 'checkbox') && el.name
      ? controls.filter((c) => c.type === kind && c.name === el.name) : [el];
    grouped.forEach((c) => seen.add(c));
    const isGroup = kind === 'radio' || grouped.length > 1;
    let key = el.name || el.id;
    if (!key) { anonymous += 1; key = 'jobctrl-q' + anonymous; el.setAttribute('data-jobctrl-key', key); }
    const type = kind === 'textarea' || kind === 'select' || kind === 'email' || kind === 'tel' || kind === 'file' || kind === 'radio' || kind === 'checkbox' ? kind : 'text';
    let label = isGroup ? groupLabel(grouped, form) : (named(el) || enclosing([el], form));
    if (!label && el.placeholder) label = { text: clean(el.placeholder), raw: clean(el.placeholder) };
    if (!label) label = { text: key, raw: key };
    const selector = el.getAttribute('data-jobctrl-key') ? '[data-jobctrl-key=' + cssq(key) + ']'
      : isGroup ? tag + '[type=' + cssq(kind) + '][name=' + cssq(el.name) + ']'
      : el.id ? '#' + CSS.escape(el.id)
      : tag + '[name=' + cssq(el.name) + ']';
    const required = grouped.some((c) => c.required || c.getAttribute('aria-required') === 'true')
      || (isGroup && !!el.closest('[aria-required="true"]')) || REQUIRED_MARK.test(label.raw);
    const q = { key, label: stripMarks(label.text) || key, type, required, selector };
    if (kind === 'select') {
      q.choices = Array.from(el.options).map((o, index) => ({ label: clean(o.label || o.textContent), value: o.value, index }))
        .filter((c, i) => c.value !== '' && !el.options[i].disabled);
    } else if (isGroup) {
      q.choices = grouped.map((c, index) => { const t = named(c); return { label: t ? stripMarks(t.text) : c.value, value: c.value, index }; });
    }
    if (q.choices) q.options = q.choices.map((c) => c.label);
    if (kind === 'file' && el.accept) q.accept = el.accept;
    questions.push(q);
  }
  const buttons = Array.from(form.querySelectorAll('button, input[type="submit"]'))
    .concat(form.id ? Array.from(document.querySelectorAll('button[form=' + cssq(form.id) + '], input[type="submit"][form=' + cssq(form.id) + ']')) : [])
    .filter((b) => (b.tagName === 'INPUT' || (b.getAttribute('type') || 'submit').toLowerCase() === 'submit') && !b.disabled && rendered(b));
  const labelOf = (b) => clean(b.tagName === 'INPUT' ? b.value : b.textContent);
  const submitButton = buttons.find((b) => /submit|apply|send/i.test(labelOf(b))) || buttons[buttons.length - 1];
  let submit = null;
  if (submitButton) {
    if (!submitButton.hasAttribute('data-jobctrl-submit')) submitButton.setAttribute('data-jobctrl-submit', '');
    submit = { selector: '[data-jobctrl-submit]', label: labelOf(submitButton) };
  }
  const errors = Array.from(document.querySelectorAll(ERR)).filter(rendered).map((n) => clean(n.textContent)).filter((t) => t && t.length <= 300);
  return { formIndex, action: form.action, questions, submit, errors: Array.from(new Set(errors)) };
})()`;

/** Reads the page's application form; null when the page has no form. */
export async function readApplicationForm(page: Page): Promise<ApplicationForm | null> {
  return (await page.evaluate(READ_FORM_SCRIPT)) as ApplicationForm | null;
}

/** The form's controls are looked up inside it, so a second form on the page (search, newsletter) is never touched. */
export function formLocator(page: Page, formIndex: number) {
  return page.locator('form').nth(formIndex);
}
