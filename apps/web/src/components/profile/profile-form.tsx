// The profile form: contact, summary, skills, the experience and education lists (add/remove) and
// the preferences. Each control is labelled and carries the API's 400 errors for its own path
// (`contact.email`, `experience.0.start`, `preferences.salaryCurrency`).
import type { FormEvent } from 'react';
import type { ApiError } from '../../api/http';
import { FormField } from '../form-field';
import { emptyEducation, emptyExperience, type EducationDraft, type ExperienceDraft, type ProfileDraft } from './profile-draft';

type Set = (change: Partial<ProfileDraft>) => void;

interface ItemField<T> {
  name: keyof T & string;
  label: string;
  hint?: string;
  multiline?: boolean;
}

/** An editable list (roles, schools): one fieldset per item with its fields, Remove on each, Add below. */
function ItemList<T extends { key: string }>(props: {
  title: string;
  noun: string;
  /** The API's path of the list (`experience`): item i's field f is `experience.i.f`. */
  path: string;
  items: T[];
  fields: ItemField<T>[];
  make: () => T;
  /** A few words naming an item in its legend (the role's title, the school). */
  nameOf: (item: T) => string;
  error: ApiError | null;
  set: (items: T[]) => void;
}) {
  const { items, set } = props;
  const change = (key: string, field: keyof T, value: string) => set(items.map((item) => (item.key === key ? { ...item, [field]: value } : item)));
  return (
    <section aria-labelledby={`${props.path}-title`}>
      <h2 id={`${props.path}-title`}>{props.title}</h2>
      {items.length === 0 && <p className="muted">No {props.title.toLowerCase()} yet.</p>}
      {items.map((item, i) => {
        const legend = `${props.noun} ${i + 1}${props.nameOf(item) ? `: ${props.nameOf(item)}` : ''}`;
        return (
          <fieldset key={item.key} className="list-item form-row">
            <legend>{legend}</legend>
            {props.fields.map((f) => (
              <FormField key={f.name} label={f.label} field={`${props.path}.${i}.${f.name}`} error={props.error} hint={f.hint}>
                {f.multiline ? (
                  <textarea rows={3} cols={60} value={String(item[f.name])} onChange={(e) => change(item.key, f.name, e.target.value)} />
                ) : (
                  <input value={String(item[f.name])} onChange={(e) => change(item.key, f.name, e.target.value)} />
                )}
              </FormField>
            ))}
            <button type="button" className="secondary" onClick={() => set(items.filter((x) => x.key !== item.key))} aria-label={`Remove ${legend}`}>
              Remove
            </button>
          </fieldset>
        );
      })}
      <button type="button" className="secondary" onClick={() => set([...items, props.make()])}>
        Add {props.noun.toLowerCase()}
      </button>
    </section>
  );
}

const DATE_HINT = 'YYYY or YYYY-MM';
const EXPERIENCE_FIELDS: ItemField<ExperienceDraft>[] = [
  { name: 'title', label: 'Title' },
  { name: 'employer', label: 'Employer' },
  { name: 'start', label: 'Start', hint: DATE_HINT },
  { name: 'end', label: 'End', hint: 'empty while current' },
  { name: 'location', label: 'Location' },
  { name: 'bullets', label: 'Achievements (one per line)', multiline: true },
];
const EDUCATION_FIELDS: ItemField<EducationDraft>[] = [
  { name: 'school', label: 'School' },
  { name: 'degree', label: 'Degree' },
  { name: 'field', label: 'Field of study' },
  { name: 'start', label: 'Start', hint: DATE_HINT },
  { name: 'end', label: 'End', hint: DATE_HINT },
];

export function ProfileForm({ draft, set, error, saving, onSubmit }: { draft: ProfileDraft; set: Set; error: ApiError | null; saving: boolean; onSubmit: () => void }) {
  const input = (key: 'name' | 'email' | 'phone' | 'location', label: string, field: string, type = 'text') => (
    <FormField label={label} field={field} error={error}>
      <input type={type} value={draft[key]} onChange={(e) => set({ [key]: e.target.value })} />
    </FormField>
  );
  const submit = (e: FormEvent) => {
    e.preventDefault();
    onSubmit();
  };
  return (
    <form className="profile-form" onSubmit={submit} aria-label="Profile" noValidate>
      <section className="panel" aria-labelledby="contact-title">
        <h2 id="contact-title">Contact</h2>
        <div className="form-row">
          {input('name', 'Name', 'contact.name')}
          {input('email', 'Email', 'contact.email', 'email')}
          {input('phone', 'Phone', 'contact.phone', 'tel')}
          {input('location', 'Location', 'contact.location')}
          <FormField label="Links (one per line)" field="contact.links" error={error}>
            <textarea rows={2} cols={40} value={draft.links} onChange={(e) => set({ links: e.target.value })} />
          </FormField>
        </div>
      </section>
      <section className="panel" aria-labelledby="summary-title">
        <h2 id="summary-title">Summary and skills</h2>
        <FormField label="Summary" field="summary" error={error}>
          <textarea rows={4} cols={80} value={draft.summary} onChange={(e) => set({ summary: e.target.value })} />
        </FormField>
        <FormField label="Skills (comma or line separated)" field="skills" error={error}>
          <textarea rows={2} cols={80} value={draft.skills} onChange={(e) => set({ skills: e.target.value })} />
        </FormField>
      </section>
      <div className="panel">
        <ItemList title="Experience" noun="Role" path="experience" items={draft.experience} fields={EXPERIENCE_FIELDS} make={emptyExperience} nameOf={(e) => e.title} error={error} set={(experience) => set({ experience })} />
      </div>
      <div className="panel">
        <ItemList title="Education" noun="Education" path="education" items={draft.education} fields={EDUCATION_FIELDS} make={emptyEducation} nameOf={(e) => e.school} error={error} set={(education) => set({ education })} />
      </div>
      <section className="panel" aria-labelledby="preferences-title">
        <h2 id="preferences-title">Preferences</h2>
        <div className="form-row">
          <FormField label="Titles wanted (comma separated)" field="preferences.titles" error={error}>
            <input value={draft.titles} onChange={(e) => set({ titles: e.target.value })} />
          </FormField>
          <FormField label="Locations (comma separated)" field="preferences.locations" error={error}>
            <input value={draft.locations} onChange={(e) => set({ locations: e.target.value })} />
          </FormField>
          <FormField label="Remote" field="preferences.remote" error={error}>
            <select value={draft.remote} onChange={(e) => set({ remote: e.target.value as ProfileDraft['remote'] })}>
              <option value="">No preference</option>
              <option value="remote">Wants remote</option>
              <option value="onsite">Prefers on-site</option>
            </select>
          </FormField>
          <FormField label="Minimum salary" field="preferences.minimumSalary" error={error} hint="per year">
            <input inputMode="numeric" value={draft.minimumSalary} onChange={(e) => set({ minimumSalary: e.target.value })} />
          </FormField>
          <FormField label="Salary currency" field="preferences.salaryCurrency" error={error} hint="ISO 4217, USD when empty">
            <input value={draft.salaryCurrency} maxLength={3} size={4} onChange={(e) => set({ salaryCurrency: e.target.value })} />
          </FormField>
        </div>
      </section>
      <button type="submit" disabled={saving}>
        {saving ? 'Saving…' : 'Save profile'}
      </button>
    </form>
  );
}
