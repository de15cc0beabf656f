import { jobPostingsIn, jobPostingsInHtml, jsonLdBlocks, MAX_JSON_LD_BLOCKS, MAX_JSON_LD_CHARS, parseJsonLd } from './job-posting-ld.reader';

const ld = (data: unknown) => `<script type="application/ld+json">${JSON.stringify(data)}</script>`;
const titles = (html: string) => jobPostingsInHtml(html).map((p) => p.node['title']);
/** The size of a page the posting checks and enrichment accept: what a hostile or broken server may send. */
const PAGE_CHARS = 1_000_000;
const page = (unit: string, head = '', tail = '') => head + unit.repeat(Math.floor((PAGE_CHARS - head.length - tail.length) / unit.length)) + tail;

describe('jsonLdBlocks', () => {
  it('takes only ld+json scripts, whatever the attribute order, quoting and case', () => {
    const html = [
      '<SCRIPT TYPE="APPLICATION/LD+JSON">1</SCRIPT>',
      `<script id='x' type='application/ld+json' nonce="abc">2</script>`,
      '<script data-x="1>2" type=application/ld+json>3</script >',
      '<script type="application/ld+json; charset=utf-8">4</script>',
      '<script type="application/json">no</script><script>no</script>',
    ].join('');
    expect(jsonLdBlocks(html)).toEqual(['1', '2', '3', '4']);
  });

  it('skips a block inside an HTML comment: it is not on the page', () => {
    expect(jsonLdBlocks(`<!-- ${ld({ a: 1 })} -->${ld({ a: 2 })}<!---->${ld({ a: 3 })}<!-- ${ld({ a: 4 })}`)).toEqual(['{"a":2}', '{"a":3}']);
  });

  it(`reads at most ${MAX_JSON_LD_BLOCKS} blocks and ${MAX_JSON_LD_CHARS} characters; a block past the characters is skipped, a later small one still read`, () => {
    expect(jsonLdBlocks(ld(1).repeat(MAX_JSON_LD_BLOCKS + 5))).toHaveLength(MAX_JSON_LD_BLOCKS);
    const big = 'x'.repeat(MAX_JSON_LD_CHARS - 100);
    expect(jsonLdBlocks(ld(1) + ld(big) + ld(2) + ld(big) + ld(3)).map((b) => b.length)).toEqual([1, big.length + 2, 1, 1]);
  });
});

describe('parseJsonLd', () => {
  it('tolerates raw newlines inside strings and comment/CDATA wrappers; malformed JSON is undefined', () => {
    expect(parseJsonLd('{"title":"Data\nEngineer"}')).toEqual({ title: 'Data Engineer' });
    expect(parseJsonLd('<!-- {"a":1} -->')).toEqual({ a: 1 });
    expect(parseJsonLd('//<![CDATA[\n{"a":1}\n//]]>')).toEqual({ a: 1 });
    expect(parseJsonLd('<!--\n<![CDATA[{"a":1}]]>\n-->')).toEqual({ a: 1 });
    expect(parseJsonLd('{ "@type": "JobPosting", "title": ')).toBeUndefined();
    expect(parseJsonLd('  ')).toBeUndefined();
  });
});

describe('jobPostingsInHtml', () => {
  it('skips a malformed block and still reads the next one', () => {
    const html = `<script type="application/ld+json">{ "@type": "JobPosting", "title": </script>${ld({ '@type': 'JobPosting', title: 'Second' })}`;
    expect(titles(html)).toEqual(['Second']);
    expect(jsonLdBlocks(html).map(parseJsonLd).filter((b) => b !== undefined)).toHaveLength(1);
  });

  it('finds postings inside arrays, @graph and mainEntity, in document order across blocks', () => {
    const html = [
      ld([{ '@type': 'Organization', name: 'X' }, { '@type': 'JobPosting', title: 'In array' }]),
      ld({ '@context': 'https://schema.org', '@graph': [{ '@type': 'WebSite' }, { '@type': 'JobPosting', title: 'In graph' }] }),
      ld({ '@type': 'WebPage', mainEntity: { '@type': 'JobPosting', title: 'Main' } }),
      ld({ a: { b: { '@type': 'JobPosting', title: 'Deep first' } }, c: { '@type': 'JobPosting', title: 'Shallow later' } }),
    ].join('');
    expect(titles(html)).toEqual(['In array', 'In graph', 'Main', 'Deep first', 'Shallow later']);
  });

  it('accepts @type as an array, a prefixed name or an IRI; a posting inside a posting is not another one', () => {
    expect(titles(ld({ '@type': ['Thing', 'JobPosting'], title: 'Arr' }))).toEqual(['Arr']);
    expect(titles(ld({ '@type': 'http://schema.org/JobPosting', title: 'Iri' }))).toEqual(['Iri']);
    expect(titles(ld({ '@type': 'schema:JobPosting', title: 'Prefixed' }))).toEqual(['Prefixed']);
    expect(titles(ld({ '@type': 'NotAJobPostingType', title: 'No' }))).toEqual([]);
    expect(titles(ld({ '@type': 'JobPosting', title: 'Outer', x: { '@type': 'JobPosting', title: 'Inner' } }))).toEqual(['Outer']);
  });

  it("indexes the block's @id nodes for references: the first full node wins, a bare reference never shadows it, other blocks are not searched", () => {
    const org = { '@type': 'Organization', '@id': '#org', name: 'Initech' };
    const [posting] = jobPostingsInHtml(ld({ '@graph': [{ '@type': 'JobPosting', title: 'T', hiringOrganization: { '@id': '#org' } }, org, { ...org, name: 'Later' }] }) + ld({ '@id': '#other', name: 'O' }));
    expect(posting.byId.get('#org')).toEqual(org);
    expect(posting.byId.has('#other')).toBe(false);
  });

  it('stops at 12 levels of nesting', () => {
    const nest = (depth: number) => {
      let value: unknown = { '@type': 'JobPosting', title: `at ${depth}` };
      for (let i = 0; i < depth; i++) value = [value];
      return value;
    };
    expect(titles(ld(nest(12)))).toEqual(['at 12']);
    expect(titles(ld(nest(13)))).toEqual([]);
  });
});

describe('the JSON-LD reader on hostile input', () => {
  // Each page is read in one linear pass; the deadline is the test timeout, generous on purpose
  // (a quadratic pattern on these inputs takes minutes, not seconds).
  const DEADLINE_MS = 15_000;
  it.each([
    ['a huge JSON-LD block of nested arrays', page('[', '<script type="application/ld+json">')],
    ['a huge JSON-LD block of many objects', page('{"@type":"Thing","a":[1,2,3]},', '<script type="application/ld+json">[', '{}]</script>')],
    ['a JSON-LD block just under the character bound of many objects', `<script type="application/ld+json">[${'{"@type":"Thing","a":[1,2,3]},'.repeat(15_000)}{}]</script>`],
    ['a JSON-LD block of closed nesting', `<script type="application/ld+json">${'['.repeat(240_000)}${']'.repeat(240_000)}</script>`],
    ['unclosed scripts', page('<script>')],
    ['comments and scripts', page('<!----><script>x</script>')],
    ['unclosed comment near-misses', page('<!-<!-', '<script>')],
    ['scripts with "</" near-misses', page('</scrip</scrip', '<script type="application/ld+json">')],
  ])('reads 1 MB of %s within the deadline', (_name, html) => {
    expect(jobPostingsInHtml(html)).toEqual([]);
  }, DEADLINE_MS);

  it('visits a bounded number of nodes per block: a posting after 20,000 nodes is not reached', () => {
    const filler = Array.from({ length: 10_000 }, () => ({ a: 1 }));
    expect(jobPostingsIn([...filler, { '@type': 'JobPosting', title: 'early' }])).toHaveLength(1);
    expect(jobPostingsIn([...filler, ...filler, ...filler, { '@type': 'JobPosting', title: 'late' }])).toHaveLength(0);
  });
});
