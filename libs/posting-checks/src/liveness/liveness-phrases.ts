/**
 * The words a posting page uses to say it is closed, to offer an application, or to stop a
 * robot. Matching is plain substring search (String#indexOf) on lowercased, whitespace-normalised
 * text: linear, no backtracking, whatever the page.
 *
 * Closure phrases are deliberately whole statements ("position has been filled"), never single
 * words ("closed", "expired"): a posting says "applications close on 1 May" or "closed-loop
 * control" while open, and a wrong `closed` hides a live job from the user. Each language lists
 * the forms ATS and careers sites actually print; accented phrases also appear unaccented where
 * sites commonly drop the accents.
 */

export const CLOSURE_PHRASES: Readonly<Record<string, readonly string[]>> = {
  en: [
    'no longer accepting applications',
    'no longer accepting applicants',
    'not currently accepting applications',
    'position has been filled',
    'position has already been filled',
    'this position is filled',
    'role has been filled',
    'vacancy has been filled',
    'job has been filled',
    'job is no longer available',
    'job posting is no longer available',
    'position is no longer available',
    'posting is no longer available',
    'job is no longer open',
    'job you are looking for is no longer open',
    'position is no longer open',
    'job has expired',
    'job posting has expired',
    'posting has expired',
    'this job is closed',
    'this position is closed',
    'this posting is closed',
    'this vacancy is closed',
    'job has been closed',
    'position has been closed',
    'applications are closed',
    'applications have closed',
    'applications for this position are closed',
    'applications for this role are closed',
    'this role is no longer available',
    'this opportunity is no longer available',
    'this job listing has been removed',
  ],
  de: [
    'stelle ist nicht mehr verfügbar',
    'stellenanzeige ist nicht mehr verfügbar',
    'stellenangebot ist nicht mehr verfügbar',
    'stellenausschreibung ist nicht mehr verfügbar',
    'job ist nicht mehr verfügbar',
    'position ist nicht mehr verfügbar',
    'bereits besetzt',
    'stelle wurde besetzt',
    'stelle ist besetzt',
    'stelle ist nicht mehr zu besetzen',
    'stellenanzeige ist abgelaufen',
    'stellenangebot ist abgelaufen',
    'bewerbungsfrist ist abgelaufen',
    'ausschreibung ist beendet',
    'nehmen keine bewerbungen mehr',
    'keine bewerbungen mehr entgegen',
    'nicht mehr ausgeschrieben',
  ],
  fr: [
    "offre n'est plus disponible",
    "annonce n'est plus disponible",
    "poste n'est plus disponible",
    "cette offre d'emploi n'est plus disponible",
    "n'est plus disponible",
    'a été pourvu',
    'a été pourvue',
    'a ete pourvu',
    "poste n'est plus à pourvoir",
    'offre a expiré',
    'offre est expirée',
    'annonce a expiré',
    'offre est clôturée',
    'offre est close',
    'candidatures sont closes',
    "n'accepte plus de candidatures",
    "n'acceptons plus de candidatures",
  ],
  es: [
    'ya no está disponible',
    'ya no esta disponible',
    'puesto ha sido cubierto',
    'vacante ha sido cubierta',
    'vacante ya fue cubierta',
    'vacante está cerrada',
    'vacante esta cerrada',
    'oferta ha expirado',
    'oferta ha caducado',
    'oferta está cerrada',
    'oferta cerrada',
    'vacante cerrada',
    'ya no acepta candidaturas',
    'ya no se aceptan solicitudes',
    'ya no se aceptan candidaturas',
    'ya no aceptamos solicitudes',
  ],
  nl: [
    'vacature is gesloten',
    'vacature is niet meer beschikbaar',
    'vacature is niet langer beschikbaar',
    'vacature is vervuld',
    'vacature is ingevuld',
    'vacature is verlopen',
    'sollicitatietermijn is verlopen',
    'sollicitatieperiode is verlopen',
    'reageren is niet meer mogelijk',
    'solliciteren is niet meer mogelijk',
  ],
  pt: [
    'vaga encerrada',
    'vaga foi encerrada',
    'vaga foi preenchida',
    'vaga já foi preenchida',
    'vaga não está mais disponível',
    'vaga nao esta mais disponivel',
    'vaga já não está disponível',
    'oferta já não está disponível',
    'esta vaga expirou',
    'vaga expirada',
    'não aceita mais candidaturas',
    'candidaturas encerradas',
    'inscrições encerradas',
    'processo seletivo encerrado',
  ],
  it: [
    'posizione non è più disponibile',
    'posizione non e più disponibile',
    'annuncio non è più disponibile',
    'offerta non è più disponibile',
    'offerta di lavoro non è più disponibile',
    'posizione è stata chiusa',
    'posizione è stata coperta',
    'posizione è già stata coperta',
    'annuncio è scaduto',
    'offerta è scaduta',
    'candidature sono chiuse',
    'non accetta più candidature',
    'non accettiamo più candidature',
  ],
};

/** Every closure phrase with its language, longest first (the most specific phrase is quoted). */
const CLOSURE_LIST: ReadonlyArray<{ lang: string; phrase: string }> = Object.entries(CLOSURE_PHRASES)
  .flatMap(([lang, phrases]) => phrases.map((phrase) => ({ lang, phrase })))
  .sort((a, b) => b.phrase.length - a.phrase.length);

export interface PhraseHit {
  lang: string;
  phrase: string;
  /** Index of the phrase in the lowercased text. */
  index: number;
}

/** The first closure phrase (longest first) found in `lower`, already lowercased and normalised. */
export function findClosurePhrase(lower: string): PhraseHit | null {
  for (const { lang, phrase } of CLOSURE_LIST) {
    const index = lower.indexOf(phrase);
    if (index >= 0) return { lang, phrase, index };
  }
  return null;
}

/**
 * The label of a control that applies to this job. Whole words at the start of a short label
 * ("Apply now", "Jetzt bewerben", "Postuler", "Solicitar", "Solliciteer direct", "Candidatar-se",
 * "Candidati ora"), so that "Candidate privacy notice" or "Applying tips" do not count.
 */
const APPLY_LABEL_RE =
  /^(?:[^a-z]{0,3})(?:(?:jetzt |now |quick |easy |one-click )?(?:apply|bewerben|bewirb dich|postuler|postulez|candidater|candidatez|solicitar|aplicar|postular|postúlate|postulate|inscribirme|solliciteer|solliciteren|candidatar|candidate-se|candidatare|candidati|candidatati|invia candidatura|envoyer ma candidature|enviar candidatura|submit application|submit your application|start application|start your application|i'm interested|ich bin interessiert)\b|(?:zur |zu )?bewerbung\b)/;
/** Labels that contain an apply word but are not applying: filters, how-tos, sign-ups. */
const NOT_APPLY_RE = /filter|how to|tips|later|save|share|alert|subscribe|newsletter|sign ?up|log ?in|sign ?in/;
const MAX_APPLY_LABEL = 60;

export function isApplyLabel(label: string): boolean {
  return label.length > 0 && label.length <= MAX_APPLY_LABEL && APPLY_LABEL_RE.test(label) && !NOT_APPLY_RE.test(label);
}

/** A link path that leads to an application (`/jobs/123/apply`, Lever's `/apply`, `/bewerbung`). */
export function isApplyHref(path: string): boolean {
  return /\/(?:apply|application|applications|bewerb(?:ung|en)|candidature|postuler|solicitud|sollicit(?:eren|atie))(?:[/?#.]|$)/i.test(path);
}

/**
 * Phrases of anti-bot interstitials (Cloudflare, Akamai, Imperva, PerimeterX, DataDome and
 * generic captcha walls), in the languages above. Looked for in the title and in short pages only:
 * an application form that embeds a reCAPTCHA is not a challenge page.
 */
export const CHALLENGE_PHRASES: readonly string[] = [
  'verify you are human',
  'verifying you are human',
  'verify that you are human',
  'confirm you are human',
  'are you a robot',
  "prove you're not a robot",
  'prove you are not a robot',
  "i'm not a robot",
  'checking your browser',
  'checking if the site connection is secure',
  'just a moment...',
  'attention required! | cloudflare',
  'please complete the security check',
  'complete the captcha',
  'press & hold',
  'pardon our interruption',
  'access to this page has been denied',
  'request unsuccessful. incapsula',
  'unusual traffic from your computer',
  'bitte bestätigen sie, dass sie ein mensch sind',
  'sicherheitsüberprüfung',
  'vérifiez que vous êtes humain',
  'vérification de sécurité',
  'verifica que eres humano',
  'verifique que você é humano',
  'verifica di essere umano',
  'bevestig dat je een mens bent',
];

export function findChallengePhrase(lower: string): string | null {
  for (const phrase of CHALLENGE_PHRASES) if (lower.includes(phrase)) return phrase;
  return null;
}
