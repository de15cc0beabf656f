// The profile as the form edits it (text in every field, list items with a stable key for React) and
// the conversions to and from the API's document. Blank optional fields are left out rather than
// sent as "" so the API's rules (YYYY-MM dates, ISO currency) only judge what the user wrote.
import type { Schemas } from '../../api/client';

type Profile = Schemas['ProfileDocument'];
type ProfileBody = Schemas['ProfileDto'];

export interface ExperienceDraft {
  key: string;
  employer: string;
  title: string;
  start: string;
  end: string;
  location: string;
  bullets: string;
}

export interface EducationDraft {
  key: string;
  school: string;
  degree: string;
  field: string;
  start: string;
  end: string;
}

export interface ProfileDraft {
  name: string;
  email: string;
  phone: string;
  location: string;
  links: string;
  summary: string;
  skills: string;
  experience: ExperienceDraft[];
  education: EducationDraft[];
  titles: string;
  locations: string;
  /** '' no preference, 'remote', 'onsite'. */
  remote: '' | 'remote' | 'onsite';
  minimumSalary: string;
  salaryCurrency: string;
}

let nextKey = 0;
export const newKey = () => `item-${++nextKey}`;

export const emptyExperience = (): ExperienceDraft => ({ key: newKey(), employer: '', title: '', start: '', end: '', location: '', bullets: '' });
export const emptyEducation = (): EducationDraft => ({ key: newKey(), school: '', degree: '', field: '', start: '', end: '' });

const lines = (text: string) =>
  text
    .split('\n')
    .map((s) => s.trim())
    .filter(Boolean);
/** Skills, titles and locations: one per line or separated by commas. */
const items = (text: string) =>
  text
    .split(/[\n,]/)
    .map((s) => s.trim())
    .filter(Boolean);

export function toDraft(p: Profile): ProfileDraft {
  return {
    name: p.contact.name,
    email: p.contact.email,
    phone: p.contact.phone ?? '',
    location: p.contact.location ?? '',
    links: (p.contact.links ?? []).join('\n'),
    summary: p.summary,
    skills: p.skills.join(', '),
    experience: p.experience.map((e) => ({ key: newKey(), employer: e.employer, title: e.title, start: e.start, end: e.end ?? '', location: e.location ?? '', bullets: e.bullets.join('\n') })),
    education: p.education.map((e) => ({ key: newKey(), school: e.school, degree: e.degree ?? '', field: e.field ?? '', start: e.start ?? '', end: e.end ?? '' })),
    titles: p.preferences.titles.join(', '),
    locations: p.preferences.locations.join(', '),
    remote: p.preferences.remote === true ? 'remote' : p.preferences.remote === false ? 'onsite' : '',
    minimumSalary: p.preferences.minimumSalary === undefined ? '' : String(p.preferences.minimumSalary),
    salaryCurrency: p.preferences.salaryCurrency ?? '',
  };
}

/** `{k: v}` for the set values only. */
function optional<T extends Record<string, string>>(fields: T): Partial<T> {
  return Object.fromEntries(Object.entries(fields).filter(([, v]) => v.trim() !== '').map(([k, v]) => [k, v.trim()])) as Partial<T>;
}

export type DraftResult = { body: ProfileBody; errors: Array<{ field: string; value: unknown; rule: string }> };

/** The PUT /v1/profile body; `errors` holds what cannot be sent at all (a salary that is not a whole number). */
export function fromDraft(d: ProfileDraft): DraftResult {
  const errors: DraftResult['errors'] = [];
  const salary = d.minimumSalary.trim().replace(/[\s_,]/g, '');
  if (salary && !/^\d+$/.test(salary)) errors.push({ field: 'preferences.minimumSalary', value: d.minimumSalary, rule: 'must be a whole number' });
  const body: ProfileBody = {
    contact: { name: d.name.trim(), email: d.email.trim(), ...optional({ phone: d.phone, location: d.location }), ...(lines(d.links).length ? { links: lines(d.links) } : {}) },
    summary: d.summary.trim(),
    skills: items(d.skills),
    experience: d.experience.map((e) => ({
      employer: e.employer.trim(),
      title: e.title.trim(),
      start: e.start.trim(),
      ...optional({ end: e.end, location: e.location }),
      bullets: lines(e.bullets),
    })),
    education: d.education.map((e) => ({ school: e.school.trim(), ...optional({ degree: e.degree, field: e.field, start: e.start, end: e.end }) })),
    preferences: {
      titles: items(d.titles),
      locations: items(d.locations),
      ...(d.remote ? { remote: d.remote === 'remote' } : {}),
      ...(salary && /^\d+$/.test(salary) ? { minimumSalary: Number(salary) } : {}),
      ...optional({ salaryCurrency: d.salaryCurrency.toUpperCase() }),
    },
  };
  return { body, errors };
}
