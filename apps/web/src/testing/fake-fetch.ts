// A fetch for component tests: routes 'METHOD /path' to handlers that get the parsed JSON body, and
// records every call. jsdom has no fetch of its own; the real one is exercised by the e2e suite.
export type Route = [string, (body: unknown) => Response | Promise<Response>];

interface Call {
  method: string;
  path: string;
  body: unknown;
}

let calls: Call[] = [];

export const fetchCalls = (): Call[] => calls;

/** A JSON answer, as the API sends it. */
export function answer(status: number, body: unknown): Response {
  const text = body === null ? '' : JSON.stringify(body);
  return {
    ok: status >= 200 && status < 300,
    status,
    headers: { get: () => null },
    text: async () => text,
  } as unknown as Response;
}

export function installFetch(routes: Route[]): void {
  calls = [];
  (globalThis as { fetch: unknown }).fetch = async (url: string, init: RequestInit = {}) => {
    const method = init.method ?? 'GET';
    const path = url.split('?')[0];
    const body = typeof init.body === 'string' ? JSON.parse(init.body) : undefined;
    calls.push({ method, path, body });
    const route = routes.find(([key]) => key === `${method} ${path}`);
    if (!route) throw new Error(`no fake route for ${method} ${path}`);
    return route[1](body);
  };
}

/** The text of the field error a control points at with aria-describedby ('' when none). */
export function fieldErrorOf(control: HTMLElement): string {
  const ids = (control.getAttribute('aria-describedby') ?? '').split(' ').filter(Boolean);
  return ids.map((id) => document.getElementById(id)).find((el) => el?.classList.contains('field-error'))?.textContent ?? '';
}
