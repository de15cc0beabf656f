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

/** A logged-out session: its cookie's nonce, refused until the cookie's own expiry (epoch seconds). */
export interface RevokedSession {
  nonce: string;
  expiresAt: number;
}

/**
 * Where logouts are kept so they outlive the API process (the stack restarts a crashed API, and a
 * restart must not bring a logged-out cookie back). apps/api gives the SQLite repository.
 */
export interface RevokedSessionStore {
  /** The revocations still in force at `nowSeconds`; expired ones may be pruned on the way. */
  active(nowSeconds: number): Promise<RevokedSession[]>;
  /** Keeps one more (and may prune expired ones); resolves once it is durable. */
  add(revoked: RevokedSession, nowSeconds: number): Promise<void>;
}

/**
 * Sessions are a signed expiry, keyed by the token: an API restart (the stack restarts a crashed API)
 * keeps the user logged in, and changing the token ends every session at once. Only logouts are state:
 * kept here for the synchronous check and, through a RevokedSessionStore, on disk.
 */
export class SessionSigner {
  private readonly key: Buffer;
  /** Logged-out cookies' nonces until they expire: a copied cookie must not outlive its logout. */
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

  /** The cookie's expiry and nonce when it is a genuine, unexpired session (revoked or not). */
  private parse(cookie: string | undefined): RevokedSession | null {
    const match = cookie === undefined ? null : /^(\d{1,12})\.([A-Za-z0-9_-]{16})\.([A-Za-z0-9_-]{1,100})$/.exec(cookie);
    if (!match) return null;
    const expiresAt = Number(match[1]);
    if (expiresAt * 1000 <= this.now()) return null;
    return sameSecret(match[3], this.mac(expiresAt, match[2])) ? { nonce: match[2], expiresAt } : null;
  }

  valid(cookie: string | undefined): boolean {
    const session = this.parse(cookie);
    return session !== null && !this.revoked.has(session.nonce);
  }

  /** Ends the cookie's session here; returns what to persist (null: nothing to revoke). */
  revoke(cookie: string | undefined): RevokedSession | null {
    const session = this.parse(cookie);
    if (!session || this.revoked.has(session.nonce)) return null;
    this.restore([session]);
    return session;
  }

  /** Revocations read back from the store at start (expired ones are dropped as new ones arrive). */
  restore(sessions: readonly RevokedSession[]): void {
    const nowSeconds = this.now() / 1000;
    for (const [nonce, expiresAt] of this.revoked) if (expiresAt <= nowSeconds) this.revoked.delete(nonce);
    for (const s of sessions) if (s.expiresAt > nowSeconds) this.revoked.set(s.nonce, s.expiresAt);
  }
}

/**
 * Every value a Cookie header gives `name`, in order (no decoding: ours is plain base64url). A browser
 * sends a name more than once when it holds several cookies of that name (another Path, or one set for
 * a parent domain by a sibling site), so callers try each: reading only the first let any stray cookie
 * log the person out (#39).
 */
export function readCookies(header: string | undefined, name: string): string[] {
  const values: string[] = [];
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) values.push(part.slice(eq + 1).trim());
  }
  return values;
}
