import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseCorpus, scoreCorpus } from './compensation-bench.runner';

const tiny = [
  { text: 'Lendable | London, UK | ONSITE | £60-85k + Benefits', expect: { kind: 'base', currency: 'GBP', interval: 'year', min: 60000, max: 85000 } },
  { text: 'Employer Provided Salary:$23 - $29 Per Hour', country: 'AU', expect: { kind: 'hourly', currency: 'AUD', interval: 'hour', min: 23, max: 29 } },
  // Labelled wrong on purpose (the posting says GBP): the row must fail on currency only.
  { text: '£33,699 pa', expect: { kind: 'base', currency: 'EUR', interval: 'year', min: 33699, max: 33699 } },
  { text: 'Salary: 60k-100k + equity', expect: { kind: 'base', currency: null, interval: 'year', min: 60000, max: 100000 } },
].map((row) => JSON.stringify(row)).join('\n');

describe('compensation bench', () => {
  it('scores exact rows, per-field accuracy and undecided rows', () => {
    const result = scoreCorpus(parseCorpus(tiny));
    expect(result).toMatchObject({ rows: 4, exact: 2, accuracy: 0.5, undecided: 1, fields: { kind: 0.75, currency: 0.5, interval: 0.75, min: 0.75, max: 0.75 } });
    expect(result.failures.map((f) => f.line)).toEqual([3, 4]);
  });

  it('names a malformed line', () => {
    expect(() => parseCorpus('{"text": "x", "expect": {}}\nnot json')).toThrow(/corpus line 2/);
  });

  it('prints one JSON object as the last stdout line and the failing texts on stderr', () => {
    const dir = mkdtempSync(join(tmpdir(), 'comp-bench-'));
    const corpus = join(dir, 'tiny.jsonl');
    writeFileSync(corpus, tiny);
    const run = spawnSync(process.execPath, ['-r', 'ts-node/register/transpile-only', '-r', 'tsconfig-paths/register', resolve(__dirname, 'compensation.bench.ts'), '--corpus', corpus], {
      cwd: resolve(__dirname, '../..'),
      env: { ...process.env, TS_NODE_PROJECT: 'tsconfig.base.json' },
      encoding: 'utf8',
    });
    expect(run.status).toBe(0);
    expect(JSON.parse(run.stdout.trim().split('\n').pop() ?? '')).toEqual({
      rows: 4, exact: 2, accuracy: 0.5, undecided: 1, fields: { kind: 0.75, currency: 0.5, interval: 0.75, min: 0.75, max: 0.75 },
    });
    expect(run.stderr).toContain('line 3: "£33,699 pa"');
    expect(run.stderr).toContain('line 4: "Salary: 60k-100k + equity"');
  });

  it('reaches at least 0.95 exact on the repo corpus of at least 200 rows', () => {
    const result = scoreCorpus(parseCorpus(readFileSync(resolve(__dirname, '../../libs/compensation/corpus/salaries.jsonl'), 'utf8')));
    expect(result.rows).toBeGreaterThanOrEqual(200);
    expect(result.accuracy).toBeGreaterThanOrEqual(0.95);
  });
});
