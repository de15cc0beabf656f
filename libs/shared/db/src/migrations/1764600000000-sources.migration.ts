import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Discovery source controls. `config` is the adapter's JSON config (validated by the adapter of
 * `kind` before it is stored); `family` groups sources into one discoverySourceFamily activity.
 */
export class Sources1764600000000 implements MigrationInterface {
  name = 'Sources1764600000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE sources (
        id TEXT PRIMARY KEY,
        kind TEXT NOT NULL,
        name TEXT NOT NULL UNIQUE,
        family TEXT NOT NULL,
        enabled INTEGER NOT NULL DEFAULT 1 CHECK (enabled IN (0, 1)),
        config TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL
      )`);
    await queryRunner.query(`CREATE INDEX sources_family ON sources (family)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE sources`);
  }
}
