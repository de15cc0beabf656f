import { scriptedLlmClient } from '@jobctrl/shared/llm/testing';
import { sampleProfile, samplePosting } from '@jobctrl/shared/profile/testing';
import { MAX_DESCRIPTION_CHARS, MODEL_SCORE_SCHEMA, parseModelScoreAnswer, scoreJobWithModel } from './model-score';

const answer = { score: 82, rationale: 'Strong platform background.', matched: ['Kubernetes', 'Terraform'], missing: ['Rust'] };

describe('parseModelScoreAnswer', () => {
  it('accepts a well-formed answer and trims strings', () => {
    expect(parseModelScoreAnswer({ ...answer, rationale: '  Strong platform background. ' })).toEqual(answer);
  });

  it('rejects an out-of-range or non-integer score, naming the field', () => {
    expect(() => parseModelScoreAnswer({ ...answer, score: 101 })).toThrow(/^score: must be an integer from 0 to 100 \(got 101\)$/);
    expect(() => parseModelScoreAnswer({ ...answer, score: -1 })).toThrow(/^score:/);
    expect(() => parseModelScoreAnswer({ ...answer, score: 72.5 })).toThrow(/^score:/);
    expect(() => parseModelScoreAnswer({ ...answer, score: '80' })).toThrow(/^score:/);
    expect(() => parseModelScoreAnswer({ rationale: 'x', matched: [], missing: [] })).toThrow('score: is required');
  });

  it('rejects a missing or empty rationale, naming the field', () => {
    const { rationale: _omit, ...noRationale } = answer;
    expect(() => parseModelScoreAnswer(noRationale)).toThrow('rationale: is required');
    expect(() => parseModelScoreAnswer({ ...answer, rationale: '   ' })).toThrow('rationale: must be a non-empty string');
  });

  it('rejects malformed lists, unknown properties and non-objects', () => {
    expect(() => parseModelScoreAnswer({ ...answer, matched: 'Kubernetes' })).toThrow('matched: must be an array of strings');
    expect(() => parseModelScoreAnswer({ ...answer, missing: ['Rust', 3] })).toThrow('missing[1]: must be a non-empty string');
    expect(() => parseModelScoreAnswer({ ...answer, confidence: 0.9 })).toThrow(/^confidence: unexpected property/);
    expect(() => parseModelScoreAnswer([answer])).toThrow('answer: must be a JSON object');
    expect(() => parseModelScoreAnswer(null)).toThrow('answer: must be a JSON object');
  });

  it('has a schema that requires every field the parser requires', () => {
    expect(MODEL_SCORE_SCHEMA).toMatchObject({ additionalProperties: false, required: ['score', 'rationale', 'matched', 'missing'] });
  });
});

describe('scoreJobWithModel', () => {
  it('charges the score lane, sends profile and posting without contact details, and stamps model-v1', async () => {
    const client = scriptedLlmClient([answer]);
    const { result, usage } = await scoreJobWithModel(client, sampleProfile(), samplePosting());
    expect(result).toEqual({ ...answer, formulaVersion: 'model-v1' });
    expect(usage).toHaveLength(1);
    const request = client.requests[0];
    expect(request.lane).toBe('score');
    expect(request.schema).toBe(MODEL_SCORE_SCHEMA);
    expect(request.user).toContain('Lumen Payments');
    expect(request.user).toContain('Led the migration of 40 services');
    expect(request.user).not.toContain('dana.whitfield@example.com');
  });

  it('truncates very long descriptions', async () => {
    const client = scriptedLlmClient([answer]);
    await scoreJobWithModel(client, sampleProfile(), { title: 'Engineer', description: 'x'.repeat(MAX_DESCRIPTION_CHARS + 500) });
    expect(client.requests[0].user).toContain('[truncated]');
    expect(client.requests[0].user).not.toContain('x'.repeat(MAX_DESCRIPTION_CHARS + 1));
  });

  it('propagates a validation failure instead of returning an unchecked score', async () => {
    const client = scriptedLlmClient([{ ...answer, score: 101 }]);
    await expect(scoreJobWithModel(client, sampleProfile(), samplePosting())).rejects.toThrow(/^score:/);
  });
});
