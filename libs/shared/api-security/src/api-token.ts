import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

const sha256 = (text: string): Buffer => createHash('sha256').update(text, 'utf8').digest();

/**
 * Whether `given` equals the secret, in time that depends on neither: both are hashed first, so the
 * compare runs over two 32-byte digests whatever the lengths (timingSafeEqual itself throws on a length
 * mismatch, and an early length check would tell an attacker the token's length).
 */
export function sameSecret(given: string, secret: string): boolean {
  return timingSafeEqual(sha256(given), sha256(secret));
}

/** The cookie the login page sets; its value is a signed expiry, never the token itself. */
export const SESSION_COOKIE = 'jobctrl_session';
/** A week: a person's own tool, logged into from a browser they control. */
export const SESSION_MAX_AGE_SECONDS = 7 * 24 * 3600;

/**
 * Sessions are stateless (a signed expiry), keyed by the token: an API restart (the stack restarts a
 * crashed API) keeps the user logged in, and changing the token ends every session at once.
 */
export class SessionSigner {
  private readonly key: Buffer;
  /** Logged-out cookies until they expire: a copied cookie must not outlive its logout. */
  private readonly revoked = new Map<string, number>();

  constructor(token: string, private readonly now: () => number = Date.now) {
    this.key = createHash('sha256').update('jobctrl-session\0').update(token, 'utf8').digest();
  }

  private mac(expiresAt: number, nonce: string): string {
    return createHmac('sha256', this.key).update(`v1.${expiresAt}.${nonce}`).digest('base64url');
  }

  /** `<expiry>.<nonce>.<mac>`: the nonce makes two logins in one second two sessions (one logout ends one). */
  issue(): string {
    const expiresAt = Math.floor(this.now() / 1000) + SESSION_MAX_AGE_SECONDS;
    const nonce = randomBytes(12).toString('base64url');
    return `${expiresAt}.${nonce}.${this.mac(expiresAt, nonce)}`;
  }

  valid(cookie: string | undefined): boolean {
    const match = cookie === undefined ? null : /^(\d{1,12})\.([A-Za-z0-9_-]{16})\.([A-Za-z0-9_-]{1,100})$/.exec(cookie);
    if (!match) return false;
    const expiresAt = Number(match[1]);
    if (expiresAt * 1000 <= this.now()) return false;
    return sameSecret(match[3], this.mac(expiresAt, match[2])) && !this.revoked.has(cookie as string);
  }

  revoke(cookie: string | undefined): void {
    if (!cookie || !this.valid(cookie)) return;
    const nowSeconds = this.now() / 1000;
    for (const [value, expiresAt] of this.revoked) if (expiresAt <= nowSeconds) this.revoked.delete(value);
    this.revoked.set(cookie, Number(cookie.split('.')[0]));
  }
}

/** One cookie's value from a Cookie header (no decoding: ours is plain base64url). */
export function readCookie(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}
