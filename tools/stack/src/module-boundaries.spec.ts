// The dependency rules of ARCHITECTURE.md §2 are enforced by lint, not by good will: these cases
// lint real source text at real paths with the workspace's own ESLint config and expect a failure.
import * as fs from 'node:fs';
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

const NOT_SOURCE = new Set(['node_modules', '.git', '.nx', '.tools', 'dist', 'tmp', 'coverage']);

/** Every .ts/.js/.mjs file below `dir` (relative to the workspace root), generated and installed folders aside. */
function sourceFiles(dir: string): string[] {
  return fs.readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const rel = dir ? `${dir}/${entry.name}` : entry.name;
    if (entry.isDirectory()) return NOT_SOURCE.has(entry.name) ? [] : sourceFiles(rel);
    return /\.(ts|js|mjs)$/.test(entry.name) ? [rel] : [];
  });
}

/** Whether the nearest project.json above `file` declares a lint target. */
function hasLintedProject(file: string): boolean {
  for (let dir = path.dirname(file); dir !== '.'; dir = path.dirname(dir)) {
    const projectJson = path.join(root, dir, 'project.json');
    if (fs.existsSync(projectJson)) return Boolean((JSON.parse(fs.readFileSync(projectJson, 'utf8')) as { targets?: { lint?: unknown } }).targets?.lint);
  }
  return false;
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

  it('lets test code import tools (the board simulator), production code of a lib not', async () => {
    const simulator = `import { startBoardSimulator } from '@jobctrl/tools/fixtures';\nexport const x = startBoardSimulator;\n`;
    expect(await boundaryErrors('libs/discovery/src/adapters/testing/x.ts', simulator)).toEqual([]);
    expect(await boundaryErrors('libs/discovery/src/x.spec.ts', simulator)).toEqual([]);
    expect((await boundaryErrors('libs/discovery/src/x.ts', simulator)).join('\n')).toMatch(/type:domain/);
  });

  it('lints the bench and db:migrate as projects: the bench may use the worker app\'s factory and nothing else of an app', async () => {
    expect(await boundaryErrors('tools/bench/x.ts', `import { createJobctrlWorker } from '../../apps/worker/src/create-worker';\nexport const x = createJobctrlWorker;\n`)).toEqual([]);
    expect(await boundaryErrors('tools/bench/x.ts', `import { AppModule } from '../../apps/api/src/app.module';\nexport const x = AppModule;\n`)).not.toEqual([]);
    expect((await boundaryErrors('tools/bench/x.ts', `import { RunsModule } from '@jobctrl/runs';\nexport const x = RunsModule;\n`)).join('\n')).toMatch(/type:bench/);
    expect((await boundaryErrors('tools/db/x.ts', `import { SourceService } from '@jobctrl/discovery';\nexport const x = SourceService;\n`)).join('\n')).toMatch(/type:tool/);
  });

  it('lints the bench\'s baseline workflow as workflow code', async () => {
    const errors = await boundaryErrors('tools/bench/batch-discover.workflow.ts', `import * as fs from 'node:fs';\nexport const x = fs;\n`);
    expect(errors.join('\n')).toMatch(/no Node built-ins/);
  });

  it('puts every TypeScript and JavaScript file in a project with a lint target', () => {
    // The workspace's own config files at the root belong to no project, on purpose.
    const WORKSPACE_CONFIG = new Set(['eslint.config.mjs', 'jest.preset.js']);
    const unlinted = sourceFiles('').filter((file) => !WORKSPACE_CONFIG.has(file) && !hasLintedProject(file));
    expect(unlinted).toEqual([]);
  });

  it('keeps test helpers out of production entry points: they are exported by a lib\'s /testing entry', () => {
    const { compilerOptions } = JSON.parse(fs.readFileSync(path.join(root, 'tsconfig.base.json'), 'utf8')) as { compilerOptions: { paths: Record<string, string[]> } };
    const production = Object.entries(compilerOptions.paths).filter(([alias]) => !alias.endsWith('/testing'));
    const fromTesting = production
      .filter(([, [file]]) => /from '[^']*[/.]testing[^']*'/.test(fs.readFileSync(path.join(root, file), 'utf8')))
      .map(([alias]) => alias);
    expect(fromTesting).toEqual([]);
    expect(Object.keys(compilerOptions.paths)).toEqual(expect.arrayContaining(['@jobctrl/shared/db/testing', '@jobctrl/shared/jobs/testing', '@jobctrl/shared/llm/testing', '@jobctrl/shared/profile/testing']));
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
