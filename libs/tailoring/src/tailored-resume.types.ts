import type { ProfileEducation, ProfileExperience } from '@jobctrl/shared/profile';

/**
 * A resume tailored to one posting. Whatever produced it (extractive selection or a model rewrite),
 * it may only contain facts from the profile: `checkNoNewFacts` is the gate, and `provenance` ties
 * every bullet back to the profile bullet it came from so a reader can audit the tailoring.
 */
export interface TailoringJob {
  title: string;
  company: string;
  description: string;
  requirements?: string[];
}

/**
 * A resume entry: the profile entry's fields (`end` null or absent = current role, as in the
 * profile), listed so that a field added to the profile does not reach resumes unasked.
 */
export type TailoredExperience = Pick<ProfileExperience, 'employer' | 'title' | 'start' | 'end' | 'location' | 'bullets'>;

/** Where a resume bullet came from: `profile.experience[experienceIndex].bullets[bulletIndex]`. */
export interface BulletSource {
  experienceIndex: number;
  bulletIndex: number;
}

export type TailoringMethod = 'extractive' | 'model';

export const EXTRACTIVE_TAILOR_VERSION = 'tailor-extractive-v1';
export const MODEL_TAILOR_VERSION = 'tailor-model-v1';

export interface TailoredResume {
  summary: string;
  skills: string[];
  experience: TailoredExperience[];
  education: ProfileEducation[];
  /**
   * provenance[i][j] is the source of experience[i].bullets[j]. Extractive bullets are copies of
   * their source; model bullets are traced to the profile bullet of the same entry they overlap most.
   */
  provenance: BulletSource[][];
  method: TailoringMethod;
  version: string;
}
