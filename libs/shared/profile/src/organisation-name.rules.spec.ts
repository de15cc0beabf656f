import { LEGAL_SUFFIXES, containsRun, nameTokens, nameWords } from './organisation-name.rules';

describe('organisation names', () => {
  it('splits text into comparable words: accents, case, possessives and "&" unified', () => {
    expect(nameWords("Société Générale's R&D team, C++ & C#")).toEqual(['societe', 'generale', 'r', 'and', 'd', 'team', 'c++', 'and', 'c#']);
    expect(nameWords('  ')).toEqual([]);
  });

  it('drops a leading "the" and trailing legal suffixes from names', () => {
    expect(nameTokens('The Acme Co.')).toEqual(['acme']);
    expect(nameTokens("Acme's")).toEqual(['acme']);
    expect(nameTokens('Globex Holdings GmbH & Co. KG')).toEqual(['globex', 'holdings', 'gmbh', 'and', 'co', 'kg']);
    expect(nameTokens('Spotify AB')).toEqual(['spotify']);
    expect(nameTokens('Initech Ltd Inc')).toEqual(['initech']);
    expect(nameTokens('Ernst & Young LLP')).toEqual(['ernst', 'and', 'young']);
    expect(LEGAL_SUFFIXES.has('gmbh')).toBe(true);
  });

  it('keeps at least one word, and keeps suffix words that are not at the end', () => {
    expect(nameTokens('Co')).toEqual(['co']);
    expect(nameTokens('The Company')).toEqual(['company']);
    expect(nameTokens('The')).toEqual([]);
    expect(nameTokens('Limited Brands Inc')).toEqual(['limited', 'brands']);
  });

  it('finds a name as a run of consecutive words', () => {
    const letter = nameWords('I would love to join Acme Payments in Toronto.');
    expect(containsRun(letter, nameTokens('Acme Payments Inc.'))).toBe(true);
    expect(containsRun(letter, nameTokens('Payments Acme'))).toBe(false);
    expect(containsRun(letter, [])).toBe(true);
    expect(containsRun([], ['acme'])).toBe(false);
  });
});
