import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { sampleProfile } from '@jobctrl/shared/profile/testing';
import { renderCoverLetterHtml, renderResumeHtml, writeCoverLetterPdf, writeResumePdf } from '../application-documents';
import type { Applicant } from '../application-form.types';
import { survivorsUnder } from '../../launcher/testing/launcher.test-support';
import { browserTagMarker, launchTestBrowser } from './test-browser';

export const SAMPLE_LETTER = 'Dear hiring team,\n\nI build payment platforms on Kafka and PostgreSQL.\n\nDana Whitfield';

export interface FormSession {
  context(): BrowserContext;
  /** A fresh page per test (closed after it). */
  page(): Page;
  dir(): string;
  resumePdf(): string;
  letterPdf(): string;
  /** The sample profile with the session's documents, `asOf` June 2025. */
  applicant(savedAnswers?: Record<string, string>): Applicant;
}

/**
 * Registers the hooks a form spec needs: one tagged Chromium for the file, the sample profile's
 * resume and letter printed to PDF by it, a page per test; afterAll closes the browser and proves
 * from /proc that none of its processes is left.
 */
export function useFormSession(prefix: string): FormSession {
  let tag = '';
  let browser: Awaited<ReturnType<typeof launchTestBrowser>>['browser'] | undefined;
  let context: BrowserContext;
  let page: Page;
  let dir = '';
  let resumePdf = '';
  let letterPdf = '';
  beforeAll(async () => {
    ({ browser, tag } = await launchTestBrowser());
    context = await browser.newContext();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
    const profile = sampleProfile();
    resumePdf = await writeResumePdf(context, renderResumeHtml(profile, profile.contact), path.join(dir, 'resume.pdf'));
    letterPdf = await writeCoverLetterPdf(context, renderCoverLetterHtml(SAMPLE_LETTER, profile.contact), path.join(dir, 'cover-letter.pdf'));
  });
  afterAll(async () => {
    await browser?.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
    // Every process of the browser's tree is gone (checked from /proc, not from Playwright's word).
    if (tag) expect(survivorsUnder(browserTagMarker(tag))).toEqual([]);
  });
  beforeEach(async () => {
    page = await context.newPage();
  });
  afterEach(async () => {
    await page.close();
  });
  return {
    context: () => context,
    page: () => page,
    dir: () => dir,
    resumePdf: () => resumePdf,
    letterPdf: () => letterPdf,
    applicant: (savedAnswers = {}) => ({ profile: sampleProfile(), savedAnswers, resumePdfPath: resumePdf, coverLetterPdfPath: letterPdf, coverLetterText: SAMPLE_LETTER, asOf: '2025-06' }),
  };
}
