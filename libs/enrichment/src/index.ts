export type { JobPostingFields, JobPostingSalary } from './job-posting.types';
export { extractJobPostingFromJsonLd, extractJsonLdBlocks } from './json-ld.extractor';
export { decodeHtmlEntities, htmlToReadableText } from '@jobctrl/shared/html';
export { parseDetailPage } from './detail-page.parser';
export type { DetailPageParse } from './detail-page.parser';
export { createEnrichmentActivities } from './discovery-enrichment.activities';
export type { EnrichmentActivityDeps } from './discovery-enrichment.activities';
export { ChromiumRenderer } from './chromium.renderer';
export type { ChromiumRendererOptions, PageRenderer } from './chromium.renderer';
