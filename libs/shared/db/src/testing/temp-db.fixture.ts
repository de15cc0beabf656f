import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

/** A fresh folder per spec file; each test picks its own database file inside it. */
export function tempDbDir(prefix: string): { file: (name: string) => string; cleanup: () => void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `jobctrl-db-${prefix}-`));
  let counter = 0;
  return {
    file: (name: string) => path.join(dir, `${name}-${++counter}`, 'app.sqlite'),
    cleanup: () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}
