import { parseSearchResults } from './aggregator-search.parser';
import { MalformedResponseError } from './source-adapter.model';

const PAGE_URL = 'https://jobs.example/search?q=go&page=1';

describe('parseSearchResults', () => {
  it('reads cards by class whatever their markup, resolving links against the page URL', () => {
    const html = `<main><div class="ad-slot"><a href="/ads/1">Upload your CV</a></div>
      <ul id="results">
        <li class="result-card" data-jk="aaaaaaaaaaaaaaaa"><!-- c -->
          <h2 class="jobTitle"><a href="/jobs/1"><span title="Go Engineer">Go Engineer</span></a></h2>
          <span class="companyName">Smith &amp; Sons</span><div class="companyLocation">Berlin, Germany</div>
          <div class="salary-snippet">€60,000 - €75,000 per year</div>
          <div class="job-snippet"><ul><li>Build   things</li></ul></div>
          <time datetime="2025-02-10T08:00:00Z">3 days ago</time>
        </li>
        <li class="result-card sponsored" data-jk=bbbbbbbbbbbbbbbb>
          <div><span data-testid=company-name>Globex</span><div data-testid="text-location">Remote in Europe</div></div>
          <h2 class=jobTitle><a id=x href='https://other.example/p/2'>Staff&nbsp;Engineer</a></h2>
        </li>
      </ul>
      <nav><a href="/search?q=go&amp;page=2" rel="next">Next</a></nav></main>`;
    expect(parseSearchResults(html, PAGE_URL)).toEqual({
      cards: [
        {
          id: 'aaaaaaaaaaaaaaaa',
          title: 'Go Engineer',
          company: 'Smith & Sons',
          location: 'Berlin, Germany',
          url: 'https://jobs.example/jobs/1',
          salaryText: '€60,000 - €75,000 per year',
          postedAt: '2025-02-10T08:00:00.000Z',
          snippet: 'Build things',
        },
        {
          id: 'bbbbbbbbbbbbbbbb',
          title: 'Staff Engineer',
          company: 'Globex',
          location: 'Remote in Europe',
          url: 'https://other.example/p/2',
          salaryText: null,
          postedAt: null,
          snippet: null,
        },
      ],
      nextUrl: 'https://jobs.example/search?q=go&page=2',
    });
  });

  it('returns no cards and no next page for a "no results" page', () => {
    expect(parseSearchResults('<main><p class="no-results">No jobs match.</p></main>', PAGE_URL)).toEqual({ cards: [], nextUrl: null });
  });

  it('rejects a page that is not a results page, and a card without a title link', () => {
    expect(() => parseSearchResults('<html><body><h1>Are you a robot?</h1></body></html>', PAGE_URL)).toThrow(MalformedResponseError);
    expect(() => parseSearchResults('<ul id="results"><li class="result-card"><span class="companyName">A</span></li></ul>', PAGE_URL)).toThrow(
      /result card 1 has no title link/,
    );
  });
});
