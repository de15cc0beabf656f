import { titleCoreWords } from './title.vocabulary';

describe('titleCoreWords', () => {
  it('drops seniority and filler, unifies spellings and synonyms', () => {
    expect([...titleCoreWords('Senior Back-End Developer (m/f/d)')]).toEqual(['backend', 'engineer']);
    expect([...titleCoreWords('Lead Front End Engineer, Payments')]).toEqual(['frontend', 'engineer', 'payments']);
    expect(titleCoreWords('Staff')).toEqual(new Set());
  });
});
