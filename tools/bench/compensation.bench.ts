// npm run bench:compensation [-- --corpus FILE.jsonl]: the deterministic compensation parser against
// a labelled corpus (default: libs/compensation/corpus/salaries.jsonl). The failing rows go to
// stderr; the last stdout line is one JSON object {rows, exact, accuracy, fields, undecided}.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseFlags, parseOrExit } from './bench-args';
import { parseCorpus, scoreCorpus } from './compensation-bench.runner';

const USAGE = `Usage: npm run bench:compensation -- [--corpus FILE.jsonl]

Exact-match accuracy of the compensation parser (no model) on a labelled corpus. Each line:
{"text": "...", "expect": {"kind", "currency", "interval", "min", "max"}, "country"?: "US", "field"?: "description"}

  --corpus FILE   the corpus                         default libs/compensation/corpus/salaries.jsonl
  -h, --help      this text`;

function parse(argv: string[]): { corpus: string } | 'help' {
  const values = parseFlags(argv, { corpus: { type: 'string' } });
  if (values === 'help') return 'help';
  return { corpus: resolve(values.corpus ?? resolve(__dirname, '../../libs/compensation/corpus/salaries.jsonl')) };
}

function main(): void {
  const { corpus } = parseOrExit(() => parse(process.argv.slice(2)), USAGE);
  const { failures, ...result } = scoreCorpus(parseCorpus(readFileSync(corpus, 'utf8')));
  for (const f of failures) {
    process.stderr.write(`line ${f.line}: ${JSON.stringify(f.text)}\n  expected ${JSON.stringify(f.expected)}\n  got      ${JSON.stringify(f.got)}\n`);
  }
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

main();
