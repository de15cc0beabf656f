import type { UnitOfWorkFactory } from '@jobctrl/shared/db';
import type { RevokedSession, RevokedSessionStore } from './api-token';

/**
 * The only code that reads or writes revoked_sessions. Rows live until the cookie they refuse would
 * have expired anyway; each write prunes the expired ones, so the table holds at most the logouts of
 * one session lifetime (a week).
 */
export class RevokedSessionRepository implements RevokedSessionStore {
  constructor(private readonly uow: UnitOfWorkFactory) {}

  async active(nowSeconds: number): Promise<RevokedSession[]> {
    const rows: Array<{ nonce: string; expires_at: number }> = await this.uow.run(({ manager }) =>
      manager.query(`SELECT nonce, expires_at FROM revoked_sessions WHERE expires_at > ?`, [nowSeconds]),
    );
    return rows.map((r) => ({ nonce: r.nonce, expiresAt: Number(r.expires_at) }));
  }

  async add(revoked: RevokedSession, nowSeconds: number): Promise<void> {
    await this.uow.run(({ transaction }) =>
      transaction(async (manager) => {
        await manager.query(`DELETE FROM revoked_sessions WHERE expires_at <= ?`, [nowSeconds]);
        await manager.query(`INSERT OR IGNORE INTO revoked_sessions (nonce, expires_at, revoked_at) VALUES (?, ?, ?)`, [revoked.nonce, revoked.expiresAt, nowSeconds]);
      }, 'immediate'),
    );
  }

  /** Rows kept (for tests and the prune's proof). */
  async count(): Promise<number> {
    const rows: Array<{ n: number }> = await this.uow.run(({ manager }) => manager.query(`SELECT COUNT(*) AS n FROM revoked_sessions`));
    return Number(rows[0].n);
  }
}
