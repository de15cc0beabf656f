import { readLetter, readResume, readReview, readScoreDetail } from './job-artifacts';

describe('reading the stored artifacts', () => {
  it('score rationale: matched, missing, the sentence and the components', () => {
    expect(readScoreDetail({ score: 72, matched: ['Go', 'SQL'], missing: ['Kafka'], rationale: 'Covers 2 of 3.', components: { skills: 0.66, title: 1, bogus: 'x' } })).toEqual({
      matched: ['Go', 'SQL'],
      missing: ['Kafka'],
      rationale: 'Covers 2 of 3.',
      components: [
        { name: 'skills', value: 0.66 },
        { name: 'title', value: 1 },
      ],
    });
    expect(readScoreDetail(null)).toBeNull();
    expect(readScoreDetail({ matched: 'Go' })).toEqual({ matched: [], missing: [], rationale: null, components: [] });
  });

  it('a resume keeps what it can show and drops malformed entries', () => {
    const r = readResume({ summary: 'S', skills: ['Go', 3], experience: [{ title: 'Dev', employer: 'Acme', start: '2020-01', end: null, bullets: ['Built x'] }, 'junk'], education: [] });
    expect(r?.skills).toEqual(['Go']);
    expect(r?.experience).toEqual([{ title: 'Dev', employer: 'Acme', location: null, start: '2020-01', end: null, bullets: ['Built x'] }]);
  });

  it('a letter from its object or bare text', () => {
    expect(readLetter({ text: 'Dear Acme', method: 'extractive' })).toEqual({ text: 'Dear Acme', method: 'extractive' });
    expect(readLetter('Dear')).toEqual({ text: 'Dear', method: null });
    expect(readLetter({ body: 'x' })).toBeNull();
  });

  it('an accepted letter: both reviews passed, with their advisories', () => {
    const review = readReview({
      accepted: true,
      outcome: 'accepted',
      attempt: 1,
      verdicts: { factual: { kind: 'factual', passed: true, issues: [] }, quality: { kind: 'quality', passed: true, issues: ['a bit long'] } },
      advisories: ['a bit long'],
    });
    expect(review).toEqual({
      accepted: true,
      outcome: 'accepted',
      attempt: 1,
      reviews: [
        { kind: 'factual', result: 'passed', issues: [], error: null },
        { kind: 'quality', result: 'passed', issues: ['a bit long'], error: null },
      ],
    });
  });

  it('a rejected letter names the deciding review and its issues; errored and missing reviews say so', () => {
    expect(readReview({ accepted: false, outcome: 'rejected', by: 'factual', issues: ['claims Kubernetes'], alsoFailed: ['quality'], missing: [] })?.reviews).toEqual([
      { kind: 'factual', result: 'failed', issues: ['claims Kubernetes'], error: null },
      { kind: 'quality', result: 'failed', issues: [], error: null },
    ]);
    expect(readReview({ accepted: false, outcome: 'errored', by: 'quality', error: { code: 'timeout', message: 'no answer in 60 s' }, alsoFailed: [], missing: ['factual'] })?.reviews).toEqual([
      { kind: 'factual', result: 'not_run', issues: [], error: null },
      { kind: 'quality', result: 'errored', issues: [], error: 'timeout: no answer in 60 s' },
    ]);
    expect(readReview({ outcome: 'accepted' })).toBeNull();
  });
});
