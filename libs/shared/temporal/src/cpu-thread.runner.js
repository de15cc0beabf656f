// Entry point of a CpuTaskPool worker thread. It loads the requested module (compiled JavaScript in
// the product; a transpile-only TypeScript loader when the module is a .ts file, as in development
// and tests) and
// runs one exported function per message. Kept in plain JS because a worker thread does not inherit
// the parent's module loaders (jest's transform, ts-node).
const { parentPort, workerData } = require('node:worker_threads');

// The compiled product (tools/build): the parent registered the `@jobctrl/*` aliases of its compiled
// tree and named the tree in the environment, which a thread inherits; its modules need the same.
if (process.env.JOBCTRL_BUILD_DIR) require(require('node:path').join(process.env.JOBCTRL_BUILD_DIR, 'alias-register.js'));

if (workerData && workerData.tsProject) {
  require('ts-node').register({ project: workerData.tsProject, transpileOnly: true });
  const ts = require(workerData.tsProject);
  require('tsconfig-paths').register({
    baseUrl: require('node:path').dirname(workerData.tsProject),
    paths: (ts.compilerOptions && ts.compilerOptions.paths) || {},
  });
}

parentPort.on('message', async (msg) => {
  try {
    const mod = require(msg.modulePath);
    const fn = mod[msg.exportName];
    if (typeof fn !== 'function') throw new Error(`${msg.modulePath} has no exported function ${msg.exportName}`);
    const value = await fn(msg.input);
    parentPort.postMessage({ id: msg.id, ok: true, value });
  } catch (err) {
    const e = err instanceof Error ? err : new Error(String(err));
    parentPort.postMessage({ id: msg.id, ok: false, error: { name: e.name, message: e.message, stack: e.stack } });
  }
});
