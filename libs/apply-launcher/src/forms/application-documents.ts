import * as fs from 'node:fs';
import * as path from 'node:path';
import type { BrowserContext } from 'playwright-core';
import { isOngoing } from '@jobctrl/shared/profile';
import type { ApplicantContact } from './application-form.types';

/**
 * The documents an application uploads: the tailored resume and the cover letter as HTML, printed to
 * PDF by the apply browser itself (Chromium's page.pdf), so nothing but the approved JSON and the
 * profile's contact reaches the file. The resume's shape is the tailoring lib's TailoredResume,
 * narrowed to what is printed (a domain lib may not import another).
 */
export interface ResumeDocument {
  summary: string;
  skills: string[];
  experience: Array<{ employer: string; title: string; start: string; end?: string | null; location?: string; bullets: string[] }>;
  education: Array<{ school: string; degree?: string; field?: string; start?: string; end?: string | null }>;
}

const MONTH_NAMES = 'Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec'.split(' ');

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** "2021-03" → "Mar 2021"; a bare year or anything else prints as written. */
function monthYear(date: string): string {
  const m = /^(\d{4})-(\d{1,2})$/.exec(date.trim());
  const month = m ? Number(m[2]) : 0;
  return m && month >= 1 && month <= 12 ? `${MONTH_NAMES[month - 1]} ${m[1]}` : date.trim();
}

function period(start: string | undefined, end: string | null | undefined): string {
  const from = (start ?? '').trim();
  if (!from) return typeof end === 'string' ? monthYear(end) : '';
  return `${monthYear(from)} – ${isOngoing(end) ? 'Present' : monthYear(end ?? '')}`;
}

const STYLE = `
  body { font-family: 'DejaVu Sans', 'Liberation Sans', Arial, sans-serif; font-size: 10.5pt; color: #111; margin: 0; line-height: 1.35; }
  h1 { font-size: 20pt; margin: 0 0 2pt; }
  h2 { font-size: 12pt; border-bottom: 1px solid #999; margin: 14pt 0 4pt; text-transform: uppercase; letter-spacing: .04em; }
  h3 { font-size: 11pt; margin: 8pt 0 0; }
  .contact, .when { color: #444; }
  ul { margin: 3pt 0 0 14pt; padding: 0; }
  p { margin: 0 0 8pt; }`;

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title><style>${STYLE}</style></head><body>${body}</body></html>`;
}

function contactHeader(contact: ApplicantContact): string {
  const line = [contact.location, contact.email, contact.phone, ...(contact.links ?? [])].map((p) => (p ?? '').trim()).filter(Boolean);
  return `<header>${contact.name.trim() ? `<h1>${escapeHtml(contact.name.trim())}</h1>` : ''}${line.length ? `<div class="contact">${line.map(escapeHtml).join(' · ')}</div>` : ''}</header>`;
}

/** The resume as a printable HTML page: contact header, summary, skills, experience, education (empty sections left out). */
export function renderResumeHtml(resume: ResumeDocument, contact: ApplicantContact): string {
  const sections: string[] = [contactHeader(contact)];
  if (resume.summary.trim()) sections.push(`<h2>Summary</h2><p>${escapeHtml(resume.summary.trim())}</p>`);
  if (resume.skills.length) sections.push(`<h2>Skills</h2><p>${resume.skills.map((s) => escapeHtml(s.trim())).join(' · ')}</p>`);
  if (resume.experience.length) {
    const roles = resume.experience.map((e) => {
      const when = [period(e.start, e.end), (e.location ?? '').trim()].filter(Boolean).map(escapeHtml).join(' · ');
      const bullets = e.bullets.length ? `<ul>${e.bullets.map((b) => `<li>${escapeHtml(b.trim())}</li>`).join('')}</ul>` : '';
      return `<section><h3>${escapeHtml(e.title)} — ${escapeHtml(e.employer)}</h3><div class="when">${when}</div>${bullets}</section>`;
    });
    sections.push(`<h2>Experience</h2>${roles.join('')}`);
  }
  if (resume.education.length) {
    const schools = resume.education.map((e) => {
      const what = [e.degree, e.field].map((p) => (p ?? '').trim()).filter(Boolean).join(', ');
      const when = period(e.start, e.end);
      return `<section><h3>${escapeHtml(what ? `${what} — ${e.school}` : e.school)}</h3>${when ? `<div class="when">${escapeHtml(when)}</div>` : ''}</section>`;
    });
    sections.push(`<h2>Education</h2>${schools.join('')}`);
  }
  return page(`${contact.name} — Resume`, sections.join('\n'));
}

/** The cover letter as a printable page: the contact header, then the letter's paragraphs (blank-line separated). */
export function renderCoverLetterHtml(text: string, contact: ApplicantContact): string {
  const paragraphs = text
    .trim()
    .split(/\n\s*\n/)
    .map((p) => `<p>${escapeHtml(p.trim()).replace(/\n/g, '<br>')}</p>`);
  return page(`${contact.name} — Cover letter`, `${contactHeader(contact)}<br>${paragraphs.join('\n')}`);
}

/**
 * Prints `html` to a PDF at `file` with the given (headless Chromium) browser context and checks the
 * result is a PDF. The page loads nothing: every request it would make is refused, so the document
 * is exactly the HTML given.
 */
export async function writePdf(context: BrowserContext, html: string, file: string): Promise<string> {
  await fs.promises.mkdir(path.dirname(file), { recursive: true, mode: 0o700 }); // private (#39)
  const page = await context.newPage();
  try {
    await page.route('**/*', (route) => route.abort());
    await page.setContent(html, { waitUntil: 'load' });
    await page.pdf({ path: file, format: 'Letter', margin: { top: '0.6in', bottom: '0.6in', left: '0.7in', right: '0.7in' }, printBackground: true });
  } finally {
    await page.close().catch(() => undefined);
  }
  const head = Buffer.alloc(5);
  const handle = await fs.promises.open(file, 'r');
  try {
    await handle.read(head, 0, 5, 0);
  } finally {
    await handle.close();
  }
  if (head.toString('latin1') !== '%PDF-') throw new Error(`${file} is not a PDF`);
  return file;
}

/** The resume's PDF (see writePdf). */
export const writeResumePdf = writePdf;
/** The cover letter's PDF (see writePdf). */
export const writeCoverLetterPdf = writePdf;
