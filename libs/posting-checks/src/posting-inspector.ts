import { CheckFetcher, type CheckHttpPort, type CheckRendererPort } from './check-fetcher';
import { checkPostingAvailability } from './liveness/posting-ladder';
import type { InspectPosting } from './posting-check.runner';

export interface PostingInspectorDeps {
  /** The worker's one shared host policy: checks keep the same per-host spacing, in-flight cap and cooldowns as discovery and enrichment. */
  http: CheckHttpPort;
  /** The worker's browser, for pages that only exist after their scripts ran; none = such pages stay unknown. */
  renderer?: CheckRendererPort;
  now?: () => Date;
}

/** The ladder over a fresh CheckFetcher per check: every check gets its own request, byte and resource budget. */
export function createPostingInspector(deps: PostingInspectorDeps): InspectPosting {
  return async (target, signal) => {
    const fetcher = new CheckFetcher({ http: deps.http, renderer: deps.renderer, signal });
    try {
      return await checkPostingAvailability(target, fetcher, { now: deps.now?.() ?? new Date(), signal });
    } finally {
      fetcher.dispose();
    }
  };
}
