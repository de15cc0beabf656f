// The staleness check and the alias resolver of the production build (tools/build), on real files.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { spawnSync } from 'node:child_process';

// Plain-JS build tools (they run before anything is compiled), loaded by path as start.js loads them.
const stamp = require(path.join(__dirname, '..', '..', 'build', 'build-stamp.js')) as {
  takeStamp(root: string, inputs: { files: string[]; dirs: string[] }): unknown;
  writeStamp(outDir: string, stamp: unknown): void;
  staleReason(root: string, outDir: string): string | null;
};

describe('build staleness stamp', () => {
  let root: string;
  let out: string;
  beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'jobctrl-stamp-'));
    out = path.join(root, 'dist');
    fs.mkdirSync(path.join(root, 'src', 'sub'), { recursive: true });
    fs.mkdirSync(out);
    fs.writeFileSync(path.join(root, 'src', 'a.ts'), 'export const a = 1;');
    fs.writeFileSync(path.join(root, 'src', 'sub', 'b.ts'), 'export const b = 1;');
    fs.writeFileSync(path.join(root, 'tsconfig.base.json'), '{}');
  });
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  const build = () => stamp.writeStamp(out, stamp.takeStamp(root, { files: ['src/a.ts', 'tsconfig.base.json'], dirs: ['src/sub'] }));

  it('a tree without a stamp is stale; right after a build it is fresh', () => {
    expect(stamp.staleReason(root, out)).toBe('never built');
    build();
    expect(stamp.staleReason(root, out)).toBeNull();
  });

  it('an edited, deleted or added input makes it stale', () => {
    build();
    const later = new Date(Date.now() + 5_000);
    fs.utimesSync(path.join(root, 'src', 'a.ts'), later, later);
    expect(stamp.staleReason(root, out)).toBe('sources changed');

    build();
    fs.rmSync(path.join(root, 'tsconfig.base.json'));
    expect(stamp.staleReason(root, out)).toBe('sources changed');

    fs.writeFileSync(path.join(root, 'tsconfig.base.json'), '{}');
    build();
    fs.writeFileSync(path.join(root, 'src', 'sub', 'c.ts'), 'export const c = 1;'); // a folder read whole
    expect(stamp.staleReason(root, out)).toBe('sources changed');
  });

  it('files outside the inputs do not matter', () => {
    build();
    fs.writeFileSync(path.join(root, 'src', 'unrelated.ts'), 'export {};');
    expect(stamp.staleReason(root, out)).toBeNull();
  });
});

describe('alias resolver of the compiled tree', () => {
  let dir: string;
  beforeAll(() => {
    // A compiled tree as tools/build/build.js lays it out: the register copied to its root, beside aliases.json.
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'jobctrl-alias-'));
    fs.mkdirSync(path.join(dir, 'libs', 'x', 'src'), { recursive: true });
    fs.mkdirSync(path.join(dir, 'libs', 'x', 'y'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'libs', 'x', 'src', 'index.js'), 'module.exports = "x";');
    fs.writeFileSync(path.join(dir, 'libs', 'x', 'y', 'index.js'), 'module.exports = "x/y";');
    fs.writeFileSync(path.join(dir, 'aliases.json'), JSON.stringify({ '@test-alias/x': './libs/x/src/index.js', '@test-alias/x/y': './libs/x/y/index.js' }));
    fs.copyFileSync(path.join(__dirname, '..', '..', 'build', 'alias-register.js'), path.join(dir, 'alias-register.js'));
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  /** Runs `script` in plain Node (jest's require has a resolver of its own, which the product never uses). */
  function node(script: string): { status: number | null; stdout: string; stderr: string } {
    return spawnSync(process.execPath, ['-e', script], { cwd: os.tmpdir(), encoding: 'utf8', env: { PATH: process.env['PATH'] } });
  }

  it('resolves each exact alias to its compiled file in the tree and names the tree for worker threads', () => {
    const res = node(`require(${JSON.stringify(path.join(dir, 'alias-register.js'))});
      console.log(JSON.stringify([require('@test-alias/x'), require('@test-alias/x/y'), process.env.JOBCTRL_BUILD_DIR]));`);
    expect(res.stderr).toBe('');
    expect(JSON.parse(res.stdout)).toEqual(['x', 'x/y', dir]);
  });

  it('an alias it does not list is not guessed from a shorter one; unregistering restores Node', () => {
    const res = node(`const { registerAliases, readAliasMap } = require(${JSON.stringify(path.join(dir, 'alias-register.js'))});
      const out = [];
      try { require.resolve('@test-alias/x/z'); out.push('resolved'); } catch (e) { out.push(e.code); }
      // required above, the register already applied; a second registration and its undo leave that one
      const undo = registerAliases(readAliasMap(${JSON.stringify(dir)}));
      undo();
      out.push(require('@test-alias/x'));
      console.log(JSON.stringify(out));`);
    expect(JSON.parse(res.stdout)).toEqual(['MODULE_NOT_FOUND', 'x']);
  });

  it('without aliases.json beside it (the source copy in tools/build) it registers nothing', () => {
    const res = node(`require(${JSON.stringify(path.join(__dirname, '..', '..', 'build', 'alias-register.js'))});
      console.log(JSON.stringify([process.env.JOBCTRL_BUILD_DIR ?? null, !!global.__jobctrlAliasesRegistered]));`);
    expect(JSON.parse(res.stdout)).toEqual([null, false]);
  });
});
