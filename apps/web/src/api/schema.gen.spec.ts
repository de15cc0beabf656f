/**
 * @jest-environment node
 */
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';

// The committed client must be the one the API's document generates today: a route or DTO change in
// apps/api without `npx nx run web:generate-client` fails here, not in a user's browser.
describe('the generated client (src/api/schema.gen.ts)', () => {
  it('matches the API’s current OpenAPI document', () => {
    const script = path.resolve(__dirname, '../../tools/generate-client.js');
    // A TS_NODE_* setting of the test runner (nx sets compiler options) must not reach the generator's ts-node.
    const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('TS_NODE_')));
    const res = spawnSync(process.execPath, [script, '--check'], { encoding: 'utf8', env, timeout: 170_000 });
    expect({ status: res.status, stderr: res.stderr.trim() }).toEqual({ status: 0, stderr: '' });
    expect(res.stdout).toContain('is up to date');
  }, 180_000);
});
