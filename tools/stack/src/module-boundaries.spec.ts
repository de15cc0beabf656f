// The dependency rules of ARCHITECTURE.md §2 are enforced by lint, not by good will: these cases
// lint real source text at real paths with the workspace's own ESLint config and expect a failure.
import * as path from 'node:path';
import { spawnSync } from 'node:child_process';

const root = path.resolve(__dirname, '..', '..', '..');
// Workflow files are linted with type information, so the text is linted under an existing path.
const WORKFLOW_FILE = 'libs/pipeline/workflows/src/smoke.workflow.ts';

/** Runs the ESLint CLI (as `nx lint` does; its flat config is ESM, which jest cannot load in-process). */
async function boundaryErrors(file: string, code: string): Promise<string[]> {
  const res = spawnSync(
    process.execPath,
    [require.resolve('eslint/bin/eslint.js', { paths: [root] }), '--stdin', '--stdin-filename', path.join(root, file), '--format', 'json'],
    { cwd: root, input: code, encoding: 'utf8', env: { ...process.env, NX_DAEMON: 'false' } },
  );
  if (!res.stdout.trim().startsWith('[')) throw new Error(`eslint did not run: ${res.stderr}`);
  const [result] = JSON.parse(res.stdout) as Array<{ messages: Array<{ ruleId: string | null; message: string }> }>;
  return result.messages
    .filter((m) => m.ruleId === '@nx/enforce-module-boundaries' || m.ruleId === 'no-restricted-imports')
    .map((m) => m.message);
}

describe('module boundaries (nx lint)', () => {
  it('forbids a domain lib importing another domain lib', async () => {
    const errors = await boundaryErrors('libs/scoring/src/x.ts', `import { DiscoveryModule } from '@jobctrl/discovery';\nexport const x = DiscoveryModule;\n`);
    expect(errors.join('\n')).toMatch(/type:domain/);
  });

  it('forbids workflows importing Node built-ins, TypeORM or the activity SDK', async () => {
    // One lint run with every banned import on its own line (type-aware lint is slow to start).
    const banned = ['node:fs', 'fs', 'typeorm', 'sqlite3', '@nestjs/common', '@temporalio/activity', '@temporalio/client'];
    const code = banned.map((b, i) => `import * as m${i} from '${b}';`).join('\n') + `\nexport const x = [${banned.map((_, i) => `m${i}`).join(', ')}];\n`;
    const errors = await boundaryErrors(WORKFLOW_FILE, code);
    expect(errors).toHaveLength(banned.length);
    for (const e of errors) expect(e).toMatch(/not allowed to import|no Node built-ins/);
  });

  it('forbids workflows importing shared libs, and the API app importing workflows', async () => {
    expect(await boundaryErrors(WORKFLOW_FILE, `import { loadConfig } from '@jobctrl/shared/config';\nexport const x = loadConfig;\n`)).not.toEqual([]);
    expect(await boundaryErrors('apps/api/src/x.ts', `import { smokeWorkflow } from '@jobctrl/pipeline/workflows';\nexport const x = smokeWorkflow;\n`)).not.toEqual([]);
  });

  it('forbids shared libs importing contracts or domain libs, and contracts importing shared', async () => {
    expect(await boundaryErrors('libs/shared/db/src/x.ts', `import { ErrorCodes } from '@jobctrl/pipeline/contracts';\nexport const x = ErrorCodes;\n`)).not.toEqual([]);
    expect(await boundaryErrors('libs/pipeline/contracts/src/x.ts', `import { loadConfig } from '@jobctrl/shared/config';\nexport const x = loadConfig;\n`)).not.toEqual([]);
  });

  it('keeps the feature tier between apps and domains: a domain lib cannot import a feature lib, nor a feature lib workflows', async () => {
    expect((await boundaryErrors('libs/preparation/src/x.ts', `import { RunsModule } from '@jobctrl/runs';\nexport const x = RunsModule;\n`)).join('\n')).toMatch(/type:domain/);
    expect((await boundaryErrors('libs/runs/src/x.ts', `import { smokeWorkflow } from '@jobctrl/pipeline/workflows';\nexport const x = smokeWorkflow;\n`)).join('\n')).toMatch(/type:feature/);
    expect(await boundaryErrors('libs/shared/jobs/src/x.ts', `import { RunsModule } from '@jobctrl/runs';\nexport const x = RunsModule;\n`)).not.toEqual([]);
  });

  it('lets contracts and shared libs import the error codes, which themselves import nothing of ours', async () => {
    const codes = `import { ErrorCodes } from '@jobctrl/shared/errors';\nexport const x = ErrorCodes;\n`;
    expect(await boundaryErrors('libs/pipeline/contracts/src/x.ts', codes)).toEqual([]);
    expect(await boundaryErrors('libs/shared/db/src/x.ts', codes)).toEqual([]);
    expect(await boundaryErrors('libs/shared/errors/src/x.ts', `import { loadConfig } from '@jobctrl/shared/config';\nexport const x = loadConfig;\n`)).not.toEqual([]);
    expect(await boundaryErrors('libs/shared/errors/src/x.ts', `import { RETRY_POLICIES } from '@jobctrl/pipeline/contracts';\nexport const x = RETRY_POLICIES;\n`)).not.toEqual([]);
  });

  it('allows the permitted directions', async () => {
    expect(await boundaryErrors('libs/scoring/src/x.ts', `import { loadConfig } from '@jobctrl/shared/config';\nexport const x = loadConfig;\n`)).toEqual([]);
    expect(await boundaryErrors('apps/worker/src/x.ts', `import { smokeWorkflow } from '@jobctrl/pipeline/workflows';\nexport const x = smokeWorkflow;\n`)).toEqual([]);
    expect(await boundaryErrors(WORKFLOW_FILE, `import { ErrorCodes } from '@jobctrl/pipeline/contracts';\nexport const x = ErrorCodes;\n`)).toEqual([]);
    // The feature tier: a feature lib composes domain libs; the API app uses the feature lib.
    expect(await boundaryErrors('libs/runs/src/x.ts', `import { SourceService } from '@jobctrl/discovery';\nexport const x = SourceService;\n`)).toEqual([]);
    expect(await boundaryErrors('apps/api/src/x.ts', `import { RunsModule } from '@jobctrl/runs';\nexport const x = RunsModule;\n`)).toEqual([]);
  });
});
