// One flat config for the whole workspace. The module-boundary rule is the enforcement of
// ARCHITECTURE.md §2: a forbidden import fails `nx lint`, which `npm test` runs.
import nx from '@nx/eslint-plugin';

const nodeBuiltins = [
  'assert', 'async_hooks', 'buffer', 'child_process', 'cluster', 'crypto', 'dgram', 'dns', 'events', 'fs',
  'fs/promises', 'http', 'http2', 'https', 'module', 'net', 'os', 'path', 'perf_hooks', 'process',
  'readline', 'stream', 'timers', 'tls', 'url', 'util', 'v8', 'vm', 'worker_threads', 'zlib',
];

const depConstraints = [
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
  // Tools (stack, Temporal CLI, simulator, process helpers, db:migrate) run beside the product and use only shared libs.
  { sourceTag: 'type:tool', onlyDependOnLibsWithTags: ['type:shared', 'type:tool'] },
  // A benchmark runs the product as the worker app builds it: domain activities, contracts, shared libs,
  // and tools (Temporal dev server, board simulator). The worker app itself: see the tools/bench block.
  { sourceTag: 'type:bench', onlyDependOnLibsWithTags: ['type:domain', 'type:contracts', 'type:shared', 'type:tool'] },
];

// Test code (specs, a lib's `testing/` entry point, the worker's test-support) may also import tools:
// the board simulator, the Temporal dev server and the process helpers are fixtures, and a domain lib's
// `/testing` helper that wraps the simulator is what its specs share. Production files of the same
// project still may not, so a tool never ends up in what an app runs.
const TEST_FILES = ['**/*.spec.ts', '**/testing/**/*.ts', '**/test-support/**/*.ts'];
const testDepConstraints = depConstraints.map((c) =>
  c.onlyDependOnLibsWithTags && !c.onlyDependOnLibsWithTags.includes('type:tool')
    ? { ...c, onlyDependOnLibsWithTags: [...c.onlyDependOnLibsWithTags, 'type:tool'] }
    : c,
);

/** The boundary rule; a later block that sets it replaces the whole options object, hence one builder. */
function moduleBoundaries(constraints, allow = []) {
  return ['error', { enforceBuildableLibDependency: false, allow, depConstraints: constraints }];
}

export default [
  ...nx.configs['flat/base'],
  ...nx.configs['flat/typescript'],
  { ignores: ['**/node_modules', '**/dist', '.tools', '.nx', 'tmp', 'coverage'] },
  {
    files: ['**/*.ts'],
    rules: {
      '@nx/enforce-module-boundaries': moduleBoundaries(depConstraints),
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: TEST_FILES,
    rules: { '@nx/enforce-module-boundaries': moduleBoundaries(testDepConstraints) },
  },
  {
    // The bench measures the product worker exactly as apps/worker builds it, so it imports four files
    // of the worker app: its factory (create-worker), its activities (buildActivities), the
    // pipeline's LLM responder and the simulators' host policy (the one place loopback is allowed for
    // them). Apps are no libraries; these four, from the bench only, are the one named exception (a
    // regular expression on the import, anchored so nothing else of an app matches).
    files: ['tools/bench/**/*.ts'],
    rules: {
      '@nx/enforce-module-boundaries': moduleBoundaries(depConstraints, [
        '^\\.\\./\\.\\./apps/worker/src/(create-worker|activities|test-support/llm-responder|test-support/simulator-host-policy)$',
      ]),
    },
  },
  {
    // The fault suite (npm run faults) answers the stack's model calls with the same LLM responder as the
    // bench, so preparations run to the end against the LLM simulator; nothing else of the worker app.
    files: ['tools/faults/**/*.ts'],
    rules: {
      '@nx/enforce-module-boundaries': moduleBoundaries(depConstraints, ['^\\.\\./\\.\\./apps/worker/src/test-support/llm-responder$']),
    },
  },
  {
    // Workflow code runs in Temporal's deterministic sandbox: an un-awaited promise there is a lost
    // command, so floating promises are errors (needs type information). Matched by path, so workflow
    // files outside the workflows lib (the worker's test workflows, the bench's baseline) obey it too.
    files: ['libs/pipeline/workflows/src/**/*.ts', 'apps/worker/src/test-support/*.workflows.ts', 'tools/bench/*.workflow.ts'],
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
