import { MalformedResponseError, SOURCE_KINDS, SourceConfigError } from './source-adapter.model';
import { SOURCE_ADAPTERS } from './source-adapter.registry';

describe('SOURCE_ADAPTERS', () => {
  it('has one adapter per source kind, registered under its own kind', () => {
    expect(Object.keys(SOURCE_ADAPTERS).sort()).toEqual([...SOURCE_KINDS].sort());
    for (const kind of SOURCE_KINDS) expect(SOURCE_ADAPTERS[kind].kind).toBe(kind);
  });

  it('every adapter rejects a config that is not an object with SourceConfigError', () => {
    for (const kind of SOURCE_KINDS) expect(() => SOURCE_ADAPTERS[kind].validateConfig(null)).toThrow(SourceConfigError);
  });
});

describe('errors', () => {
  it('carry a stable code and are not retryable', () => {
    const config = new SourceConfigError('lever', [{ field: 'site', value: 'a b', rule: 'must be a path segment' }]);
    expect(config).toMatchObject({ name: 'SourceConfigError', code: 'source_config_invalid', retryable: false });
    expect(config.message).toBe('invalid lever source config: site must be a path segment (got "a b")');
    const malformed = new MalformedResponseError('http://x.test/a', 'body.jobs must be an array');
    expect(malformed).toMatchObject({ name: 'MalformedResponseError', code: 'malformed_response', retryable: false, url: 'http://x.test/a' });
    expect(malformed.message).toBe('malformed response from http://x.test/a: body.jobs must be an array');
  });
});
