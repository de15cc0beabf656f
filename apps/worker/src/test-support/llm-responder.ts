import type { SimulatedLlmRequest } from '@jobctrl/shared/llm/testing';
import { experienceByRecency, type Profile, type ProfileEducation, type ProfileExperience } from '@jobctrl/shared/profile';

/**
 * A `respond` for the LLM simulator (`startLlmSimulator({ respond })`) that answers every schema the
 * preparation stages ask for with a valid answer built from the request itself, so a whole
 * score → tailor → cover → review pipeline runs against the simulator and every job ends `prepared`:
 *
 * - `job_fit_score`: `options.score` (default 80, above the default tailor threshold of 60), with the
 *   profile skills the posting mentions as `matched`;
 * - `tailored_resume`: the profile embedded in the prompt, echoed (every entry's employer, title,
 *   dates and its first five bullets verbatim, the profile's own skills and education), so it passes
 *   `checkNoNewFacts`;
 * - `cover_letter`: a 150–400 word letter naming the posting's company and exact title, citing only
 *   the profile's employers and bullets (verbatim), without placeholders, clichés or years claims,
 *   so it passes both halves of the review pair; `options.letter` replaces the text (e.g. a letter
 *   that names an employer the profile lacks, to exercise the factual review);
 * - `factual_review` / `quality_review`: `{ passed: true, issues: [] }`, or `options.review`.
 *
 * Deterministic: the same request always gets the same answer. An unknown schema throws, which the
 * simulator answers with HTTP 500.
 */
export interface PipelineResponderOptions {
  /** The fit score (an integer 0..100): a constant, or per request. Default 80. */
  score?: number | ((req: SimulatedLlmRequest) => number);
  /** The cover letter's text instead of the one built from the prompt. */
  letter?: (req: SimulatedLlmRequest) => string;
  /** The verdict of a factual or quality review (`req.schemaName` says which). Default: passed. */
  review?: (req: SimulatedLlmRequest) => { passed: boolean; issues: string[] };
}

export type LlmResponder = (req: SimulatedLlmRequest) => unknown;

/** What the stages' prompts embed: the posting and the candidate (a profile without contact details). */
interface PromptPosting {
  title: string;
  company: string | null;
  description: string;
}

type PromptCandidate = Pick<Profile, 'summary' | 'skills' | 'experience' | 'education'> & { name?: string };

export function createPipelineResponder(options: PipelineResponderOptions = {}): LlmResponder {
  return (req) => {
    switch (req.schemaName) {
      case 'job_fit_score':
        return scoreAnswer(req, options);
      case 'tailored_resume':
        return resumeAnswer(req);
      case 'cover_letter':
        return { text: options.letter ? options.letter(req) : coverLetterFor(posting(req), candidate(req)) };
      case 'factual_review':
      case 'quality_review':
        return options.review ? options.review(req) : { passed: true, issues: [] };
      default:
        throw new Error(`llm-responder: no answer for schema "${req.schemaName}"`);
    }
  };
}

function scoreAnswer(req: SimulatedLlmRequest, options: PipelineResponderOptions): unknown {
  const score = typeof options.score === 'function' ? options.score(req) : (options.score ?? 80);
  const job = posting(req);
  const profile = candidate(req);
  const text = `${job.title}\n${job.description}`.toLowerCase();
  const matched = profile.skills.filter((s) => text.includes(s.toLowerCase()));
  const latest = experienceByRecency(profile.experience).map((i) => profile.experience[i])[0];
  return {
    score,
    rationale: `The candidate's experience as ${latest?.title ?? 'an engineer'} covers ${matched.length} of the skills the ${job.title} posting names.`,
    matched,
    missing: matched.length > 0 ? [] : ['the skills the posting names'],
  };
}

/** The profile's facts as the model-tailor schema wants them: nothing added, nothing reworded. */
function resumeAnswer(req: SimulatedLlmRequest): unknown {
  const job = posting(req);
  const profile = candidate(req);
  const text = `${job.title}\n${job.description}`.toLowerCase();
  const mentioned = profile.skills.filter((s) => text.includes(s.toLowerCase()));
  return {
    // The schema wants a non-empty summary; a profile without one gets a sentence that names nothing.
    summary: profile.summary.trim() || 'Engineer whose experience is listed below.',
    skills: [...mentioned, ...profile.skills.filter((s) => !mentioned.includes(s))],
    experience: experienceByRecency(profile.experience).map((i) => {
      const e = profile.experience[i];
      return { employer: e.employer, title: e.title, start: e.start, end: e.end ?? null, location: e.location ?? null, bullets: e.bullets.slice(0, 5) };
    }),
    education: profile.education.map((e: ProfileEducation) => ({
      school: e.school,
      degree: e.degree ?? null,
      field: e.field ?? null,
      start: e.start ?? null,
      end: e.end ?? null,
    })),
  };
}

const MIN_LETTER_WORDS = 180;
const MAX_LETTER_WORDS = 380;

/**
 * A plain letter from the prompt's facts. Profile bullets are quoted verbatim (the factual review
 * treats the user's own words as supported); employers appear only as "at <profile employer>"; no
 * numbers of years, no brackets, none of the review's stock phrases.
 */
export function coverLetterFor(job: PromptPosting, profile: PromptCandidate): string {
  const company = job.company ?? 'your company';
  const description = job.description.toLowerCase();
  const mentioned = profile.skills.filter((s) => description.includes(s.toLowerCase()));
  const order = experienceByRecency(profile.experience);
  const roles = order.map((i) => profile.experience[i]);

  const opening = [
    `I am applying for the ${job.title} position at ${company}.`,
    mentioned.length > 0
      ? `The posting asks for ${listOf(mentioned.slice(0, 4))}, and that is the kind of work my recent roles have been made of.`
      : `The work the posting describes is close to what my recent roles have been made of.`,
    `Below are a few things I have done that I think bear directly on this role.`,
  ].join(' ');

  const paragraphs: string[] = [opening];
  const closing = [
    `I would welcome the chance to talk about how this experience could help ${company} as its next ${job.title}.`,
    `Thank you for considering my application.`,
  ].join(' ');
  const education = profile.education[0] ? educationSentence(profile.education[0]) : '';

  const words = (parts: string[]) => parts.join(' ').split(/\s+/).filter(Boolean).length;
  // One paragraph per role, most recent first, bullets quoted as written, until the letter is long enough.
  for (const role of roles) {
    const paragraph = roleParagraph(role, roles.indexOf(role), mentioned);
    if (words([...paragraphs, paragraph, closing]) > MAX_LETTER_WORDS) break;
    paragraphs.push(paragraph);
    if (words([...paragraphs, closing]) >= MIN_LETTER_WORDS) break;
  }
  if (education && words([...paragraphs, education, closing]) <= MAX_LETTER_WORDS) paragraphs.push(education);
  if (words([...paragraphs, closing]) < MIN_LETTER_WORDS) {
    paragraphs.push(
      `What draws me to ${company} is the scope of the ${job.title} role as the posting describes it: owning systems end to end, working closely with the people who depend on them, and improving them steadily. ` +
        `I like to understand how a system is used before changing it, to write down what I learn so the next person does not have to rediscover it, and to measure the effect of a change instead of assuming it. ` +
        `I would bring the same habits to the team at ${company}.`,
    );
  }
  const name = profile.name?.trim();
  return [`Dear ${company} hiring team,`, ...paragraphs, closing, name ? `Kind regards,\n${name}` : 'Kind regards'].join('\n\n');
}

function roleParagraph(role: ProfileExperience, index: number, mentioned: string[]): string {
  const ongoing = role.end === null || role.end === undefined || role.end === '';
  const lead = index > 0
    ? `${index === 1 ? 'Before that' : 'Earlier'}, as ${role.title} at ${role.employer}, my work included the following:`
    : ongoing
      ? `In my current role as ${role.title} at ${role.employer}, this is some of what I have done:`
      : `Most recently, as ${role.title} at ${role.employer}, my work included the following:`;
  // The bullets that mention the most of the posting's skills first (stable, so deterministic).
  const hits = (b: string) => mentioned.filter((s) => b.toLowerCase().includes(s.toLowerCase())).length;
  const bullets = [...role.bullets]
    .map((b, i) => ({ b: b.trim(), i, n: hits(b) }))
    .filter((x) => x.b !== '')
    .sort((x, y) => y.n - x.n || x.i - y.i)
    .slice(0, 3)
    .map((x) => (/[.!?]$/.test(x.b) ? x.b : `${x.b}.`));
  return [lead, ...bullets].join(' ');
}

function educationSentence(e: ProfileEducation): string {
  const degree = [e.degree, e.field].filter((x): x is string => Boolean(x && x.trim())).join(' in ');
  return degree ? `My studies for a ${degree} at ${e.school} gave me the foundations I still rely on.` : `My studies at ${e.school} gave me the foundations I still rely on.`;
}

function listOf(items: string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

// ---------------------------------------------------------------------------------------------
// Reading the prompts: every stage's user turn is "<Heading> (JSON):\n<JSON.stringify(x, null, 2)>"
// sections separated by blank lines (indented JSON never contains one), plus plain-text sections.

function section(user: string, heading: string): Record<string, unknown> | undefined {
  const start = `${heading} (JSON):\n`;
  for (const part of user.split('\n\n')) {
    if (!part.startsWith(start)) continue;
    try {
      const value: unknown = JSON.parse(part.slice(start.length));
      if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as Record<string, unknown>;
    } catch {
      return undefined;
    }
  }
  return undefined;
}

function posting(req: SimulatedLlmRequest): PromptPosting {
  const p = section(req.user, 'Job posting') ?? {};
  return {
    title: typeof p['title'] === 'string' ? p['title'] : 'the role',
    company: typeof p['company'] === 'string' ? p['company'] : null,
    description: typeof p['description'] === 'string' ? p['description'] : '',
  };
}

function candidate(req: SimulatedLlmRequest): PromptCandidate {
  const c = section(req.user, 'Candidate profile');
  if (!c) throw new Error(`llm-responder: the ${req.schemaName} prompt has no "Candidate profile (JSON)" section`);
  const arrayOf = <T>(key: string) => (Array.isArray(c[key]) ? (c[key] as T[]) : []);
  return {
    ...(typeof c['name'] === 'string' ? { name: c['name'] } : {}),
    summary: typeof c['summary'] === 'string' ? c['summary'] : '',
    skills: arrayOf<string>('skills'),
    experience: arrayOf<ProfileExperience>('experience'),
    education: arrayOf<ProfileEducation>('education'),
  };
}
