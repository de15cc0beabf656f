// Appends each jest run's totals to the file named by JOBCTRL_TEST_SUMMARY (one JSON line per
// project run), so `npm test` can print one closing "N passed, N failed" line for all projects.
const fs = require('node:fs');

class JestSummaryReporter {
  constructor(globalConfig) {
    this.globalConfig = globalConfig;
  }

  onRunComplete(_contexts, results) {
    const file = process.env.JOBCTRL_TEST_SUMMARY;
    if (!file) return;
    const line = {
      project: this.globalConfig.rootDir,
      passed: results.numPassedTests,
      failed: results.numFailedTests,
      skipped: results.numPendingTests + results.numTodoTests,
      suitesFailed: results.numFailedTestSuites + results.numRuntimeErrorTestSuites,
    };
    fs.appendFileSync(file, JSON.stringify(line) + '\n');
  }
}

module.exports = JestSummaryReporter;
