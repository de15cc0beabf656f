import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A reservation carries what its ledger row would need, so a call whose worker died mid-call (kill -9:
 * the provider may have billed it, nothing reached llm_spend) is charged instead of silently dropped:
 * - llm_spend_reservations: `reserved_at`, the call's `lane`, `provider`, `model`, `effort`,
 *   `job_key`, and `owner` (the reserving worker's id, as in worker_heartbeats.worker_id), so a dead
 *   owner's reservations settle as soon as its heartbeat is stale. Rows reserved before this
 *   migration keep NULLs; they settle at their TTL with 'unknown' in the columns they lack.
 * - llm_spend.reservation_id: the reservation an attempt was recorded under, so a settled call's
 *   `unknown` row can be found (and replaced by the real usage if the call completed after all). The
 *   unique partial index makes a second `unknown` row for one reservation impossible, not just unlikely.
 */
export class SpendReservationOwner1766400000000 implements MigrationInterface {
  name = 'SpendReservationOwner1766400000000';

  async up(q: QueryRunner): Promise<void> {
    for (const column of ['reserved_at INTEGER', 'lane TEXT', 'provider TEXT', 'model TEXT', 'effort TEXT', 'job_key TEXT', 'owner TEXT']) {
      await q.query(`ALTER TABLE llm_spend_reservations ADD COLUMN ${column}`);
    }
    await q.query(`ALTER TABLE llm_spend ADD COLUMN reservation_id TEXT`);
    await q.query(`CREATE INDEX llm_spend_reservation ON llm_spend (reservation_id) WHERE reservation_id IS NOT NULL`);
    await q.query(`CREATE UNIQUE INDEX llm_spend_unknown_reservation ON llm_spend (reservation_id) WHERE outcome = 'unknown'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX llm_spend_unknown_reservation`);
    await q.query(`DROP INDEX llm_spend_reservation`);
    await q.query(`ALTER TABLE llm_spend DROP COLUMN reservation_id`);
    for (const column of ['owner', 'job_key', 'effort', 'model', 'provider', 'lane', 'reserved_at']) {
      await q.query(`ALTER TABLE llm_spend_reservations DROP COLUMN ${column}`);
    }
  }
}
