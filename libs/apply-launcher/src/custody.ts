// `@jobctrl/apply-launcher/custody`: browser custody read from the attempt files, without Playwright
// (the API reads it to admit or refuse an apply; only the worker launches browsers).
export { inspectCustody, recoverCustody, type CustodyState, type CustodyView, type RecoverCustodyOptions, type RecoveryRefusal, type RecoveryResult } from './launcher/custody';
export { InvalidCustodyPartError, jobCustodyDir } from './launcher/custody.files';
export type { CleanupResult, CleanupTimings } from './launcher/session.cleanup';
