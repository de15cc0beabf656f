// The test entry point of tools/stack (`@jobctrl/tools/stack/testing`): a throwaway stack for e2e suites.
export * from './throwaway-stack';
