// Test doubles of shared/llm (`@jobctrl/shared/llm/testing`): the LLM simulator (a local HTTP server
// speaking the OpenAI and Anthropic protocols) and the scripted fake client. Kept out of the
// production entry point, so nothing an app runs exports a test server.
export * from './llm-simulator';
export * from './scripted-llm.fake';
