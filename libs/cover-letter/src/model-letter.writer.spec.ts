import { scriptedLlmClient } from '@jobctrl/shared/llm/testing';
import { sampleProfile, samplePosting } from '@jobctrl/shared/profile/testing';
import { composeCoverLetterExtractive } from './extractive-letter.composer';
import { COVER_LETTER_SCHEMA, parseCoverLetterAnswer, writeCoverLetterWithModel } from './model-letter.writer';

describe('writeCoverLetterWithModel', () => {
  const profile = sampleProfile();
  const job = samplePosting();
  const text = composeCoverLetterExtractive(profile, job).text;

  it('writes on the cover lane with the profile and posting, without email or phone', async () => {
    const client = scriptedLlmClient([{ text: `  ${text}  ` }]);
    const { letter, usage } = await writeCoverLetterWithModel(client, profile, job);
    expect(letter).toEqual({ text, method: 'model', version: 'cover-model-v1' });
    expect(usage).toHaveLength(1);
    const request = client.requests[0];
    expect(request).toMatchObject({ lane: 'cover', schemaName: 'cover_letter', schema: COVER_LETTER_SCHEMA });
    expect(request.system).toContain('"team player"');
    expect(request.user).toContain('"company": "Lumen Payments"');
    expect(request.user).toContain('"name": "Dana Whitfield"');
    expect(request.user).not.toContain(profile.contact.email);
    expect(request.user).not.toContain('rejected by review');
  });

  it('lists the rejected review issues when regenerating', async () => {
    const client = scriptedLlmClient([{ text }]);
    await writeCoverLetterWithModel(client, profile, job, ['unsupported employer: Initech', 'cliché: "team player"']);
    expect(client.requests[0].user).toContain('A previous draft was rejected by review for these problems:\n- unsupported employer: Initech\n- cliché: "team player"');
  });

  it('rejects empty text, placeholders and stray fields, naming the field', () => {
    expect(() => parseCoverLetterAnswer({ text: ' ' })).toThrow('text: must be a non-empty string');
    expect(() => parseCoverLetterAnswer({})).toThrow('text: is required');
    expect(() => parseCoverLetterAnswer({ text: 'Dear [Company] team' })).toThrow('text: contains template placeholders ([Company])');
    expect(() => parseCoverLetterAnswer({ text: 'Hi', subject: 'x' })).toThrow(/^subject: unexpected property/);
  });
});
