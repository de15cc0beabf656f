export type { JobPostingFields, JobPostingSalary } from './job-posting.types';
export { extractJobPostingFromJsonLd, extractJsonLdBlocks } from './json-ld.extractor';
export { decodeHtmlEntities, htmlToReadableText } from './html-text.converter';
