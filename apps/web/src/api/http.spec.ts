import { apiRequest, ApiRequestError, describeApiError, errorsFor, loginUrl, queryString, toApiError, unauthorized } from './http';

describe('API errors', () => {
  it('a 400 keeps each field error (field, value, rule) and the message', () => {
    const e = toApiError(400, {
      statusCode: 400,
      error: 'Bad Request',
      message: 'config.board = 7: must be a string',
      errors: [{ field: 'config.board', value: 7, rule: 'must be a string' }, { field: 'name', value: '', rule: 'must not be empty' }],
    });
    expect(e).toMatchObject({ status: 400, code: null, message: 'config.board = 7: must be a string' });
    expect(errorsFor(e, 'config')).toEqual([{ field: 'config.board', value: 7, rule: 'must be a string' }]);
    expect(errorsFor(e, 'name')).toEqual([{ field: 'name', value: '', rule: 'must not be empty' }]);
    expect(errorsFor(e, 'nam')).toEqual([]);
  });

  it('a 409 refusal keeps its code and blockers; the line names the code', () => {
    const e = toApiError(409, { statusCode: 409, error: 'Conflict', code: 'availability_stale', message: 'the posting was not checked in the last 24 h', blockers: ['availability_stale', 'daily_cap_reached'] });
    expect(e.code).toBe('availability_stale');
    expect(e.blockers).toEqual(['availability_stale', 'daily_cap_reached']);
    expect(describeApiError(e)).toBe('the posting was not checked in the last 24 h (availability_stale)');
  });

  it('a 429 says when to try again, from the body or the Retry-After header', () => {
    expect(describeApiError(toApiError(429, { message: 'the foreground share is spent', retryAfterSeconds: 13 }))).toBe('the foreground share is spent — try again in 13 s.');
    expect(toApiError(429, null, '120').retryAfterSeconds).toBe(120);
    expect(describeApiError(toApiError(429, { message: 'spent', retryAfterSeconds: 600 }))).toBe('spent — try again in 10 min.');
  });

  it('bodies that are not the API’s JSON still read as a sentence', () => {
    expect(toApiError(502, '<html>Bad gateway</html>').message).toBe('<html>Bad gateway</html>');
    expect(toApiError(503, null).message).toBe('The worker is not ready');
    expect(toApiError(400, { message: ['a must be a number', 'b must be set'] }).message).toBe('a must be a number; b must be set');
    expect(describeApiError(toApiError(0, null))).toBe('The API did not answer. Is the API running?');
  });
});

describe('queryString', () => {
  it('leaves out unset values and repeats arrays', () => {
    expect(queryString({ a: 1, b: '', c: null, d: undefined, e: ['x', 'y'], f: false })).toBe('?a=1&e=x&e=y&f=false');
    expect(queryString({})).toBe('');
  });
});

describe('a 401 (the API wants its token)', () => {
  const realFetch = globalThis.fetch;
  const realGo = unauthorized.go;
  afterEach(() => {
    globalThis.fetch = realFetch;
    unauthorized.go = realGo;
  });

  // jsdom has no Response: the part of one apiRequest reads.
  const answer = (status: number, body: unknown) => (async () => ({ status, ok: status < 300, text: async () => JSON.stringify(body), headers: new Map<string, string>() })) as unknown as typeof fetch;

  it('sends the browser to the API’s login page, which brings it back to the page it was on', async () => {
    expect(loginUrl({ pathname: '/jobs', search: '?stage=prepared' })).toBe('/login?next=%2Fjobs%3Fstage%3Dprepared');
    const visited: string[] = [];
    unauthorized.go = (url) => visited.push(url);
    globalThis.fetch = answer(401, { statusCode: 401, error: 'Unauthorized', message: 'this API requires its token' });
    await expect(apiRequest('GET', '/v1/jobs')).rejects.toBeInstanceOf(ApiRequestError);
    expect(visited).toEqual([loginUrl(window.location)]);
    globalThis.fetch = answer(403, {});
    await expect(apiRequest('GET', '/v1/jobs')).rejects.toBeInstanceOf(ApiRequestError);
    expect(visited).toHaveLength(1);
  });
});
