/**
 * robots.txt per RFC 9309, as pure functions: parsing, group selection and longest-match rules.
 * The client decides when to fetch and how long to trust a result; this file only answers
 * "may this user agent fetch this path".
 */

export interface RobotsRule {
  allow: boolean;
  /** Normalised pattern: percent-escapes upper-cased, non-ASCII percent-encoded. */
  pattern: string;
}

export interface RobotsGroup {
  /** Lower-cased product tokens from the group's User-agent lines (`*` included as is). */
  agents: string[];
  rules: RobotsRule[];
}

export interface RobotsTxt {
  groups: RobotsGroup[];
}

/** Parses robots.txt leniently: unknown lines are skipped, never an error (RFC 9309 §2.2). */
export function parseRobotsTxt(text: string): RobotsTxt {
  const groups: RobotsGroup[] = [];
  let current: RobotsGroup | undefined;
  // Consecutive User-agent lines share one group; the first rule line closes the agent list.
  let collectingAgents = false;

  for (const rawLine of text.replace(/^\uFEFF/, '').split(/\r\n|\r|\n/)) {
    const line = rawLine.replace(/#.*$/, '').trim();
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const key = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();

    if (key === 'user-agent' || key === 'useragent' || key === 'user agent') {
      if (!collectingAgents || !current) {
        current = { agents: [], rules: [] };
        groups.push(current);
        collectingAgents = true;
      }
      const token = productToken(value);
      if (token) current.agents.push(token);
      continue;
    }
    if (key === 'allow' || key === 'disallow') {
      collectingAgents = false;
      // Rules before any User-agent line belong to no group; an empty path matches nothing.
      if (!current || value === '') continue;
      current.rules.push({ allow: key === 'allow', pattern: normalizePattern(value) });
      continue;
    }
    // Sitemap, Crawl-delay and other extensions neither belong to the rule set nor end a group.
  }
  return { groups: groups.filter((group) => group.agents.length > 0) };
}

/** The rules that apply to `userAgentToken`: its own groups merged, else the `*` groups merged. */
export function rulesFor(robots: RobotsTxt, userAgentToken: string): RobotsRule[] {
  const token = userAgentToken.toLowerCase();
  const own = robots.groups.filter((group) => group.agents.includes(token));
  const chosen = own.length > 0 ? own : robots.groups.filter((group) => group.agents.includes('*'));
  return chosen.flatMap((group) => group.rules);
}

/**
 * Whether `pathWithQuery` (a URL's pathname + search, as `URL` encodes them) may be fetched. The
 * matching rule with the longest pattern wins; on a tie Allow wins (RFC 9309 §2.2.2); no matching
 * rule means allowed. /robots.txt itself is always allowed (§2.2.2).
 */
export function isPathAllowed(robots: RobotsTxt, pathWithQuery: string, userAgentToken: string): boolean {
  const path = normalizePath(pathWithQuery);
  if (path === '/robots.txt') return true;
  let best: RobotsRule | undefined;
  for (const rule of rulesFor(robots, userAgentToken)) {
    if (!patternMatches(rule.pattern, path)) continue;
    if (
      !best ||
      rule.pattern.length > best.pattern.length ||
      (rule.pattern.length === best.pattern.length && rule.allow && !best.allow)
    ) {
      best = rule;
    }
  }
  return best ? best.allow : true;
}

/**
 * `*` matches any run of characters, a final `$` anchors the end; otherwise a pattern matches any
 * path it is a prefix of. A two-pointer glob match rather than a RegExp: patterns come from the
 * network, and a built regex of many `*` can backtrack badly on long paths.
 */
export function patternMatches(pattern: string, path: string): boolean {
  const anchored = pattern.endsWith('$');
  const glob = anchored ? pattern.slice(0, -1) : `${pattern}*`;
  let p = 0;
  let s = 0;
  let starP = -1;
  let starS = 0;
  while (s < path.length) {
    if (p < glob.length && glob[p] === '*') {
      starP = p;
      starS = s;
      p += 1;
    } else if (p < glob.length && glob[p] === path[s]) {
      p += 1;
      s += 1;
    } else if (starP >= 0) {
      p = starP + 1;
      starS += 1;
      s = starS;
    } else {
      return false;
    }
  }
  while (p < glob.length && glob[p] === '*') p += 1;
  return p === glob.length;
}

function productToken(value: string): string {
  // "jobctrl/1.0 (+https://...)" names the product token "jobctrl" (RFC 9309 §2.2.1).
  return value.split(/[\s/]/, 1)[0].toLowerCase();
}

function normalizePattern(value: string): string {
  const withSlash = value.startsWith('/') || value.startsWith('*') ? value : `/${value}`;
  return normalizePath(withSlash);
}

/** Puts patterns and URL paths in one encoding so `/café` and `/caf%c3%a9` compare equal. */
function normalizePath(value: string): string {
  return value
    .replace(/[^\x21-\x7e]+/gu, (chars) => encodeURIComponent(chars))
    .replace(/%[0-9a-f]{2}/gi, (escape) => escape.toUpperCase());
}
