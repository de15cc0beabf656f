import { emptyProfile } from '@jobctrl/shared/profile';
import { sampleProfile, samplePosting } from '@jobctrl/shared/profile/testing';
import { scoreJobExtractive } from './extractive-score.rules';
import { scoringProfileFrom } from './scoring-profile.mapper';

describe('scoringProfileFrom', () => {
  it('takes skills, target titles, locations, the remote preference and the minimum salary', () => {
    expect(scoringProfileFrom(sampleProfile())).toEqual({
      skills: sampleProfile().skills,
      titles: ['Backend Engineer', 'Platform Engineer'],
      locations: ['Toronto, Canada'],
      remote: true,
      minimumSalary: 150000,
      salaryCurrency: 'CAD',
    });
    const noCurrency = sampleProfile();
    delete noCurrency.preferences.salaryCurrency;
    expect(scoringProfileFrom(noCurrency)).toMatchObject({ minimumSalary: 150000, salaryCurrency: 'USD' });
  });

  it('leaves remote out when the profile states no preference, and copies arrays', () => {
    const profile = emptyProfile();
    const mapped = scoringProfileFrom(profile);
    expect(mapped).toEqual({ skills: [], titles: [], locations: [] });
    expect('remote' in mapped).toBe(false);
    mapped.skills.push('SQL');
    expect(profile.skills).toEqual([]);
  });

  it('feeds the extractive scorer: the sample profile fits the sample posting', () => {
    const posting = samplePosting();
    const result = scoreJobExtractive(scoringProfileFrom(sampleProfile()), posting);
    expect(result.matched).toEqual(expect.arrayContaining(['Kubernetes', 'AWS', 'Terraform', 'Kafka', 'PostgreSQL', 'TypeScript']));
    expect(result.missing).toEqual(['Rust']);
    expect(result.components.title).toBe(1);
    expect(result.score).toBeGreaterThanOrEqual(80);
  });
});
