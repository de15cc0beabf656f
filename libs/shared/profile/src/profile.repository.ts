import type { UnitOfWorkFactory } from '@jobctrl/shared/db';
import { emptyProfile, type Profile, type StoredProfile } from './profile.model';
import { sameProfileContent } from './profile-content.rules';

/** The single profile row. Revision 0 is the empty profile of a fresh install. */
export class ProfileRepository {
  constructor(private readonly uow: UnitOfWorkFactory) {}

  async get(): Promise<StoredProfile> {
    const rows: Array<{ document: string; revision: number; updated_at: number }> = await this.uow.run(({ manager }) =>
      manager.query(`SELECT document, revision, updated_at FROM profile WHERE id = 1`),
    );
    if (rows.length === 0) return { profile: emptyProfile(), revision: 0, updatedAt: new Date(0).toISOString() };
    return { profile: JSON.parse(rows[0].document) as Profile, revision: rows[0].revision, updatedAt: new Date(rows[0].updated_at).toISOString() };
  }

  /**
   * Replaces the profile and bumps the revision in one write, so a reader never sees one without the
   * other. The same content (see profile-content.rules) is not a new revision: nothing is written
   * and `changed` is false, so an identical PUT costs no re-preparation.
   */
  async put(profile: Profile, now = Date.now()): Promise<StoredProfile & { changed: boolean }> {
    return this.uow.run(({ transaction }) =>
      transaction(async (m) => {
        const current: Array<{ document: string; revision: number; updated_at: number }> = await m.query(`SELECT document, revision, updated_at FROM profile WHERE id = 1`);
        if (current.length > 0 && sameProfileContent(JSON.parse(current[0].document) as Profile, profile)) {
          const row = current[0];
          return { profile: JSON.parse(row.document) as Profile, revision: row.revision, updatedAt: new Date(row.updated_at).toISOString(), changed: false };
        }
        await m.query(
          `INSERT INTO profile (id, document, revision, updated_at) VALUES (1, ?, 1, ?)
           ON CONFLICT (id) DO UPDATE SET document = excluded.document, revision = profile.revision + 1, updated_at = excluded.updated_at`,
          [JSON.stringify(profile), now],
        );
        const rows: Array<{ revision: number }> = await m.query(`SELECT revision FROM profile WHERE id = 1`);
        return { profile, revision: rows[0].revision, updatedAt: new Date(now).toISOString(), changed: true };
      }, 'immediate'),
    );
  }
}
