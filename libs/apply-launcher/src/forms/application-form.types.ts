/**
 * An application form as a person sees it: questions found by their visible labels, never by one
 * ATS's field names, so Greenhouse-, Lever- and Ashby-style markup (and boards we have not seen) read
 * the same way.
 */
export const QUESTION_TYPES = ['text', 'textarea', 'email', 'tel', 'select', 'radio', 'checkbox', 'file'] as const;
export type QuestionType = (typeof QUESTION_TYPES)[number];

/** One choice of a select, a radio group or a checkbox group, in page order. */
export interface QuestionChoice {
  /** The text a person reads next to it. */
  label: string;
  /** The option's or input's value attribute (what a select is set to). */
  value: string;
  /** Position among the group's inputs (radio/checkbox) or the select's options. */
  index: number;
}

export interface FormQuestion {
  /**
   * Stable within the form: the control's name, else its id. Saved answers may use it (or the label);
   * the person sees it in `needs_user_input`.
   */
  key: string;
  /** The visible label without required markers ("*", "(required)"). */
  label: string;
  type: QuestionType;
  required: boolean;
  /** Choice labels (select, radio, checkbox group). */
  options?: string[];
  /** The same choices with their values and positions (what filling uses). */
  choices?: QuestionChoice[];
  /** A file input's `accept`. */
  accept?: string;
  /** CSS selector of the control (of every input of a group) inside the form. */
  selector: string;
}

export interface ApplicationForm {
  /** Position of the application form among `document.forms` (the page may have a search form too). */
  formIndex: number;
  action: string;
  questions: FormQuestion[];
  /** The submit control, or null when the form has none a person could press. */
  submit: { selector: string; label: string } | null;
  /** Error messages the page shows (a re-rendered form after a rejected submission). */
  errors: string[];
}

/** What fills a question with; shapes follow the question type. */
export type FillValue =
  | { kind: 'text'; text: string }
  | { kind: 'choice'; choices: QuestionChoice[] }
  | { kind: 'check'; checked: boolean }
  | { kind: 'file'; path: string };

/** Where a value came from: the profile, an answer the person saved, or a generated document. */
export type FillSource = 'profile' | 'saved_answer' | 'resume' | 'cover_letter';

export interface FormFill {
  question: FormQuestion;
  value: FillValue;
  source: FillSource;
  /** The value as a person would read it (for logs, screenshots' captions and the application record). */
  display: string;
}

export interface UnansweredQuestion extends FormQuestion {
  /** Why it has no value: nothing known, or a saved answer that matches none of the choices. */
  reason: string;
}

export interface AnswerPlan {
  formIndex: number;
  fills: FormFill[];
  /** Required questions nothing answers: the apply stops in needs_user_input listing them. */
  unknownRequired: UnansweredQuestion[];
  /** Optional questions nothing answers: left empty. */
  unknownOptional: UnansweredQuestion[];
}

/** The contact part of the profile a form needs (the shared profile's ProfileContact fits). */
export interface ApplicantContact {
  name: string;
  email: string;
  phone?: string;
  location?: string;
  links?: string[];
}

export interface ApplicantExperience {
  employer: string;
  title: string;
  start: string;
  end?: string | null;
  bullets: string[];
}

export interface Applicant {
  profile: { contact: ApplicantContact; skills: string[]; experience: ApplicantExperience[] };
  /**
   * Answers the person saved for this job, by question key or by label (matched case- and
   * space-insensitively, without a trailing "?" or ":"). They win over the profile.
   */
  savedAnswers: Record<string, string>;
  /** The tailored resume as a PDF (required by every form we know). */
  resumePdfPath?: string;
  /** The cover letter as a PDF (upload fields) and as text (text areas). */
  coverLetterPdfPath?: string;
  coverLetterText?: string;
  /** `YYYY-MM`: the month ongoing roles end in when counting years of experience (today, from the caller). */
  asOf: string;
}

export type SubmitOutcome =
  /** The board showed a confirmation (an id when it gave one, else the sentence that confirmed). */
  | { outcome: 'confirmed'; confirmation: string; detail: string }
  /** The board answered with the form again and its errors: it did not take the application. */
  | { outcome: 'rejected'; errors: string[]; detail: string }
  /** Clicked, but nothing confirms or rules out that the board took it (no answer, no confirmation). */
  | { outcome: 'unconfirmed'; detail: string };
