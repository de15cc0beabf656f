import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The pay a job's posting page states (its JSON-LD baseSalary, as published), recorded by detail
 * capture beside the description: the compensation refresh reads it as one more statement of the
 * job's source. Null: the page was never read, or had no JobPosting to say anything.
 */
export class PageCompensation1766100000000 implements MigrationInterface {
  name = 'PageCompensation1766100000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE jobs ADD COLUMN page_compensation_json TEXT`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE jobs DROP COLUMN page_compensation_json`);
  }
}
