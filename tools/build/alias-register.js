// Runtime resolver of the workspace's `@jobctrl/*` path aliases for the compiled apps (no ts-node, no
// tsconfig-paths): the build writes `aliases.json` (alias → file, relative to this file's folder) next
// to a copy of this file at the root of each compiled tree, and the app's entry requires it first.
// Exact aliases only, as in tsconfig.base.json: `@jobctrl/x/y` never falls back to `@jobctrl/x`.
//
// It also records the tree in JOBCTRL_BUILD_DIR: worker threads (the CPU task pool) start with a
// module system of their own but inherit the environment, so cpu-thread.runner.js registers the same
// aliases from there, and the worker finds its prebuilt workflow bundle there.
const Module = require('node:module');
const path = require('node:path');
const fs = require('node:fs');

/** Patches Node's resolver so that each alias of `map` (alias → absolute file) resolves to its file. */
function registerAliases(map) {
  const original = Module._resolveFilename;
  Module._resolveFilename = function resolveAlias(request, parent, isMain, options) {
    const target = Object.prototype.hasOwnProperty.call(map, request) ? map[request] : undefined;
    return original.call(this, target ?? request, parent, isMain, options);
  };
  return () => {
    Module._resolveFilename = original;
  };
}

/** Reads `<dir>/aliases.json` and makes its paths absolute. */
function readAliasMap(dir) {
  const relative = JSON.parse(fs.readFileSync(path.join(dir, 'aliases.json'), 'utf8'));
  return Object.fromEntries(Object.entries(relative).map(([alias, file]) => [alias, path.resolve(dir, file)]));
}

if (!global.__jobctrlAliasesRegistered && fs.existsSync(path.join(__dirname, 'aliases.json'))) {
  global.__jobctrlAliasesRegistered = true;
  registerAliases(readAliasMap(__dirname));
  process.env.JOBCTRL_BUILD_DIR = __dirname;
}

module.exports = { registerAliases, readAliasMap };
