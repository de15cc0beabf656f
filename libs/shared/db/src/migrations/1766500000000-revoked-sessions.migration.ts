import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * API logouts (issue #15 follow-up). A login cookie is a signed expiry, valid without any state; a
 * logout is the one thing the API must remember, and it must outlive an API restart. One row per
 * logged-out session, by the cookie's random nonce (never the cookie itself), kept until the cookie's
 * own expiry and pruned after it (RevokedSessionRepository).
 */
export class RevokedSessions1766500000000 implements MigrationInterface {
  name = 'RevokedSessions1766500000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE revoked_sessions (
        nonce TEXT PRIMARY KEY,
        expires_at INTEGER NOT NULL,
        revoked_at INTEGER NOT NULL
      )`);
    await q.query(`CREATE INDEX revoked_sessions_expires_at ON revoked_sessions (expires_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE revoked_sessions`);
  }
}
