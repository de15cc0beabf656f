import { isPathAllowed, parseRobotsTxt, patternMatches, rulesFor } from './robots.rules';

function allowed(robotsTxt: string, path: string, agent = 'jobctrl'): boolean {
  return isPathAllowed(parseRobotsTxt(robotsTxt), path, agent);
}

describe('parseRobotsTxt', () => {
  it('groups consecutive User-agent lines and ignores comments, blank and unknown lines', () => {
    const robots = parseRobotsTxt(
      ['# comment', 'User-agent: a', 'User-agent: B/2.0', 'Disallow: /x # trailing', 'Crawl-delay: 5', 'Sitemap: https://e.com/s.xml', 'garbage line', 'Allow: /x/y'].join('\n'),
    );
    expect(robots.groups).toEqual([
      {
        agents: ['a', 'b'],
        rules: [
          { allow: false, pattern: '/x' },
          { allow: true, pattern: '/x/y' },
        ],
      },
    ]);
  });

  it('starts a new group at a User-agent line that follows rules', () => {
    const robots = parseRobotsTxt('User-agent: a\nDisallow: /a\nUser-agent: b\nDisallow: /b\n');
    expect(robots.groups.map((group) => group.agents)).toEqual([['a'], ['b']]);
  });

  it('ignores rules before any User-agent line and empty rule values', () => {
    const robots = parseRobotsTxt('Disallow: /orphan\nUser-agent: *\nDisallow:\nAllow:\n');
    expect(robots.groups).toEqual([{ agents: ['*'], rules: [] }]);
  });

  it('accepts CRLF and CR line endings, a BOM and case-insensitive keys', () => {
    const robots = parseRobotsTxt('\uFEFFUSER-AGENT: *\r\nDISALLOW: /a\rdisallow: /b');
    expect(rulesFor(robots, 'jobctrl').map((rule) => rule.pattern)).toEqual(['/a', '/b']);
  });
});

describe('rulesFor', () => {
  const robots = parseRobotsTxt('User-agent: *\nDisallow: /star\n\nUser-agent: jobctrl\nDisallow: /one\n\nUser-agent: JOBCTRL\nDisallow: /two\n');

  it('merges every group naming our token, case-insensitively, and ignores *', () => {
    expect(rulesFor(robots, 'jobctrl').map((rule) => rule.pattern)).toEqual(['/one', '/two']);
  });

  it('falls back to the * groups for other agents', () => {
    expect(rulesFor(robots, 'otherbot').map((rule) => rule.pattern)).toEqual(['/star']);
  });

  it('returns no rules when neither our token nor * is named', () => {
    expect(rulesFor(parseRobotsTxt('User-agent: googlebot\nDisallow: /\n'), 'jobctrl')).toEqual([]);
  });
});

describe('isPathAllowed', () => {
  it('allows everything for an empty file', () => {
    expect(allowed('', '/anything')).toBe(true);
  });

  it('disallows by prefix', () => {
    const txt = 'User-agent: *\nDisallow: /private\n';
    expect(allowed(txt, '/private')).toBe(false);
    expect(allowed(txt, '/private/jobs/1')).toBe(false);
    expect(allowed(txt, '/privateer')).toBe(false);
    expect(allowed(txt, '/public')).toBe(true);
  });

  it('lets the longest matching pattern win, whichever comes first', () => {
    const txt = 'User-agent: *\nAllow: /jobs/public\nDisallow: /jobs\n';
    expect(allowed(txt, '/jobs/public/1')).toBe(true);
    expect(allowed(txt, '/jobs/secret')).toBe(false);
    const reversed = 'User-agent: *\nDisallow: /jobs/\nAllow: /jobs\n';
    expect(allowed(reversed, '/jobs/1')).toBe(false);
    expect(allowed(reversed, '/jobs')).toBe(true);
  });

  it('prefers Allow when an Allow and a Disallow are equally long', () => {
    expect(allowed('User-agent: *\nDisallow: /page\nAllow: /page\n', '/page')).toBe(true);
  });

  it('supports * wildcards and the $ end anchor', () => {
    const txt = 'User-agent: *\nDisallow: /*.pdf$\nDisallow: /search*q=\nAllow: /$\nDisallow: /\n';
    expect(allowed(txt, '/files/cv.pdf')).toBe(false);
    expect(allowed(txt, '/files/cv.pdf?download=1')).toBe(false);
    expect(allowed(txt, '/')).toBe(true);
    expect(allowed(txt, '/search?page=2&q=dev')).toBe(false);
    expect(allowed('User-agent: *\nDisallow: /*.pdf$\n', '/files/cv.pdf.html')).toBe(true);
  });

  it('matches the query string too', () => {
    expect(allowed('User-agent: *\nDisallow: /jobs?sort=\n', '/jobs?sort=date')).toBe(false);
    expect(allowed('User-agent: *\nDisallow: /jobs?sort=\n', '/jobs?page=2')).toBe(true);
  });

  it('compares percent-encoded and raw non-ASCII paths equally', () => {
    expect(allowed('User-agent: *\nDisallow: /café\n', '/caf%C3%A9/1')).toBe(false);
    expect(allowed('User-agent: *\nDisallow: /caf%c3%a9\n', '/caf%C3%A9')).toBe(false);
  });

  it('always allows /robots.txt', () => {
    expect(allowed('User-agent: *\nDisallow: /\n', '/robots.txt')).toBe(true);
  });

  it('uses our own group even when it is more permissive than *', () => {
    const txt = 'User-agent: *\nDisallow: /\n\nUser-agent: jobctrl\nAllow: /\n';
    expect(allowed(txt, '/jobs')).toBe(true);
    expect(allowed(txt, '/jobs', 'otherbot')).toBe(false);
  });

  it('treats a rule path without a leading slash as rooted', () => {
    expect(allowed('User-agent: *\nDisallow: private\n', '/private/x')).toBe(false);
  });
});

describe('patternMatches', () => {
  it.each([
    ['/a', '/a', true],
    ['/a', '/ab', true],
    ['/a$', '/ab', false],
    ['/a$', '/a', true],
    ['/*/b', '/x/y/b', true],
    ['/*b$', '/x/yb', true],
    ['/*b$', '/x/yb/', false],
    ['*', '/anything', true],
    ['/a**b', '/a-b', true],
    ['/x', '/', false],
  ])('%s against %s → %s', (pattern, path, expected) => {
    expect(patternMatches(pattern, path)).toBe(expected);
  });

  it('stays fast on a hostile pattern of many wildcards (a regex would backtrack)', () => {
    const pattern = `/${'a*'.repeat(30)}b$`;
    expect(patternMatches(pattern, `/${'a'.repeat(5000)}`)).toBe(false);
  });
});
