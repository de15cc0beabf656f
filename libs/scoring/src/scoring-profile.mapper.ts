import type { Profile } from '@jobctrl/shared/profile';
import type { ScoringProfile } from './extractive-score.rules';

/**
 * The part of the user's profile the extractive scorer compares: skills, target titles
 * (preferences.titles), preferred locations and the remote preference. Experience and education
 * are deliberately not used: the extractive formula scores the fit to what the user is looking for,
 * and model scoring is what reads the whole history.
 */
export function scoringProfileFrom(profile: Profile): ScoringProfile {
  const result: ScoringProfile = {
    skills: [...profile.skills],
    titles: [...profile.preferences.titles],
    locations: [...profile.preferences.locations],
  };
  if (profile.preferences.remote !== undefined) result.remote = profile.preferences.remote;
  if (profile.preferences.minimumSalary !== undefined) {
    result.minimumSalary = profile.preferences.minimumSalary;
    // The profile's documented default: a minimum without a currency is in USD.
    result.salaryCurrency = profile.preferences.salaryCurrency ?? 'USD';
  }
  return result;
}
