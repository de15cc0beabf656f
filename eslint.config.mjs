// One flat config for the whole workspace. The module-boundary rule is the enforcement of
// ARCHITECTURE.md §2: a forbidden import fails `nx lint`, which `npm test` runs.
import nx from '@nx/eslint-plugin';

const nodeBuiltins = [
  'assert', 'async_hooks', 'buffer', 'child_process', 'cluster', 'crypto', 'dgram', 'dns', 'events', 'fs',
  'fs/promises', 'http', 'http2', 'https', 'module', 'net', 'os', 'path', 'perf_hooks', 'process',
  'readline', 'stream', 'timers', 'tls', 'url', 'util', 'v8', 'vm', 'worker_threads', 'zlib',
];

export default [
  ...nx.configs['flat/base'],
  ...nx.configs['flat/typescript'],
  { ignores: ['**/node_modules', '**/dist', '.tools', '.nx', 'tmp', 'coverage'] },
  {
    files: ['**/*.ts'],
    rules: {
      '@nx/enforce-module-boundaries': [
        'error',
        {
          enforceBuildableLibDependency: false,
          allow: [],
          depConstraints: [
            // Apps compose feature/domain libs, contracts and shared; only the worker hosts workflows.
            { sourceTag: 'type:app', onlyDependOnLibsWithTags: ['type:feature', 'type:domain', 'type:workflows', 'type:contracts', 'type:shared', 'type:tool'] },
            { sourceTag: 'app:api', notDependOnLibsWithTags: ['type:workflows'] },
            // A feature lib composes domains for the API (runs, jobs, profile, spend); no workflows, no apps.
            { sourceTag: 'type:feature', onlyDependOnLibsWithTags: ['type:domain', 'type:contracts', 'type:shared'] },
            // A domain lib never imports another domain lib: cross-domain flow goes through workflows.
            { sourceTag: 'type:domain', onlyDependOnLibsWithTags: ['type:contracts', 'type:shared'] },
            {
              sourceTag: 'type:workflows',
              onlyDependOnLibsWithTags: ['type:contracts'],
              bannedExternalImports: [
                'typeorm', 'sqlite3', '@nestjs/*', '@temporalio/activity', '@temporalio/client',
                '@temporalio/worker', 'playwright-core', 'node:*', ...nodeBuiltins,
              ],
            },
            { sourceTag: 'type:contracts', onlyDependOnLibsWithTags: ['type:contracts'] },
            { sourceTag: 'type:shared', onlyDependOnLibsWithTags: ['type:shared'] },
            { sourceTag: 'type:tool', onlyDependOnLibsWithTags: ['type:shared', 'type:tool'] },
          ],
        },
      ],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // Workflow code runs in Temporal's deterministic sandbox: an un-awaited promise there is a lost
    // command, so floating promises are errors (needs type information).
    files: ['libs/pipeline/workflows/src/**/*.ts', 'apps/worker/src/test-support/*.workflows.ts'],
    ignores: ['**/*.spec.ts'],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      // Node built-ins are not npm projects, so the boundary rule cannot ban them; this rule does.
      'no-restricted-imports': [
        'error',
        {
          paths: nodeBuiltins.map((name) => ({ name, message: 'workflow code runs in the deterministic sandbox: no Node built-ins' })),
          patterns: [{ group: ['node:*'], message: 'workflow code runs in the deterministic sandbox: no Node built-ins' }],
        },
      ],
    },
  },
];
