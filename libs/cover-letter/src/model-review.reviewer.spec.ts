import { scriptedLlmClient } from '@jobctrl/shared/llm/testing';
import { sampleProfile, samplePosting } from '@jobctrl/shared/profile/testing';
import { composeCoverLetterExtractive } from './extractive-letter.composer';
import { REVIEW_VERDICT_SCHEMA, factualReviewWithModel, parseReviewAnswer, qualityReviewWithModel } from './model-review.reviewer';

const profile = sampleProfile();
const job = samplePosting();
const letter = composeCoverLetterExtractive(profile, job);

describe('factualReviewWithModel', () => {
  it('is still rejected when the model passes a letter naming an unknown employer', async () => {
    const client = scriptedLlmClient([{ passed: true, issues: [] }]);
    const invented = { ...letter, text: letter.text.replace('Before that,', 'I worked at Initech for five years. Before that,') };
    const { verdict, usage } = await factualReviewWithModel(client, profile, invented, job);
    expect(verdict).toEqual({ kind: 'factual', passed: false, issues: ['unsupported employer: Initech'] });
    expect(usage).toHaveLength(1);
    expect(client.requests[0]).toMatchObject({ lane: 'review', schema: REVIEW_VERDICT_SCHEMA });
    expect(client.requests[0].user).toContain('Initech for five years');
  });

  it('passes only when both agree, merging issues without duplicates', async () => {
    const pass = await factualReviewWithModel(scriptedLlmClient([{ passed: true, issues: [] }]), profile, letter, job);
    expect(pass.verdict).toEqual({ kind: 'factual', passed: true, issues: [] });
    const modelReject = await factualReviewWithModel(scriptedLlmClient([{ passed: false, issues: ['unsupported number: 45 services'] }]), profile, letter, job);
    expect(modelReject.verdict).toEqual({ kind: 'factual', passed: false, issues: ['unsupported number: 45 services'] });
    const both = await factualReviewWithModel(
      scriptedLlmClient([{ passed: false, issues: ['Unsupported employer: Initech', 'unsupported title: CTO'] }]),
      profile,
      'I worked at Initech.',
      job,
    );
    expect(both.verdict.issues).toEqual(['unsupported employer: Initech', 'unsupported title: CTO']);
  });

  it('applies the years check with asOf', async () => {
    const { verdict } = await factualReviewWithModel(scriptedLlmClient([{ passed: true, issues: [] }]), profile, `${letter.text} I bring 20 years of experience.`, job, { asOf: '2025-01' });
    expect(verdict.passed).toBe(false);
    expect(verdict.issues).toEqual(['unsupported years of experience: "20 years" (the profile spans 10 years)']);
  });
});

describe('qualityReviewWithModel', () => {
  it("returns the model's verdict on the review lane, advisories included", async () => {
    const client = scriptedLlmClient([{ passed: true, issues: ['could mention observability'] }]);
    const { verdict } = await qualityReviewWithModel(client, letter, job);
    expect(verdict).toEqual({ kind: 'quality', passed: true, issues: ['could mention observability'] });
    expect(client.requests[0].lane).toBe('review');
    expect(client.requests[0].system).toContain('"synergy"');
  });
});

describe('qualityReviewWithModel and board tokens', () => {
  it('fails a letter addressed to a board token even when the model passes it', async () => {
    const client = scriptedLlmClient([{ passed: true, issues: ['could mention observability'] }]);
    const acme = { ...job, company: 'acme' };
    const { verdict } = await qualityReviewWithModel(client, composeCoverLetterExtractive(profile, acme), acme);
    expect(verdict).toEqual({
      kind: 'quality',
      passed: false,
      issues: [`company is a job-board token, not the employer's name: "acme" (set company_name in the source's config)`, 'could mention observability'],
    });
  });
});

describe('parseReviewAnswer', () => {
  it('is strict and names the field', () => {
    expect(() => parseReviewAnswer({ passed: 'yes', issues: [] })).toThrow('passed: must be true or false');
    expect(() => parseReviewAnswer({ issues: [] })).toThrow('passed: is required');
    expect(() => parseReviewAnswer({ passed: false, issues: [] })).toThrow('issues: must list at least one problem when passed is false');
    expect(() => parseReviewAnswer({ passed: true, issues: [1] })).toThrow('issues[0]: must be a non-empty string');
    expect(() => parseReviewAnswer({ passed: true, issues: [], score: 3 })).toThrow(/^score: unexpected property/);
  });
});
