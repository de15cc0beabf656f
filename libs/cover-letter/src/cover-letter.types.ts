/**
 * A cover letter for one posting. Extractive letters are assembled from fixed sentence templates
 * and the profile's own facts; model letters are written by a model and must then pass the review
 * pair (factual + quality) before they are accepted.
 */
export interface CoverLetterJob {
  title: string;
  company: string;
  description: string;
  requirements?: string[];
}

export type CoverLetterMethod = 'extractive' | 'model';

export const EXTRACTIVE_LETTER_VERSION = 'cover-extractive-v1';
export const MODEL_LETTER_VERSION = 'cover-model-v1';

export interface CoverLetter {
  text: string;
  method: CoverLetterMethod;
  version: string;
}

/** Reviews accept a letter object or its bare text. */
export type LetterInput = string | Pick<CoverLetter, 'text'>;

export function letterText(letter: LetterInput): string {
  return typeof letter === 'string' ? letter : letter.text;
}
