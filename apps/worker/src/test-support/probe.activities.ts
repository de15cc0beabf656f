import { Context } from '@temporalio/activity';
import type { UnitOfWorkFactory } from '@jobctrl/shared/db';
import type { ProbeActivities } from './test.workflows';

/** Activities for the worker's integration tests; they write to smoke_probes as stand-in stage work. */
export function createProbeActivities(uow: UnitOfWorkFactory, attempts: Map<string, number>): ProbeActivities {
  const insert = `INSERT INTO smoke_probes (workflow_id, run_id, activity_id, attempt, observed_active, started_at)
                  VALUES (?, 'probe', 'probe', 1, 0, ?)`;
  return {
    async leaveTransactionOpen(marker) {
      attempts.set(marker, (attempts.get(marker) ?? 0) + 1);
      return uow.run(async ({ queryRunner }) => {
        await queryRunner.query('BEGIN');
        await queryRunner.query(insert, [marker, Date.now()]);
        return marker; // returns "successfully" with the transaction still open
      });
    },
    async commitRow(marker) {
      attempts.set(marker, (attempts.get(marker) ?? 0) + 1);
      return uow.run(async ({ transaction }) => {
        await transaction((m) => m.query(insert, [marker, Date.now()]));
        return marker;
      });
    },
    async holdWithHeartbeats(ms) {
      const ctx = Context.current();
      const end = Date.now() + ms;
      let beats = 0;
      while (Date.now() < end) {
        ctx.heartbeat(beats++);
        await ctx.sleep(250);
      }
      return beats;
    },
    async waitWithoutProgress(ms) {
      // Reports one checkpoint, then waits far past its heartbeat timeout without another beat (like
      // a family in a host cooldown); a cancel ends the wait at once.
      const ctx = Context.current();
      ctx.heartbeat('checkpoint');
      await ctx.sleep(ms);
      return ctx.info.attempt;
    },
  };
}
