import { isOngoing, type ProfileContact, type ProfileEducation } from '@jobctrl/shared/profile';
import type { TailoredExperience, TailoredResume } from './tailored-resume.types';

/**
 * Renders a tailored resume as Markdown (the format users paste into editors and that converts
 * cleanly to PDF/DOCX). Layout: name as H1, a contact line, then Summary, Skills, Experience and
 * Education sections; empty sections are left out. Dates `YYYY-MM` print as "Mar 2021", a bare year
 * as written, an ongoing end as "Present". Markdown-active characters in the user's text are
 * escaped so a bullet like "used *nix tools" renders as written. Provenance is not rendered.
 */
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

export function renderResumeMarkdown(resume: Pick<TailoredResume, 'summary' | 'skills' | 'experience' | 'education'>, contact: ProfileContact): string {
  const blocks: string[] = [];
  const name = contact.name.trim();
  if (name) blocks.push(`# ${escapeMarkdown(name)}`);
  const contactLine = [contact.location, contact.email, contact.phone, ...(contact.links ?? [])]
    .map((part) => (part ?? '').trim())
    .filter(Boolean)
    .map(escapeMarkdown)
    .join(' · ');
  if (contactLine) blocks.push(contactLine);

  if (resume.summary.trim()) blocks.push('## Summary', escapeMarkdown(resume.summary.trim()));
  if (resume.skills.length > 0) blocks.push('## Skills', resume.skills.map((s) => escapeMarkdown(s.trim())).join(' · '));
  if (resume.experience.length > 0) blocks.push('## Experience', ...resume.experience.map(renderExperience));
  if (resume.education.length > 0) blocks.push('## Education', ...resume.education.map(renderEducation));
  return `${blocks.join('\n\n')}\n`;
}

function renderExperience(entry: TailoredExperience): string {
  const lines = [`### ${escapeMarkdown(entry.title)} — ${escapeMarkdown(entry.employer)}`];
  const when = `${formatDate(entry.start)} – ${isOngoing(entry.end) ? 'Present' : formatDate(entry.end ?? '')}`;
  lines.push([when, entry.location?.trim() ? escapeMarkdown(entry.location.trim()) : ''].filter(Boolean).join(' · '));
  if (entry.bullets.length > 0) lines.push('', ...entry.bullets.map((b) => `- ${escapeMarkdown(b.trim())}`));
  return lines.join('\n');
}

function renderEducation(entry: ProfileEducation): string {
  const what = [entry.degree, entry.field].map((p) => (p ?? '').trim()).filter(Boolean).map(escapeMarkdown).join(', ');
  const lines = [what ? `### ${what} — ${escapeMarkdown(entry.school)}` : `### ${escapeMarkdown(entry.school)}`];
  const start = (entry.start ?? '').trim();
  const end = typeof entry.end === 'string' ? entry.end.trim() : '';
  if (start && entry.end === null) lines.push(`${formatDate(start)} – Present`);
  else if (start && end) lines.push(`${formatDate(start)} – ${formatDate(end)}`);
  else if (start || end) lines.push(formatDate(start || end));
  return lines.join('\n');
}

function formatDate(date: string): string {
  const match = /^(\d{4})-(\d{1,2})$/.exec(date.trim());
  if (match && Number(match[2]) >= 1 && Number(match[2]) <= 12) return `${MONTHS[Number(match[2]) - 1]} ${match[1]}`;
  return date.trim();
}

function escapeMarkdown(text: string): string {
  return text.replace(/([\\`*_[\]<>])/g, '\\$1');
}
