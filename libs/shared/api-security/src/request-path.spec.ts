import { requestPathRefusal } from './request-path';

describe('requestPathRefusal (#39: one path grammar for the token check and the router)', () => {
  it('refuses what the URL parser and the router would read differently', () => {
    const refused: Array<[string, string]> = [
      ['/v1/jobs/..\\health', 'backslash'],
      ['/v1/jobs/..%5Chealth', 'backslash'],
      ['/v1/jobs/..%5chealth', 'backslash'],
      ['/\\evil.example/', 'backslash'],
      ['//evil/v1/health', '"//"'],
      ['/v1//jobs', '"//"'],
      ['/v1/jobs/../health', '".."'],
      ['/v1/jobs/%2e%2e/health', '".."'],
      ['/v1/jobs/.%2E/health', '".."'],
      ['/v1/jobs/%2E./health', '".."'],
      ['/v1/./health', '".."'],
      ['/v1/health/.', '".."'],
      ['/v1/jobs/%2e', '".."'],
      ['/v1/health#top', 'normal form'],
      ['/v1/jobs/{key}', 'normal form'],
      ['http://evil.example/v1/health', 'start with "/"'],
      ['*', 'start with "/"'],
    ];
    for (const [target, why] of refused) expect({ target, refusal: requestPathRefusal(target) }).toEqual({ target, refusal: expect.stringContaining(why) });
  });

  it('passes paths in normal form, whatever their query says', () => {
    for (const target of ['/', '/v1/health', '/v1/jobs/', '/v1/jobs/a..b', '/v1/jobs/..x', '/v1/jobs/%2e%2ex', '/v1/jobs/a%2Fb', '/jobs?next=//evil/..\\x', '/assets/index-abc.js', '/v1/jobs?q=a%20b&offset=1']) {
      expect({ target, refusal: requestPathRefusal(target) }).toEqual({ target, refusal: null });
    }
  });
});
