import { ApplicationFailure } from '@temporalio/common';
import { LLM_ERROR_CODES, LlmError, codeForStatus, parseRetryAfterMs, toActivityFailure } from './llm.errors';

describe('LlmError', () => {
  it('takes retryability from the code table', () => {
    for (const [code, info] of Object.entries(LLM_ERROR_CODES)) {
      expect(new LlmError(code as keyof typeof LLM_ERROR_CODES, 'x').retryable).toBe(info.retryable);
    }
    expect(Object.keys(LLM_ERROR_CODES).sort()).toEqual([
      'llm_auth',
      'llm_bad_request',
      'llm_cancelled',
      'llm_invalid_output',
      'llm_network',
      'llm_rate_limited',
      'llm_server',
      'llm_timeout',
    ]);
  });

  it.each([
    [429, 'llm_rate_limited'],
    [401, 'llm_auth'],
    [403, 'llm_auth'],
    [400, 'llm_bad_request'],
    [404, 'llm_bad_request'],
    [413, 'llm_bad_request'],
    [422, 'llm_bad_request'],
    [500, 'llm_server'],
    [503, 'llm_server'],
    [529, 'llm_server'],
    [408, 'llm_timeout'],
  ])('maps HTTP %i to %s', (status, code) => {
    expect(codeForStatus(status)).toBe(code);
  });
});

describe('parseRetryAfterMs', () => {
  const now = Date.parse('2025-01-01T00:00:00Z');

  it('reads delta-seconds and HTTP-dates', () => {
    expect(parseRetryAfterMs('2', null, now)).toBe(2000);
    expect(parseRetryAfterMs('0', null, now)).toBe(0);
    expect(parseRetryAfterMs('Wed, 01 Jan 2025 00:00:30 GMT', null, now)).toBe(30_000);
    expect(parseRetryAfterMs('Tue, 31 Dec 2024 23:59:00 GMT', null, now)).toBe(0);
  });

  it('prefers retry-after-ms and ignores garbage', () => {
    expect(parseRetryAfterMs('2', '150', now)).toBe(150);
    expect(parseRetryAfterMs('soon', null, now)).toBeUndefined();
    expect(parseRetryAfterMs(null, null, now)).toBeUndefined();
  });
});

describe('toActivityFailure', () => {
  it('maps a retryable LlmError to a retryable failure typed by code, with the provider delay', () => {
    const failure = toActivityFailure(new LlmError('llm_rate_limited', 'slow down', { status: 429, retryAfterMs: 2000 }));
    expect(failure).toBeInstanceOf(ApplicationFailure);
    expect(failure).toMatchObject({ type: 'llm_rate_limited', nonRetryable: false, nextRetryDelay: 2000, message: 'slow down' });
  });

  it('maps a non-retryable LlmError to a non-retryable failure', () => {
    const failure = toActivityFailure(new LlmError('llm_auth', 'bad key', { status: 401 }));
    expect(failure).toMatchObject({ type: 'llm_auth', nonRetryable: true });
    expect(failure.nextRetryDelay).toBeUndefined();
  });

  it('wraps other errors as retryable llm_unexpected and passes ApplicationFailures through', () => {
    const boom = new Error('boom');
    expect(toActivityFailure(boom)).toMatchObject({ type: 'llm_unexpected', nonRetryable: false, message: 'boom', cause: boom });
    expect(toActivityFailure('text')).toMatchObject({ type: 'llm_unexpected', message: 'text' });
    const existing = ApplicationFailure.nonRetryable('nope', 'other');
    expect(toActivityFailure(existing)).toBe(existing);
  });
});
