// The test entry point of tools/stack (`@jobctrl/tools/stack/testing`): a throwaway stack for e2e suites.
// A project of its own (tools-stack-testing): it starts tools/stack/start.js by path and imports nothing
// of tools-stack, so the worker's specs can use it without a worker → stack → build → worker cycle.
export * from './throwaway-stack';
