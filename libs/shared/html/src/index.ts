export { decodeHtmlEntities, htmlToReadableText, scriptElements } from './html-text.converter';
export { jobPostingsIn, jobPostingsInHtml, jsonLdBlocks, parseJsonLd } from './job-posting-ld.reader';
export type { JsonLdJobPosting, JsonLdObject, JsonLdValue } from './job-posting-ld.reader';
