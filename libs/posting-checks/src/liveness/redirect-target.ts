/**
 * Where a posting URL's redirects ended up, relative to the posting.
 *
 * Boards close a posting by sending its URL to the board's index or search page (Greenhouse
 * answers `/{board}?error=true`, many careers sites `/jobs` or `/careers`); they also redirect a
 * live posting (http → https, a new slug beside the same id, a shortlink to the canonical page).
 * Only a target that lost the posting's own id/slug AND is an index (a board root, a search, or a
 * page up the posting's own path) counts as closure. A target that lost the id but is something
 * else is another page: uncertain, never closure.
 */

export type RedirectTarget =
  /** Same page (scheme, trailing slash, `www.` or case differ). */
  | 'same'
  /** Another URL that still carries the posting's id/slug: read it as the posting. */
  | 'same_posting'
  /** The board's index, search or careers root: the posting is gone. */
  | 'index'
  /** A sign-in page: the board keeps us out. */
  | 'login'
  /** Some other page: what it says is not about this posting. */
  | 'elsewhere';

/** Path segments that name sections, locales or actions, never one posting. */
const GENERIC_SEGMENTS = new Set([
  'jobs', 'job', 'careers', 'career', 'positions', 'position', 'openings', 'opening', 'vacancies', 'vacancy',
  'posting', 'postings', 'apply', 'view', 'details', 'detail', 'o', 'j', 'p', 'en', 'de', 'fr', 'es', 'nl', 'pt',
  'it', 'en-us', 'en-gb', 'de-de', 'fr-fr', 'es-es', 'nl-nl', 'pt-br', 'pt-pt', 'it-it', 'stellenangebote',
  'stellen', 'offres', 'offre', 'empleos', 'empleo', 'vacatures', 'vacature', 'vagas', 'vaga', 'lavoro', 'job-offers',
]);
/** Index paths (after a locale prefix is dropped). */
const INDEX_PATHS = new Set([
  '', '/jobs', '/job', '/careers', '/career', '/search', '/job-search', '/jobsearch', '/jobs/search', '/careers/jobs',
  '/careers/search', '/positions', '/openings', '/open-positions', '/vacancies', '/stellenangebote', '/stellen',
  '/jobboerse', '/offres', '/offres-emploi', '/empleos', '/ofertas', '/vacatures', '/vagas', '/lavora-con-noi',
  '/posizioni-aperte', '/join-us', '/work-with-us',
]);
/** Query keys of a search (or of Greenhouse's "job not found" redirect, `?error=true`). */
const SEARCH_KEYS = ['q', 'query', 'keyword', 'keywords', 'search', 'term', 'error', 'searchterm', 'search_query'];
/** Query keys that carry a posting's id on careers sites that embed an ATS. */
const ID_KEYS = ['gh_jid', 'jobid', 'job_id', 'jid', 'id', 'posting', 'postingid', 'pid', 'req', 'requisitionid', 'lever-via'];
const LOGIN_RE = /(?:^|\/)(?:login|log-in|signin|sign-in|sign_in|sso|auth|authenticate|account\/login|users\/sign_in)(?:\/|$)/;
const LOCALE_RE = /^\/[a-z]{2}(?:[-_][a-z]{2})?(?=\/|$)/;

export function classifyRedirect(postingUrl: string, finalUrl: string): RedirectTarget {
  let from: URL;
  let to: URL;
  try {
    from = new URL(postingUrl);
    to = new URL(finalUrl);
  } catch {
    return 'elsewhere';
  }
  const fromPath = trimPath(from.pathname);
  const toPath = trimPath(to.pathname);
  if (bareHost(from) === bareHost(to) && fromPath === toPath && from.search === to.search) return 'same';
  if (LOGIN_RE.test(toPath)) return 'login';

  const token = postingToken(from);
  const target = safeDecode(`${to.pathname}${to.search}`).toLowerCase();
  if (token && target.includes(token)) return 'same_posting';

  const sameHost = bareHost(from) === bareHost(to);
  const indexPath = INDEX_PATHS.has(toPath.replace(LOCALE_RE, ''));
  const searched = SEARCH_KEYS.some((key) => to.searchParams.has(key));
  // Up the posting's own path: /acme/jobs/123 → /acme or /acme/jobs.
  const upward = sameHost && toPath.length < fromPath.length && fromPath.startsWith(`${toPath}/`);
  if (indexPath || searched || upward) return 'index';
  return 'elsewhere';
}

/** The posting's own id or slug as it appears in its URL (lowercased), or null when it has none. */
export function postingToken(url: URL): string | null {
  for (const key of ID_KEYS) {
    const value = url.searchParams.get(key);
    if (value && value.length >= 2) return value.toLowerCase();
  }
  const segments = trimPath(url.pathname).split('/').filter(Boolean).map((s) => safeDecode(s).toLowerCase());
  for (let i = segments.length - 1; i >= 0; i--) {
    if (!GENERIC_SEGMENTS.has(segments[i]) && segments[i].length >= 2) {
      // The board's own segment (the first, as in /acme/jobs/123) is not the posting's.
      return i === 0 && segments.length > 1 ? null : segments[i];
    }
  }
  return null;
}

function trimPath(path: string): string {
  const lower = path.toLowerCase();
  return lower.endsWith('/') ? lower.slice(0, -1) : lower;
}

function bareHost(url: URL): string {
  return url.host.toLowerCase().replace(/^www\./, '');
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
