export {
  EXTRACTIVE_TAILOR_VERSION,
  MODEL_TAILOR_VERSION,
  type BulletSource,
  type TailoredExperience,
  type TailoredResume,
  type TailoringJob,
  type TailoringMethod,
} from './tailored-resume.types';
export { MAX_BULLETS_PER_ENTRY, tailorResumeExtractive } from './extractive-tailor.rules';
export { renderResumeMarkdown } from './resume-markdown.renderer';
export {
  STOP_WORDS,
  TRACE_THRESHOLD,
  checkNoNewFacts,
  contentWords,
  numbersIn,
  organisationsIn,
  traceResume,
  type NoNewFactsOptions,
  type NoNewFactsResult,
  type TraceResult,
} from './no-new-facts.checker';
export {
  TAILORED_RESUME_SCHEMA,
  parseTailoredResumeAnswer,
  tailorResumeWithModel,
  tailoringUserPrompt,
  type ModelTailoringResult,
  type TailoredResumeAnswer,
  type TailoringFallback,
} from './model-tailor.generator';
export { createTailoringActivities, type TailoringActivityDeps } from './tailoring.activities';
