import { canonicalProfileContent, sameProfileContent } from './profile-content.rules';
import { sampleProfile } from './testing/profile.fixture';

describe('profile content', () => {
  it('is the same after key reordering, surrounding whitespace and null-vs-absent optional fields', () => {
    const a = sampleProfile();
    const reordered = JSON.parse(JSON.stringify({ preferences: a.preferences, skills: a.skills, summary: `  ${a.summary}\n`, experience: a.experience, education: a.education, contact: a.contact }));
    reordered.experience[0] = { ...reordered.experience[0], end: reordered.experience[0].end ?? null };
    expect(sameProfileContent(a, reordered)).toBe(true);
    expect(canonicalProfileContent(a)).toBe(canonicalProfileContent(reordered));
  });

  it('differs when a fact changes, including the order of skills or bullets', () => {
    const a = sampleProfile();
    expect(sameProfileContent(a, { ...a, skills: [...a.skills, 'Terraform'] })).toBe(false);
    expect(sameProfileContent(a, { ...a, skills: [...a.skills].reverse() })).toBe(false);
    const moved = { ...a, experience: [{ ...a.experience[0], end: '2020-01' }, ...a.experience.slice(1)] };
    expect(sameProfileContent(a, moved)).toBe(false);
  });
});
