// `npm run bench:scale`: discover + score over one board of 100, 1,000 and 5,000 postings; ms/job per
// size and the ratio of the largest to the smallest. See tools/bench/README.md. Progress on stderr;
// the last stdout line is the JSON result.
import { parseScaleArgs, SCALE_USAGE } from './scale-bench.args';
import { runBenchEntry } from './bench-entry';

runBenchEntry({ usage: SCALE_USAGE, parse: parseScaleArgs, load: () => (require('./scale-bench.runner') as typeof import('./scale-bench.runner')).runScaleCommand });
