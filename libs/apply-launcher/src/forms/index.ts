// Form filling (issue #12, part D). Playwright appears here only as types: importing this entry
// point loads no browser code.
export * from './application-form.types';
export { ERROR_SELECTOR, readApplicationForm } from './application-form.reader';
export { normaliseLabel, planAnswers, questionSummary, yearsWithSkill } from './answer-plan.rules';
export { FormFillError, confirmationIn, fillApplicationForm, screenshot, submitApplicationForm, type SubmitOptions } from './application-form.filler';
export { renderCoverLetterHtml, renderResumeHtml, writeCoverLetterPdf, writePdf, writeResumePdf, type ResumeDocument } from './application-documents';
