import { looksLikeBoardToken } from './employer-name.rules';

describe('looksLikeBoardToken', () => {
  it('recognises the lower-case tokens boards are addressed by', () => {
    for (const token of ['acme', 'globex', 'initech', 'acme-labs', 'acme_labs', 'hooli2', ' acme ']) expect(looksLikeBoardToken(token)).toBe(true);
  });

  it('leaves names written as employers write them alone', () => {
    for (const name of ['Acme', 'ACME', 'Acme Labs', 'acme labs', 'Acme, Inc.', 'monday.com', 'UmbrellaCorp', 'Société Générale', '42', '', '-acme']) {
      expect(looksLikeBoardToken(name)).toBe(false);
    }
  });
});
