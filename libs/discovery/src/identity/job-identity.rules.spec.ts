import {
  canonicalizeUrl,
  contentKey,
  idempotencyKey,
  idempotencyKeyForJobKey,
  isIdempotencyKey,
  jobKey,
  type JobIdentityInput,
  normalizeCompany,
  normalizeLocation,
  normalizeText,
  normalizeTitle,
  sameJob,
  tryCanonicalizeUrl,
} from './job-identity.rules';

describe('canonicalizeUrl', () => {
  it('lower-cases scheme and host but keeps the path case', () => {
    expect(canonicalizeUrl('HTTPS://Boards.Greenhouse.IO/Acme/jobs/ABC123')).toBe('https://boards.greenhouse.io/Acme/jobs/ABC123');
  });

  it('drops default ports and keeps others', () => {
    expect(canonicalizeUrl('http://acme.com:80/jobs/1')).toBe('http://acme.com/jobs/1');
    expect(canonicalizeUrl('https://acme.com:443/jobs/1')).toBe('https://acme.com/jobs/1');
    expect(canonicalizeUrl('https://acme.com:8443/jobs/1')).toBe('https://acme.com:8443/jobs/1');
  });

  it('drops plain fragments but keeps hash-routes that address a posting', () => {
    expect(canonicalizeUrl('https://acme.com/jobs/1#apply')).toBe('https://acme.com/jobs/1');
    expect(canonicalizeUrl('https://careers.acme.com/#/jobs/12')).toBe('https://careers.acme.com#/jobs/12');
    expect(canonicalizeUrl('https://careers.acme.com/#!/job/12/')).toBe('https://careers.acme.com#!/job/12');
    expect(canonicalizeUrl('https://careers.acme.com/#/jobs/12')).not.toBe(canonicalizeUrl('https://careers.acme.com/#/jobs/13'));
  });

  it('drops tracking parameters in any case and keeps identifying ones', () => {
    const url =
      'https://acme.com/careers?gh_jid=4012345&utm_source=linkedin&UTM_Campaign=x&gh_src=abc&gclid=1&fbclid=2&ref=hn&source=board&lever-source=li&lever-origin=applied&mc_cid=9&_hsenc=z';
    expect(canonicalizeUrl(url)).toBe('https://acme.com/careers?gh_jid=4012345');
    expect(canonicalizeUrl('https://jobs.lever.co/acme/1f2e3d?lever-source=LinkedIn')).toBe('https://jobs.lever.co/acme/1f2e3d');
  });

  it('sorts the remaining parameters by name, then value', () => {
    expect(canonicalizeUrl('https://acme.com/jobs?team=eng&b=2&a=1&a=0')).toBe('https://acme.com/jobs?a=0&a=1&b=2&team=eng');
  });

  it('strips trailing slashes, the root one included', () => {
    expect(canonicalizeUrl('https://acme.com/jobs/123/')).toBe('https://acme.com/jobs/123');
    expect(canonicalizeUrl('https://acme.com/jobs//')).toBe('https://acme.com/jobs');
    expect(canonicalizeUrl('https://acme.com/')).toBe('https://acme.com');
    expect(canonicalizeUrl('https://acme.com/jobs/?id=1')).toBe('https://acme.com/jobs?id=1');
  });

  it('normalises percent-escapes and query encodings', () => {
    expect(canonicalizeUrl('https://acme.com/jobs/%7euser/%2f')).toBe('https://acme.com/jobs/~user/%2F');
    expect(canonicalizeUrl('https://acme.com/s?q=a%20b')).toBe(canonicalizeUrl('https://acme.com/s?q=a+b'));
  });

  it('drops credentials, a trailing host dot and surrounding whitespace', () => {
    expect(canonicalizeUrl('  https://user:pw@Acme.com./jobs/1  ')).toBe('https://acme.com/jobs/1');
  });

  it('keeps only the identifying parameters on boards known for session noise', () => {
    expect(
      canonicalizeUrl('https://www.linkedin.com/jobs/view/3791234567/?refId=abc&trackingId=xyz&position=1&pageNum=0&eBP=q&trk=public_jobs'),
    ).toBe('https://www.linkedin.com/jobs/view/3791234567');
    expect(canonicalizeUrl('https://www.linkedin.com/jobs/search/?currentJobId=42&keywords=dev')).toBe(
      'https://www.linkedin.com/jobs/search?currentJobId=42',
    );
    expect(canonicalizeUrl('https://de.indeed.com/viewjob?jk=abc123&from=serp&vjs=3&tk=1')).toBe('https://de.indeed.com/viewjob?jk=abc123');
  });

  it('does not treat look-alike hosts as those boards', () => {
    expect(canonicalizeUrl('https://notlinkedin.com/jobs?id=1')).toBe('https://notlinkedin.com/jobs?id=1');
  });

  it('is idempotent', () => {
    for (const url of [
      'HTTPS://Acme.com:443/Jobs/1/?utm_source=x&b=2&a=1#top',
      'https://careers.acme.com/#/jobs/12/',
      'https://acme.com/s?q=a%20b&z=%7e',
      'https://www.linkedin.com/jobs/view/1/?trk=x',
    ]) {
      const once = canonicalizeUrl(url);
      expect(canonicalizeUrl(once)).toBe(once);
    }
  });

  it('throws for non-URLs and non-http schemes; tryCanonicalizeUrl returns null instead', () => {
    expect(() => canonicalizeUrl('not a url')).toThrow(TypeError);
    expect(() => canonicalizeUrl('ftp://acme.com/jobs')).toThrow(TypeError);
    expect(() => canonicalizeUrl('mailto:jobs@acme.com')).toThrow(TypeError);
    expect(tryCanonicalizeUrl('not a url')).toBeNull();
    expect(tryCanonicalizeUrl('javascript:alert(1)')).toBeNull();
    expect(tryCanonicalizeUrl('')).toBeNull();
    expect(tryCanonicalizeUrl('   ')).toBeNull();
    expect(tryCanonicalizeUrl(null)).toBeNull();
    expect(tryCanonicalizeUrl(undefined)).toBeNull();
    expect(tryCanonicalizeUrl('https://acme.com/jobs/1/')).toBe('https://acme.com/jobs/1');
  });
});

describe('normalizeText', () => {
  it('folds case, accents, punctuation and whitespace', () => {
    expect(normalizeText('  Café   Déjà-Vu!! ')).toBe('cafe deja vu');
    expect(normalizeText('Straße, Ærø, Łódź')).toBe('strasse aero lodz');
    expect(normalizeText('ＦＵＬＬ－ＷＩＤＴＨ')).toBe('full width');
  });

  it('keeps letters and digits of non-Latin scripts', () => {
    expect(normalizeText('東京 エンジニア 2')).toBe('東京 エンジニア 2');
  });

  it('returns an empty string for missing input', () => {
    expect(normalizeText(undefined)).toBe('');
    expect(normalizeText(null, 'company')).toBe('');
    expect(normalizeText('', 'title')).toBe('');
    expect(normalizeText(' ,.- ', 'location')).toBe('');
  });

  it('dispatches by kind', () => {
    expect(normalizeText('Acme Inc.', 'company')).toBe('acme');
    expect(normalizeText('Acme Inc.')).toBe('acme inc');
    expect(normalizeText('Sr. Engineer', 'title')).toBe('senior engineer');
    expect(normalizeText('Austin, Texas', 'location')).toBe('austin tx');
  });

  describe('company', () => {
    it.each([
      'Acme', 'ACME', 'Acme, Inc.', 'Acme Inc', 'Acme Incorporated', 'Acme LLC', 'Acme L.L.C.', 'Acme Ltd.', 'Acme Limited',
      'Acme GmbH', 'ACME GmbH & Co. KG', 'Acme Corp.', 'Acme Corporation', 'The Acme Company', 'Acme Co.', 'Acme PLC',
      'Acme S.A.', 'Acme B.V.', 'Acme AG', 'Acme Pty Ltd', 'Acme Private Limited', 'Ácme, Inc',
    ])('%s → acme', (name) => {
      expect(normalizeCompany(name)).toBe('acme');
    });

    it('removes suffixes only at the end and never empties the name', () => {
      expect(normalizeCompany('Co-op Bank')).toBe('co op bank');
      expect(normalizeCompany('Incorporated Ideas Ltd')).toBe('incorporated ideas');
      expect(normalizeCompany('Limited')).toBe('limited');
      expect(normalizeCompany('The Trade Desk, Inc.')).toBe('trade desk');
    });

    it('spells & as "and" so both spellings meet', () => {
      expect(normalizeCompany('Procter & Gamble Co.')).toBe('procter and gamble');
      expect(normalizeCompany('Johnson and Johnson')).toBe(normalizeCompany('Johnson & Johnson'));
    });

    it('keeps distinct companies distinct', () => {
      expect(normalizeCompany('Acme Labs')).not.toBe(normalizeCompany('Acme'));
      expect(normalizeCompany('Zürich Insurance Group AG')).toBe('zurich insurance group');
    });
  });

  describe('title', () => {
    it('unifies senior/junior abbreviations and separators', () => {
      expect(normalizeTitle('Senior Software Engineer')).toBe('senior software engineer');
      expect(normalizeTitle('Sr. Software Engineer')).toBe('senior software engineer');
      expect(normalizeTitle('SR Software-Engineer')).toBe('senior software engineer');
      expect(normalizeTitle('Jr. Data Analyst')).toBe(normalizeTitle('Junior Data Analyst'));
      expect(normalizeTitle('Engineering Mgr')).toBe('engineering manager');
    });

    it('treats team separators alike: comma, dash, parentheses', () => {
      const expected = 'software engineer payments';
      expect(normalizeTitle('Software Engineer, Payments')).toBe(expected);
      expect(normalizeTitle('Software Engineer - Payments')).toBe(expected);
      expect(normalizeTitle('Software Engineer (Payments)')).toBe(expected);
      expect(normalizeTitle('Software Engineer – Payments')).toBe(expected);
    });

    it('drops gender markers that only some sources include', () => {
      expect(normalizeTitle('Backend Entwickler (m/w/d)')).toBe('backend entwickler');
      expect(normalizeTitle('Backend Entwickler (w/m/divers)')).toBe('backend entwickler');
      expect(normalizeTitle('Backend Entwickler m/w/d')).toBe('backend entwickler');
      expect(normalizeTitle('Data Engineer (all genders)')).toBe('data engineer');
      expect(normalizeTitle('Développeur Java (H/F)')).toBe('developpeur java');
    });

    it('keeps languages that punctuation stripping would otherwise merge', () => {
      expect(normalizeTitle('C++ Engineer')).toBe('cpp engineer');
      expect(normalizeTitle('C# Developer')).toBe('csharp developer');
      expect(normalizeTitle('.NET Developer')).toBe('dotnet developer');
      expect(normalizeTitle('C Engineer')).not.toBe(normalizeTitle('C++ Engineer'));
    });

    it('keeps levels distinct', () => {
      expect(normalizeTitle('Software Engineer II')).not.toBe(normalizeTitle('Software Engineer III'));
      expect(normalizeTitle('Senior Engineer')).not.toBe(normalizeTitle('Staff Engineer'));
    });
  });

  describe('location', () => {
    it('unifies spelled-out US states and a trailing United States', () => {
      const expected = 'san francisco ca';
      for (const spelling of [
        'San Francisco, CA',
        'San Francisco, California',
        'San Francisco, CA, United States',
        'san francisco, ca, USA',
        'San Francisco, CA, U.S.',
        'San Francisco, California, United States of America',
      ]) {
        expect(normalizeLocation(spelling)).toBe(expected);
      }
    });

    it('only maps the state position, so "New York, New York" equals "New York, NY"', () => {
      expect(normalizeLocation('New York, New York')).toBe('new york ny');
      expect(normalizeLocation('New York, NY')).toBe('new york ny');
      expect(normalizeLocation('New York')).toBe('new york');
    });

    it('treats "Remote - US" as plain remote but keeps other countries', () => {
      expect(normalizeLocation('Remote - US')).toBe('remote');
      expect(normalizeLocation('Remote (United States)')).toBe('remote');
      expect(normalizeLocation('Remote - Canada')).toBe('remote canada');
      expect(normalizeLocation('United States')).toBe('united states');
    });

    it('orders and de-duplicates multi-location strings', () => {
      expect(normalizeLocation('New York, NY; Austin, TX')).toBe('austin tx | new york ny');
      expect(normalizeLocation('Austin, Texas | New York, NY | Austin, TX')).toBe('austin tx | new york ny');
    });

    it('folds accents and keeps different cities different', () => {
      expect(normalizeLocation('São Paulo, Brazil')).toBe('sao paulo brazil');
      expect(normalizeLocation('Kraków')).toBe('krakow');
      expect(normalizeLocation('Berlin, Germany')).not.toBe(normalizeLocation('Munich, Germany'));
    });
  });
});

describe('jobKey', () => {
  const KEY = /^j_[a-z2-7]{26}$/;

  it('is a short base32 key, pinned so stored keys never change silently', () => {
    // Independently computed: base32(sha256("url\0<canonical url>")), first 26 characters.
    expect(jobKey({ url: 'https://boards.greenhouse.io/acme/jobs/4012345' })).toBe('j_unowalk7zlafiu44o22asaaam2');
    expect(jobKey({ company: 'Acme, Inc.', title: 'Senior Backend Engineer', location: 'San Francisco, CA' })).toBe('j_3luteplgulfglpzebw73oiufol');
  });

  it('derives from the canonical URL when there is one', () => {
    const base = jobKey({ url: 'https://jobs.lever.co/acme/1f2e3d', title: 'Engineer' });
    expect(base).toMatch(KEY);
    expect(jobKey({ url: 'HTTPS://jobs.lever.co/acme/1f2e3d/?lever-source=LinkedIn#apply', title: 'Engineer' })).toBe(base);
    // The URL decides; a retitled posting at the same address keeps its key.
    expect(jobKey({ url: 'https://jobs.lever.co/acme/1f2e3d', title: 'Senior Engineer', company: 'Other' })).toBe(base);
    expect(jobKey({ url: 'https://jobs.lever.co/acme/1f2e3e' })).not.toBe(base);
  });

  it('falls back to normalised company + title + location', () => {
    const key = jobKey({ company: 'Acme Inc.', title: 'Sr. Data Engineer', location: 'Austin, Texas' });
    expect(key).toMatch(KEY);
    expect(jobKey({ company: 'ACME', title: 'Senior Data Engineer', location: 'Austin, TX, USA' })).toBe(key);
    expect(jobKey({ url: 'not a url', company: 'ACME', title: 'Senior Data Engineer', location: 'Austin, TX' })).toBe(key);
    expect(jobKey({ company: 'ACME', title: 'Senior Data Engineer', location: 'Dallas, TX' })).not.toBe(key);
  });

  it('separates URL-derived keys from content-derived ones', () => {
    expect(jobKey({ url: 'https://acme.com/jobs/1' })).not.toBe(jobKey({ company: 'https://acme.com/jobs/1', title: 'x' }));
  });

  it('throws when a posting has neither a usable URL nor company and title', () => {
    expect(() => jobKey({})).toThrow(TypeError);
    expect(() => jobKey({ url: 'nope', title: 'Engineer' })).toThrow(TypeError);
    expect(() => jobKey({ company: 'Acme', location: 'Berlin' })).toThrow(TypeError);
  });
});

describe('contentKey', () => {
  it('matches across sources and separates different content', () => {
    const key = contentKey({ company: 'Acme GmbH', title: 'Backend Entwickler (m/w/d)', location: 'Berlin' });
    expect(key).toMatch(/^c_[a-z2-7]{26}$/);
    expect(contentKey({ company: 'ACME', title: 'Backend Entwickler', location: 'berlin', url: 'https://x.com/1' })).toBe(key);
    expect(contentKey({ company: 'ACME', title: 'Backend Entwickler', location: 'München' })).not.toBe(key);
  });

  it('is null without company or title', () => {
    expect(contentKey({ title: 'Engineer' })).toBeNull();
    expect(contentKey({ company: 'Acme' })).toBeNull();
    expect(contentKey({ company: '  ', title: '!!' })).toBeNull();
  });
});

describe('idempotencyKey', () => {
  const posting = { url: 'https://boards.greenhouse.io/acme/jobs/4012345?gh_src=li' };

  it('is the versioned job key and valid inside a workflow id', () => {
    const key = idempotencyKey(posting);
    expect(key).toBe(`v1-${jobKey(posting)}`);
    expect(`prep-${key}`).toMatch(/^[A-Za-z0-9._-]+$/);
    expect(isIdempotencyKey(key)).toBe(true);
  });

  it('is stable per job: a repost at the same address gets the same key', () => {
    expect(idempotencyKey({ ...posting, title: 'Reposted', location: 'Elsewhere' })).toBe(idempotencyKey(posting));
    expect(idempotencyKey({ url: 'https://boards.greenhouse.io/acme/jobs/4012345' })).toBe(idempotencyKey(posting));
  });

  it('can be built from a stored job key, and refuses anything unsafe', () => {
    expect(idempotencyKeyForJobKey(jobKey(posting))).toBe(idempotencyKey(posting));
    expect(() => idempotencyKeyForJobKey('j_bad key/')).toThrow(TypeError);
    expect(isIdempotencyKey('prep/../x')).toBe(false);
    expect(isIdempotencyKey('v2-j_abc')).toBe(false);
  });
});

describe('sameJob', () => {
  const greenhouse: JobIdentityInput = {
    url: 'https://boards.greenhouse.io/acme/jobs/4012345?gh_src=abc123',
    company: 'Acme, Inc.',
    title: 'Senior Backend Engineer',
    location: 'San Francisco, CA',
  };

  it('matches one posting reached through two URLs that canonicalise alike', () => {
    expect(sameJob(greenhouse, { url: 'https://BOARDS.greenhouse.io/acme/jobs/4012345/#app', title: 'Backend Engineer' })).toBe(true);
  });

  it('matches the same posting from another source by company + title + location', () => {
    const linkedin: JobIdentityInput = {
      url: 'https://www.linkedin.com/jobs/view/3791234567/?trk=public_jobs',
      company: 'ACME',
      title: 'Sr. Backend Engineer',
      location: 'San Francisco, California, United States',
    };
    expect(sameJob(greenhouse, linkedin)).toBe(true);
  });

  it('matches a German posting with and without gender marker and legal form', () => {
    expect(
      sameJob(
        { url: 'https://jobs.ashbyhq.com/acme/1', company: 'Acme GmbH', title: 'Backend-Entwickler (m/w/d)', location: 'München' },
        { url: 'https://www.stepstone.de/job/2', company: 'ACME', title: 'Backend Entwickler', location: 'Munchen' },
      ),
    ).toBe(true);
  });

  it('matches reposts: a new id and date at the same address, or the same content at a new address', () => {
    const repostSameUrl = { ...greenhouse, id: 'gh-2', postedAt: '2026-02-01' } as JobIdentityInput;
    expect(sameJob(greenhouse, repostSameUrl)).toBe(true);
    const repostNewUrl: JobIdentityInput = { ...greenhouse, url: 'https://boards.greenhouse.io/acme/jobs/4099999' };
    expect(sameJob(greenhouse, repostNewUrl)).toBe(true);
  });

  it('matches postings without URLs by content', () => {
    expect(sameJob({ company: 'Acme', title: 'Designer', location: 'Remote' }, { company: 'Acme Inc', title: 'designer', location: 'Remote - US' })).toBe(true);
  });

  describe('keeps near-duplicates that are different jobs apart', () => {
    const base: JobIdentityInput = {
      url: 'https://jobs.lever.co/acme/aaa',
      company: 'Acme',
      title: 'Senior Software Engineer, Payments',
      location: 'New York, NY',
    };
    it.each<[string, JobIdentityInput]>([
      ['another location', { ...base, url: 'https://jobs.lever.co/acme/bbb', location: 'San Francisco, CA' }],
      ['another level (Staff)', { ...base, url: 'https://jobs.lever.co/acme/ccc', title: 'Staff Software Engineer, Payments' }],
      ['another level (no Senior)', { ...base, url: 'https://jobs.lever.co/acme/ddd', title: 'Software Engineer, Payments' }],
      ['another team', { ...base, url: 'https://jobs.lever.co/acme/eee', title: 'Senior Software Engineer, Identity' }],
      ['a team vs no team', { ...base, url: 'https://jobs.lever.co/acme/fff', title: 'Senior Software Engineer' }],
      ['another company', { ...base, url: 'https://jobs.lever.co/other/aaa', company: 'Acme Labs' }],
      ['a location missing on one side', { ...base, url: 'https://jobs.lever.co/acme/ggg', location: null }],
    ])('%s', (_why, other) => {
      expect(sameJob(base, other)).toBe(false);
      expect(sameJob(other, base)).toBe(false);
      expect(jobKey(other)).not.toBe(jobKey(base));
    });

    it('numbered levels', () => {
      expect(sameJob({ company: 'Acme', title: 'Software Engineer II' }, { company: 'Acme', title: 'Software Engineer III' })).toBe(false);
    });
  });

  it('does not match on title alone when companies are unknown', () => {
    expect(sameJob({ title: 'Software Engineer', location: 'Berlin' }, { title: 'Software Engineer', location: 'Berlin' })).toBe(false);
  });

  it('never matches two postings that have nothing to compare', () => {
    expect(sameJob({}, {})).toBe(false);
    expect(sameJob({ url: 'nope' }, { url: 'nope' })).toBe(false);
  });

  it('is symmetric and reflexive over a mixed set', () => {
    const postings: JobIdentityInput[] = [
      greenhouse,
      { url: 'https://www.linkedin.com/jobs/view/1', company: 'Acme', title: 'Sr Backend Engineer', location: 'San Francisco, California' },
      { url: 'https://boards.greenhouse.io/acme/jobs/4012345', title: 'x' },
      { company: 'Acme', title: 'Staff Backend Engineer', location: 'San Francisco, CA' },
      { company: 'Beta', title: 'Senior Backend Engineer', location: 'San Francisco, CA' },
    ];
    for (const a of postings) {
      expect(sameJob(a, a)).toBe(true);
      for (const b of postings) expect(sameJob(a, b)).toBe(sameJob(b, a));
    }
  });
});
