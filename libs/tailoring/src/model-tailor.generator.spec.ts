import { scriptedLlmClient } from '@jobctrl/shared/llm/testing';
import { sampleProfile, samplePosting } from '@jobctrl/shared/profile/testing';
import { tailorResumeExtractive } from './extractive-tailor.rules';
import { TAILORED_RESUME_SCHEMA, parseTailoredResumeAnswer, tailorResumeWithModel, type TailoredResumeAnswer } from './model-tailor.generator';

const profile = sampleProfile();
const job = samplePosting();
const [acme, globex] = profile.experience;

/** A faithful rewrite of the sample profile, in the model's answer shape. */
function faithfulAnswer(): Record<string, unknown> {
  return {
    summary: 'Backend engineer with a decade of platform work in TypeScript and Go, most recently leading the platform team at Globex.',
    skills: ['Terraform', 'k8s', 'Kafka', 'AWS', 'PostgreSQL', 'TypeScript'],
    experience: [
      {
        ...globex,
        bullets: [
          'Introduced Terraform across all AWS infrastructure, replacing manual console changes.',
          'Led the migration of 40 services from a monolith to Kubernetes, cutting deploy time from 2 hours to 15 minutes.',
          'Designed a Kafka event sourcing pipeline processing 3 million payment events per day.',
        ],
      },
      { ...acme, location: null, bullets: ['Reduced AWS spend by $120k a year by rightsizing EC2 fleets.'] },
    ],
    education: [{ school: 'University of Waterloo', degree: 'BASc', field: 'Computer Engineering', start: null, end: null }],
  };
}

function withInventedNumber(): Record<string, unknown> {
  const answer = faithfulAnswer() as { experience: Array<{ bullets: string[] }> };
  answer.experience[0].bullets[1] = 'Led the migration of 120 services from a monolith to Kubernetes, cutting deploy time by 95%.';
  return answer;
}

describe('tailorResumeWithModel', () => {
  it('returns a checked model resume with traced provenance on the tailor lane', async () => {
    const client = scriptedLlmClient([faithfulAnswer()]);
    const result = await tailorResumeWithModel(client, profile, job);
    expect(result.fallback).toBeUndefined();
    expect(result.usage).toHaveLength(1);
    expect(result.resume).toMatchObject({ method: 'model', version: 'tailor-model-v1' });
    expect(result.resume.provenance[0]).toEqual([
      { experienceIndex: 1, bulletIndex: 5 },
      { experienceIndex: 1, bulletIndex: 1 },
      { experienceIndex: 1, bulletIndex: 2 },
    ]);
    expect(result.resume.experience[1].location).toBeUndefined();
    const request = client.requests[0];
    expect(request.lane).toBe('tailor');
    expect(request.schema).toBe(TAILORED_RESUME_SCHEMA);
    expect(request.system).toMatch(/only use facts stated in the candidate profile/);
    expect(request.user).toContain('"company": "Lumen Payments"');
    expect(request.user).toContain(JSON.stringify(profile.experience[1].bullets[1]));
    expect(request.user).not.toContain(profile.contact.email);
  });

  it('asks once more with the violations listed, and accepts a corrected answer', async () => {
    const client = scriptedLlmClient([withInventedNumber(), faithfulAnswer()]);
    const result = await tailorResumeWithModel(client, profile, job);
    expect(result.fallback).toBeUndefined();
    expect(result.resume.method).toBe('model');
    expect(result.usage).toHaveLength(2);
    const retry = client.requests[1].user;
    expect(retry).toContain('- experience[0].bullets[1]: number "120" does not appear in the profile\'s bullets for Globex');
    expect(retry).toContain('- experience[0].bullets[1]: number "95%" does not appear');
    expect(retry).toContain('Your previous answer:');
  });

  it('falls back to the extractive resume after two violating answers, never returning the model resume', async () => {
    const client = scriptedLlmClient([withInventedNumber(), { ...faithfulAnswer(), skills: ['Rust'] }]);
    const result = await tailorResumeWithModel(client, profile, job);
    expect(client.requests).toHaveLength(2);
    expect(result.fallback).toBe('no_new_facts_violation');
    expect(result.violations).toEqual(['skills[0]: "Rust" is not a skill in the profile']);
    expect(result.resume).toEqual(tailorResumeExtractive(profile, job));
    expect(result.usage).toHaveLength(2);
  });

  it('propagates client errors instead of guessing', async () => {
    const client = scriptedLlmClient([{ ...faithfulAnswer(), skills: 'TypeScript' }]);
    await expect(tailorResumeWithModel(client, profile, job)).rejects.toThrow('skills: must be an array');
  });
});

describe('parseTailoredResumeAnswer', () => {
  it('normalises nulls to absent optional fields and keeps a null end as "current role"', () => {
    const parsed: TailoredResumeAnswer = parseTailoredResumeAnswer(faithfulAnswer());
    expect(parsed.experience[0].end).toBeNull();
    expect(parsed.education).toEqual([{ school: 'University of Waterloo', degree: 'BASc', field: 'Computer Engineering' }]);
  });

  it('names the offending field', () => {
    const answer = faithfulAnswer() as { experience: Array<Record<string, unknown>> };
    answer.experience[1].bullets = ['ok', ''];
    expect(() => parseTailoredResumeAnswer(answer)).toThrow('experience[1].bullets[1]: must be a non-empty string');
    expect(() => parseTailoredResumeAnswer({ ...faithfulAnswer(), summary: undefined })).toThrow('summary: is required');
    expect(() => parseTailoredResumeAnswer({ ...faithfulAnswer(), extra: 1 })).toThrow(/^extra: unexpected property/);
    const badEntry = faithfulAnswer() as { experience: Array<Record<string, unknown>> };
    badEntry.experience[0].employer = 42;
    expect(() => parseTailoredResumeAnswer(badEntry)).toThrow('experience[0].employer: must be a non-empty string');
    expect(() => parseTailoredResumeAnswer('resume')).toThrow('answer: must be a JSON object');
  });
});
