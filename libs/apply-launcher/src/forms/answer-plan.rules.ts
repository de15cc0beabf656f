import { defaultSkillIndex, findMentionedSkills, isOngoing, profileMonth } from '@jobctrl/shared/profile';
import type {
  AnswerPlan,
  Applicant,
  ApplicantExperience,
  ApplicationForm,
  FillSource,
  FillValue,
  FormFill,
  FormQuestion,
  QuestionChoice,
  UnansweredQuestion,
} from './application-form.types';

/**
 * Which value answers which question. The rule is "never guess": a value comes from the person's
 * saved answers (they win), from a profile fact the label asks for unambiguously, or from the
 * generated documents; anything else stays unanswered — reported when required, left empty when
 * optional. Questions about eligibility, sponsorship, demographics, pay, referral or availability
 * are answered ONLY from saved answers, even where a profile field looks related (a location is not
 * a work authorisation).
 */

/** Labels only the person may answer. */
const SAVED_ONLY =
  /authori[sz]|sponsor|\bvisa\b|right to work|citizen|eligib|legally|clearance|gender|pronoun|\brace\b|ethnic|hispanic|latin|veteran|disab|sexual|salary|compensation|pay expectation|hear about|referr|relocat|notice period|start date|availab|criminal|background check|agree|consent|acknowledg|privacy|terms/;

/** The label as matched: lower case, single spaces, no trailing "?" or ":". */
export function normaliseLabel(label: string): string {
  return label
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/[\s?:.]+$/, '');
}

type Found = { text: string; source: FillSource } | { unknown: string } | null;

const LINK_HOSTS = { linkedin: /(^|\.)linkedin\.com$/i, github: /(^|\.)github\.com$/i };

function hostOf(link: string): string | null {
  try {
    return new URL(/^[a-z]+:\/\//i.test(link) ? link : `https://${link}`).hostname;
  } catch {
    return null;
  }
}

function linkOn(links: readonly string[], host: RegExp): string | undefined {
  return links.find((l) => host.test(hostOf(l) ?? ''));
}

/** Month intervals [start, end] of entries, merged so overlapping roles count once. */
function mergedMonths(entries: readonly ApplicantExperience[], asOf: string): number | undefined {
  const now = profileMonth(asOf, 'end');
  const spans: Array<[number, number]> = [];
  for (const e of entries) {
    const start = profileMonth(e.start, 'start');
    const end = isOngoing(e.end) ? now : profileMonth(e.end, 'end');
    if (start === undefined || end === undefined) return undefined;
    if (end >= start) spans.push([start, end]);
  }
  if (spans.length === 0) return undefined;
  spans.sort((a, b) => a[0] - b[0]);
  let total = 0;
  let [from, to] = spans[0];
  for (const [s, e] of spans.slice(1)) {
    if (s <= to + 1) to = Math.max(to, e);
    else {
      total += to - from + 1;
      [from, to] = [s, e];
    }
  }
  return total + to - from + 1;
}

/**
 * Whole years in roles whose title or bullets mention the skill (the profile's dated evidence; the
 * skills list alone says nothing about how long). Undefined when no dated role mentions it.
 */
export function yearsWithSkill(experience: readonly ApplicantExperience[], skill: string, asOf: string): number | undefined {
  const index = defaultSkillIndex();
  const key = index.keyOf(skill.replace(/[()]/g, ' ').trim());
  const entries = experience.filter((e) => findMentionedSkills([e.title, ...e.bullets].join('\n'), index, [key]).includes(key));
  const months = mergedMonths(entries, asOf);
  return months === undefined ? undefined : Math.floor(months / 12);
}

function currentRole(experience: readonly ApplicantExperience[]): ApplicantExperience | undefined {
  const ongoing = experience.filter((e) => isOngoing(e.end));
  // Two current roles: which one a form means by "current" is a guess.
  return ongoing.length === 1 ? ongoing[0] : undefined;
}

/** The profile fact a label asks for, when it asks for exactly one. */
function fromProfile(q: FormQuestion, label: string, a: Applicant): Found {
  const { contact, experience } = a.profile;
  const fact = (text: string | undefined, what: string): Found => (text && text.trim() ? { text: text.trim(), source: 'profile' } : { unknown: `the profile has no ${what}` });
  const words = contact.name.trim().split(/\s+/).filter(Boolean);
  if (/\b(first|given) name\b|forename/.test(label)) return fact(words.length > 1 ? words[0] : undefined, 'first name (the name is not two or more words)');
  if (/\b(last|family) name\b|surname/.test(label)) return fact(words.length > 1 ? words.slice(1).join(' ') : undefined, 'last name (the name is not two or more words)');
  if (/^(your )?(full |legal |full legal )?name$/.test(label)) return fact(contact.name, 'name');
  if (q.type === 'email' || /\be-?mail\b/.test(label)) return fact(contact.email, 'email');
  if (q.type === 'tel' || /\b(phone|mobile|telephone)\b/.test(label)) return fact(contact.phone, 'phone number');
  if (/linkedin/.test(label)) return fact(linkOn(contact.links ?? [], LINK_HOSTS.linkedin), 'LinkedIn link');
  if (/github/.test(label)) return fact(linkOn(contact.links ?? [], LINK_HOSTS.github), 'GitHub link');
  if (/\b(website|portfolio|personal (site|url|page)|blog)\b/.test(label)) {
    const other = (contact.links ?? []).find((l) => !LINK_HOSTS.linkedin.test(hostOf(l) ?? '') && !LINK_HOSTS.github.test(hostOf(l) ?? ''));
    return fact(other, 'website link');
  }
  if (/^(current )?(location|city)( \(city\))?$|where are you (currently )?(based|located)|^current (city|location)/.test(label)) return fact(contact.location, 'location');
  if (/current (job )?(title|role|position)/.test(label)) return fact(currentRole(experience)?.title, 'single current role');
  if (/current (company|employer|organi[sz]ation)/.test(label)) return fact(currentRole(experience)?.employer, 'single current role');
  const skill = /years of (?:professional |relevant |hands-on |work )?experience (?:do you have |have you had )?(?:with|in|using|of|working with) (.+)$/.exec(label);
  if (skill) {
    const years = yearsWithSkill(experience, skill[1], a.asOf);
    const index = defaultSkillIndex();
    const name = index.displayOf(index.keyOf(skill[1])) ?? skill[1];
    return years === undefined ? { unknown: `no dated role in the profile mentions ${name}` } : { text: String(years), source: 'profile' };
  }
  if (/^(how many )?(total )?years of (professional |relevant |work )?experience( do you have)?$/.test(label)) {
    const months = mergedMonths(experience, a.asOf);
    return months === undefined ? { unknown: 'the profile has no dated experience' } : { text: String(Math.floor(months / 12)), source: 'profile' };
  }
  return null;
}

function fromDocuments(q: FormQuestion, label: string, a: Applicant): Found {
  if (q.type === 'file') {
    if (/cover/.test(label)) return a.coverLetterPdfPath ? { text: a.coverLetterPdfPath, source: 'cover_letter' } : { unknown: 'no cover letter PDF' };
    if (/resume|résumé|\bcv\b|curriculum/.test(label)) return a.resumePdfPath ? { text: a.resumePdfPath, source: 'resume' } : { unknown: 'no resume PDF' };
    return null;
  }
  // Lever's letter field is a text area labelled "Additional information".
  if (q.type === 'textarea' && /cover letter|^additional information/.test(label)) {
    return a.coverLetterText?.trim() ? { text: a.coverLetterText.trim(), source: 'cover_letter' } : { unknown: 'no cover letter text' };
  }
  return null;
}

function savedAnswer(q: FormQuestion, a: Applicant): string | undefined {
  if (Object.prototype.hasOwnProperty.call(a.savedAnswers, q.key)) return a.savedAnswers[q.key];
  const label = normaliseLabel(q.label);
  const entry = Object.entries(a.savedAnswers).find(([k]) => normaliseLabel(k) === label);
  return entry?.[1];
}

/** A numeric answer's range option ("1-3 years", "5+", "Less than 1 year", "10 or more"). */
function rangeContains(optionLabel: string, n: number): boolean {
  const text = optionLabel.toLowerCase();
  let m = /(\d+)\s*(?:-|–|—|to)\s*(\d+)/.exec(text);
  if (m) return n >= Number(m[1]) && n <= Number(m[2]);
  if ((m = /(\d+)\s*\+|(\d+)\s*(?:years?\s*)?or more|more than\s*(\d+)|over\s*(\d+)/.exec(text))) {
    const bound = Number(m[1] ?? m[2] ?? m[3] ?? m[4]);
    return m[3] !== undefined || m[4] !== undefined ? n > bound : n >= bound;
  }
  if ((m = /(?:less than|under|fewer than|<)\s*(\d+)/.exec(text))) return n < Number(m[1]);
  if ((m = /^(\d+)(\s*years?)?$/.exec(text.trim()))) return n === Number(m[1]);
  return false;
}

const YES = /^(y|yes|true|1|checked|agree|i agree|on)$/;
const NO = /^(n|no|false|0|unchecked|off)$/;

/** The choice an answer names: its label or value, yes/no spelled differently, or the range holding a number. */
function matchChoice(choices: readonly QuestionChoice[], answer: string): QuestionChoice | undefined {
  const wanted = normaliseLabel(answer);
  const exact = choices.find((c) => normaliseLabel(c.label) === wanted) ?? choices.find((c) => normaliseLabel(c.value) === wanted);
  if (exact) return exact;
  if (YES.test(wanted)) return only(choices.filter((c) => /^yes\b/.test(normaliseLabel(c.label))));
  if (NO.test(wanted)) return only(choices.filter((c) => /^no\b/.test(normaliseLabel(c.label))));
  if (/^\d+$/.test(wanted)) return only(choices.filter((c) => rangeContains(c.label, Number(wanted))));
  return undefined;
}

function only<T>(items: T[]): T | undefined {
  return items.length === 1 ? items[0] : undefined;
}

/** Turns a text answer into the value the control takes, or says why it cannot. */
function valueFor(q: FormQuestion, text: string): { value: FillValue; display: string } | { unknown: string } {
  switch (q.type) {
    case 'file':
      return { value: { kind: 'file', path: text }, display: text };
    case 'select':
    case 'radio': {
      const choice = matchChoice(q.choices ?? [], text);
      return choice ? { value: { kind: 'choice', choices: [choice] }, display: choice.label } : { unknown: `"${text}" matches none of: ${(q.options ?? []).join(' | ')}` };
    }
    case 'checkbox': {
      if (q.choices && q.choices.length > 1) {
        const picked = text.split(/[;,\n]/).map((part) => part.trim()).filter(Boolean).map((part) => matchChoice(q.choices ?? [], part));
        if (picked.length === 0 || picked.some((c) => !c)) return { unknown: `"${text}" does not name only choices of: ${(q.options ?? []).join(' | ')}` };
        const chosen = picked as QuestionChoice[];
        return { value: { kind: 'choice', choices: chosen }, display: chosen.map((c) => c.label).join(', ') };
      }
      const word = normaliseLabel(text);
      if (YES.test(word)) return { value: { kind: 'check', checked: true }, display: 'yes' };
      if (NO.test(word)) return { value: { kind: 'check', checked: false }, display: 'no' };
      return { unknown: `"${text}" is neither yes nor no` };
    }
    default:
      return { value: { kind: 'text', text }, display: text };
  }
}

/**
 * Plans every question of the form. Pure: the same form, profile, answers and documents give the
 * same plan, so a dry run shows exactly what a live apply would send.
 */
export function planAnswers(form: ApplicationForm, applicant: Applicant): AnswerPlan {
  const fills: FormFill[] = [];
  const unknownRequired: UnansweredQuestion[] = [];
  const unknownOptional: UnansweredQuestion[] = [];
  for (const q of form.questions) {
    const label = normaliseLabel(q.label);
    const saved = savedAnswer(q, applicant);
    let found: Found;
    if (saved !== undefined && saved.trim() !== '') found = { text: saved.trim(), source: 'saved_answer' };
    else if (SAVED_ONLY.test(label)) found = { unknown: 'answered only from saved answers' };
    else found = fromDocuments(q, label, applicant) ?? fromProfile(q, label, applicant) ?? { unknown: 'nothing in the profile answers it' };
    const planned = found && 'text' in found ? valueFor(q, found.text) : found;
    if (planned && 'value' in planned && found && 'source' in found) {
      fills.push({ question: q, value: planned.value, source: found.source, display: planned.display });
      continue;
    }
    const unanswered = { ...q, reason: planned && 'unknown' in planned ? planned.unknown : 'unknown' };
    (q.required ? unknownRequired : unknownOptional).push(unanswered);
  }
  return { formIndex: form.formIndex, fills, unknownRequired, unknownOptional };
}

/** The question as the application record and `needs_user_input` list it (no selectors). */
export function questionSummary(q: FormQuestion): { key: string; label: string; type: string; required: boolean; options?: string[] } {
  return { key: q.key, label: q.label, type: q.type, required: q.required, ...(q.options ? { options: q.options } : {}) };
}
