import { emptyProfile } from '@jobctrl/shared/profile';
import { sampleProfile, samplePosting } from '@jobctrl/shared/profile/testing';
import { MAX_BULLETS_PER_ENTRY, tailorResumeExtractive } from './extractive-tailor.rules';
import { checkNoNewFacts } from './no-new-facts.checker';

describe('tailorResumeExtractive', () => {
  const profile = sampleProfile();
  const resume = tailorResumeExtractive(profile, samplePosting());

  it('never emits text that is not in the profile', () => {
    const bullets = new Set(profile.experience.flatMap((e) => e.bullets));
    for (const entry of resume.experience) for (const bullet of entry.bullets) expect(bullets).toContain(bullet);
    expect(new Set(profile.skills)).toEqual(new Set(resume.skills));
    expect(resume.summary).toBe(profile.summary);
    expect(resume.education).toEqual(profile.education);
    for (const entry of resume.experience) {
      expect(profile.experience).toContainEqual(expect.objectContaining({ employer: entry.employer, title: entry.title, start: entry.start, end: entry.end }));
    }
    expect(checkNoNewFacts(profile, resume)).toEqual({ passed: true, violations: [] });
  });

  it('holds for other postings too (every bullet is a profile bullet, provenance points at it)', () => {
    const postings = [
      samplePosting(),
      { title: 'Frontend Developer', company: 'Hooli', description: 'React, GraphQL and TypeScript. Billing experience welcome.' },
      { title: 'Data Engineer', company: 'Hooli', description: 'Python, SQL, Airflow', requirements: ['Python', 'SQL reporting'] },
      { title: 'Chef', company: 'Hooli', description: 'Cooking.' },
    ];
    for (const posting of postings) {
      const tailored = tailorResumeExtractive(profile, posting);
      tailored.experience.forEach((entry, i) =>
        entry.bullets.forEach((bullet, j) => {
          const { experienceIndex, bulletIndex } = tailored.provenance[i][j];
          expect(profile.experience[experienceIndex].bullets[bulletIndex]).toBe(bullet);
          expect(profile.experience[experienceIndex].employer).toBe(entry.employer);
        }),
      );
      expect(checkNoNewFacts(profile, tailored).passed).toBe(true);
    }
  });

  it('keeps every entry, most recent first, with at most five bullets each', () => {
    expect(resume.experience.map((e) => e.employer)).toEqual(['Globex', 'Acme Corporation', 'Northwind Traders']);
    expect(resume.experience.map((e) => e.bullets.length)).toEqual([MAX_BULLETS_PER_ENTRY, 4, 2]);
    expect(resume).toMatchObject({ method: 'extractive', version: 'tailor-extractive-v1' });
  });

  it('orders bullets by relevance to the posting, keeping profile order on ties', () => {
    expect(resume.provenance[0].map((p) => p.bulletIndex)).toEqual([5, 1, 2, 4, 3]);
    expect(resume.experience[0].bullets[0]).toBe('Introduced Terraform for all AWS infrastructure, replacing manual console changes.');
    // The two least relevant Globex bullets (hackathon, runbook) are the ones dropped.
    expect(resume.experience[0].bullets.join(' ')).not.toMatch(/hackathon|runbook/);
    // Acme: TypeScript and AWS bullets (one job skill each) before the two without job terms, in profile order.
    expect(resume.provenance[1].map((p) => p.bulletIndex)).toEqual([1, 2, 0, 3]);
    const frontend = tailorResumeExtractive(profile, { title: 'Frontend Engineer', company: 'Hooli', description: 'React and GraphQL' });
    expect(frontend.experience[1].bullets.slice(0, 2)).toEqual([
      'Maintained the React front end of the billing portal.',
      'Built GraphQL APIs in TypeScript and Node.js serving the customer dashboard.',
    ]);
  });

  it('puts the skills the posting mentions first, in profile order, as the profile spells them', () => {
    expect(resume.skills).toEqual(['TypeScript', 'PostgreSQL', 'k8s', 'Terraform', 'Kafka', 'AWS', 'Node.js', 'golang', 'GraphQL', 'React', 'Python', 'Event sourcing']);
  });

  it('is deterministic and copes with an empty profile', () => {
    expect(tailorResumeExtractive(profile, samplePosting())).toEqual(resume);
    expect(tailorResumeExtractive(emptyProfile(), samplePosting())).toMatchObject({ summary: '', skills: [], experience: [], education: [], provenance: [] });
  });
});
