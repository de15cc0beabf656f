import { jobTerms, profileSkillsInJob, rankProfileBullets, relevanceOf, stemWord } from './job-relevance.rules';
import { sampleProfile, samplePosting } from './testing/profile.fixture';

describe('job relevance', () => {
  const profile = sampleProfile();
  const terms = jobTerms(samplePosting(), profile.skills);

  it('scores 2 per shared job skill plus 1 per shared title word', () => {
    const relevance = relevanceOf('Introduced Terraform for all AWS infrastructure, replacing manual console changes.', terms);
    expect(relevance).toEqual({ score: 4, skills: ['terraform', 'aws'], titleWords: [] });
    expect(relevanceOf('Mentored 4 engineers through promotion to senior roles.', terms)).toEqual({ score: 1, skills: [], titleWords: ['engineer'] });
    expect(relevanceOf('Organised the quarterly hackathon.', terms).score).toBe(0);
  });

  it('lists the profile skills the posting mentions, as the profile spells them', () => {
    expect(profileSkillsInJob(profile.skills, terms)).toEqual(['TypeScript', 'PostgreSQL', 'k8s', 'Terraform', 'Kafka', 'AWS']);
  });

  it('ranks bullets by relevance, then recency, then bullet order', () => {
    const ranked = rankProfileBullets(profile, samplePosting());
    const order = ranked.map((b) => [b.relevance.score, b.experienceIndex, b.bulletIndex]);
    expect(order).toEqual([
      [4, 1, 5], // Terraform + AWS
      [2, 1, 1], [2, 1, 2], [2, 1, 4], // one job skill each, current role first
      [2, 0, 1], [2, 0, 2],
      [1, 1, 3], // "engineers" ~ "Engineer"
      [0, 1, 0], [0, 1, 6], [0, 0, 0], [0, 0, 3], [0, 2, 0], [0, 2, 1],
    ]);
    expect(ranked[0].text).toBe(profile.experience[1].bullets[5]);
  });

  it('folds plurals', () => {
    expect(['engineers', 'technologies', 'class', 'ops', 'services'].map(stemWord)).toEqual(['engineer', 'technology', 'class', 'ops', 'service']);
  });
});
