// The web app's lint: the workspace rules, plus the rule that makes it a pure HTTP client. It talks to
// the API over /v1 only and takes its types from the generated client (src/api/schema.gen.ts), so no
// import of the workspace's libraries — not even a type — may creep in (ARCHITECTURE §2: apps/web).
import root from '../../eslint.config.mjs';

export default [
  ...root,
  {
    files: ['**/*.ts', '**/*.tsx'],
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['@jobctrl/*'], message: 'the web app talks to the API over HTTP; take types from src/api/schema.gen.ts' },
            { group: ['../../libs/*', '../../../libs/*', '../../../../libs/*', '**/apps/api/*'], message: 'the web app imports no workspace code' },
          ],
        },
      ],
    },
  },
];
