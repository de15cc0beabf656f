import type { HttpClient } from '../source-adapter.model';
import { MalformedResponseError } from '../source-adapter.model';

/** A non-2xx answer; `status` is what adapters look at (e.g. to skip a posting gone 404). */
export class HttpStatusError extends Error {
  constructor(
    readonly url: string,
    readonly status: number,
  ) {
    super(`GET ${url} answered ${status}`);
    this.name = 'HttpStatusError';
  }
}

/**
 * Minimal HttpClient for adapter tests, on global fetch (tests only talk to the local simulator).
 * No politeness, retries or robots.txt: that is the shared host policy's job. getJson parses with a
 * bare JSON.parse, so the adapters' own SyntaxError → MalformedResponseError conversion is exercised.
 */
export class FetchHttpClient implements HttpClient {
  /** Every URL requested, in order. */
  readonly requests: string[] = [];

  async getText(url: string, opts?: { signal?: AbortSignal }): Promise<string> {
    this.requests.push(url);
    const res = await fetch(url, { signal: opts?.signal });
    if (!res.ok) {
      await res.arrayBuffer().catch(() => undefined);
      throw new HttpStatusError(url, res.status);
    }
    try {
      return await res.text();
    } catch (err) {
      if (opts?.signal?.aborted) throw opts.signal.reason;
      // undici reports a body that ends before its Content-Length as "terminated".
      throw new MalformedResponseError(url, `body ended early (${err instanceof Error ? err.message : String(err)})`);
    }
  }

  async getJson<T = unknown>(url: string, opts?: { signal?: AbortSignal }): Promise<T> {
    return JSON.parse(await this.getText(url, opts)) as T;
  }
}
