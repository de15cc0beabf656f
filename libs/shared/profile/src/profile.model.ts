/**
 * The user's profile: the only source of facts that tailoring, cover letters and reviews may use.
 * HTTP JSON is camelCase (ARCHITECTURE §4). Dates are `YYYY-MM` (or `YYYY`) strings as the user
 * writes them on a resume; `end: null` means "present".
 */
export interface ProfileContact {
  name: string;
  email: string;
  phone?: string;
  location?: string;
  links?: string[];
}

export interface ProfileExperience {
  employer: string;
  title: string;
  start: string;
  end?: string | null;
  location?: string;
  bullets: string[];
}

export interface ProfileEducation {
  school: string;
  degree?: string;
  field?: string;
  start?: string;
  end?: string | null;
}

export interface ProfilePreferences {
  titles: string[];
  locations: string[];
  /** true: wants remote; false: prefers on-site; absent: no preference. */
  remote?: boolean;
  minimumSalary?: number;
  /** ISO 4217 code for minimumSalary; USD when absent. */
  salaryCurrency?: string;
}

export interface Profile {
  contact: ProfileContact;
  summary: string;
  skills: string[];
  experience: ProfileExperience[];
  education: ProfileEducation[];
  preferences: ProfilePreferences;
}

/** A stored profile: the document plus its revision (bumped by every PUT) and update time. */
export interface StoredProfile {
  profile: Profile;
  revision: number;
  updatedAt: string;
}

/** The profile a fresh install has: nothing claimed, so extractive scoring scores 0 and nothing is tailored. */
export function emptyProfile(): Profile {
  return {
    contact: { name: '', email: '' },
    summary: '',
    skills: [],
    experience: [],
    education: [],
    preferences: { titles: [], locations: [] },
  };
}
