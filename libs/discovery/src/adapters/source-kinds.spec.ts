import { SOURCE_KINDS, SourceConfigError, type SourceConfigField, type SourceConfigIssue } from './source-adapter.model';
import { postingApiOf, SOURCE_ADAPTERS, sourceKinds } from './source-adapter.registry';

/** A value each declared field accepts: the published rules alone must be enough to write a valid config. */
function sample(field: SourceConfigField): unknown {
  switch (field.type) {
    case 'url':
      return 'http://127.0.0.1:9/api';
    case 'enum':
      return field.options?.[0];
    case 'integer':
      return field.min ?? 1;
    case 'boolean':
      return true;
    case 'string[]':
      return ['typescript'];
    case 'object':
      return sampleConfig(field.fields ?? []);
    case 'object[]':
      return [sampleConfig(field.fields ?? [])];
    default:
      return field.name === 'path' ? '/tmp/postings.json' : 'typescript';
  }
}

function sampleConfig(fields: readonly SourceConfigField[]): Record<string, unknown> {
  return Object.fromEntries(fields.map((f) => [f.name, sample(f)]));
}

function issuesOf(run: () => unknown): SourceConfigIssue[] {
  try {
    run();
    return [];
  } catch (err) {
    if (err instanceof SourceConfigError) return err.issues;
    throw err;
  }
}

describe('source kinds: the config rules each adapter publishes are the ones it validates with', () => {
  const kinds = sourceKinds();

  it('covers every kind in SOURCE_KINDS, in order, each with a label, a description and described fields', () => {
    expect(kinds.map((k) => k.kind)).toEqual([...SOURCE_KINDS]);
    for (const k of kinds) {
      expect(k.label).toBeTruthy();
      expect(k.description).toBeTruthy();
      const all = k.fields.flatMap((f) => [f, ...(f.fields ?? [])]);
      for (const f of all) expect({ kind: k.kind, field: f.name, described: Boolean(f.description) }).toEqual({ kind: k.kind, field: f.name, described: true });
      for (const f of all.filter((x) => x.type === 'enum')) expect(f.options?.length).toBeGreaterThan(0);
    }
  });

  it('a config holding every declared field is accepted (no declared key is refused)', () => {
    for (const k of kinds) expect({ kind: k.kind, issues: issuesOf(() => SOURCE_ADAPTERS[k.kind].validateConfig(sampleConfig(k.fields))) }).toEqual({ kind: k.kind, issues: [] });
  });

  it('leaving out a field is refused as required exactly when it is declared required, at every level', () => {
    for (const k of kinds) {
      const full = sampleConfig(k.fields);
      for (const f of k.fields) {
        const { [f.name]: _left, ...rest } = full;
        const named = issuesOf(() => SOURCE_ADAPTERS[k.kind].validateConfig(rest)).filter((i) => i.field === f.name);
        expect({ kind: k.kind, field: f.name, refusedAsRequired: named.some((i) => i.rule.includes('is required')) }).toEqual({ kind: k.kind, field: f.name, refusedAsRequired: f.required });
        for (const sub of f.type === 'object[]' ? (f.fields ?? []) : []) {
          const { [sub.name]: _gone, ...item } = sampleConfig(f.fields ?? []);
          const subIssues = issuesOf(() => SOURCE_ADAPTERS[k.kind].validateConfig({ ...full, [f.name]: [item] })).filter((i) => i.field === `${f.name}[0].${sub.name}`);
          expect({ kind: k.kind, field: `${f.name}[].${sub.name}`, refused: subIssues.length > 0 }).toEqual({ kind: k.kind, field: `${f.name}[].${sub.name}`, refused: sub.required });
        }
      }
    }
  });

  it('a key no declaration names is refused, naming the declared ones', () => {
    for (const k of kinds) {
      const issues = issuesOf(() => SOURCE_ADAPTERS[k.kind].validateConfig({ ...sampleConfig(k.fields), serach: 'x' }));
      expect(issues).toEqual([{ field: 'serach', value: 'x', rule: `is not a known field (known: ${k.fields.map((f) => f.name).join(', ')})` }]);
    }
  });

  it('a declared default is what validation fills in when the key is absent', () => {
    for (const k of kinds) {
      for (const f of k.fields.filter((x) => x.default !== undefined)) {
        const { [f.name]: _left, ...rest } = sampleConfig(k.fields);
        expect({ kind: k.kind, field: f.name, value: (SOURCE_ADAPTERS[k.kind].validateConfig(rest) as Record<string, unknown>)[f.name] }).toEqual({ kind: k.kind, field: f.name, value: f.default });
      }
    }
  });

  it('an adapter reading a field it does not declare fails loudly (a programming error, not a 400)', () => {
    const adapter = SOURCE_ADAPTERS.greenhouse;
    const original = adapter.fields;
    Object.defineProperty(adapter, 'fields', { value: original.filter((f) => f.name !== 'board_token'), configurable: true });
    try {
      expect(() => adapter.validateConfig({})).toThrow('greenhouse adapter reads config field board_token, which it does not declare');
    } finally {
      Object.defineProperty(adapter, 'fields', { value: original, configurable: true });
    }
  });
});

describe('postingApiOf: the board API a posting check asks, from the adapters only', () => {
  it('single-company boards: the board key of each kind, base_url without its trailing slash, else the public API', () => {
    expect(postingApiOf('greenhouse', { board_token: 'acme', base_url: 'http://127.0.0.1:9/' })).toEqual({ baseUrl: 'http://127.0.0.1:9', board: 'acme' });
    expect(postingApiOf('greenhouse', { board_token: 'acme' })).toEqual({ baseUrl: 'https://boards-api.greenhouse.io', board: 'acme' });
    expect(postingApiOf('lever', { site: 'globex' })).toEqual({ baseUrl: 'https://api.lever.co', board: 'globex' });
    expect(postingApiOf('ashby', { board: 'initech' })).toEqual({ baseUrl: 'https://api.ashbyhq.com', board: 'initech' });
    expect(postingApiOf('smartrecruiters', { company_id: 'Hooli' })).toEqual({ baseUrl: 'https://api.smartrecruiters.com', board: 'Hooli' });
    expect(postingApiOf('workable', { account: 'umbrella', company_name: 'Umbrella' })).toEqual({ baseUrl: 'https://apply.workable.com', board: 'umbrella' });
  });

  it('null for kinds without a per-posting API and for configs the adapter refuses', () => {
    for (const kind of ['remotive', 'remoteok', 'arbeitnow', 'file', 'jobstreaming', 'nonsense']) expect(postingApiOf(kind, { search: 'x' })).toBeNull();
    expect(postingApiOf('greenhouse', { board_token: '' })).toBeNull();
    expect(postingApiOf('greenhouse', { board_token: 'a/b' })).toBeNull();
    expect(postingApiOf('lever', null)).toBeNull();
  });
});
