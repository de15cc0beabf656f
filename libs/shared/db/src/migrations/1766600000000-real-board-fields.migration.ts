import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What real boards publish that the job store could not keep (issue #27):
 * - `jobs.locations_json`: every location a posting lists (Lever allLocations, Ashby
 *   secondaryLocations, Greenhouse offices), so a location preference matches any of them;
 *   `location` stays the primary one. Null: the source gave no more than `location`.
 * - `jobs.company_from_token`: 1 while the job's company is only its board's token (the source named
 *   no employer), so the page's JSON-LD employer replaces it even when the token reads like a name
 *   ("GoToGroup").
 * - `discovery_family_results.skipped_json`: feed entries a family skipped, each with its reason
 *   (a blank title or company), so a skip is recorded rather than failing the board.
 */
export class RealBoardFields1766600000000 implements MigrationInterface {
  name = 'RealBoardFields1766600000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE jobs ADD COLUMN locations_json TEXT`);
    await q.query(`ALTER TABLE jobs ADD COLUMN company_from_token INTEGER NOT NULL DEFAULT 0`);
    await q.query(`ALTER TABLE discovery_family_results ADD COLUMN skipped_json TEXT`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE discovery_family_results DROP COLUMN skipped_json`);
    await q.query(`ALTER TABLE jobs DROP COLUMN company_from_token`);
    await q.query(`ALTER TABLE jobs DROP COLUMN locations_json`);
  }
}
