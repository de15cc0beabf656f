import type { UnitOfWorkFactory } from '@jobctrl/shared/db';
import type { PreparationTarget } from './preparation.repository';

export interface BatchTarget extends PreparationTarget {
  /** Position in the batch's frozen selection, from 1. */
  seq: number;
}

/** A preparation batch's frozen selection (preparation_batch_targets), read a page at a time. */
export class PreparationBatchRepository {
  constructor(private readonly uow: UnitOfWorkFactory) {}

  /**
   * Freezes the batch's selection once. A retried attempt (or a replayed workflow) finds the frozen
   * rows and gets the same count back, so the selection never changes under a running batch.
   */
  async freeze(batchId: string, targets: () => Promise<PreparationTarget[]>): Promise<number> {
    const existing = await this.count(batchId);
    if (existing !== null) return existing;
    const chosen = await targets();
    return this.uow.run(({ transaction }) =>
      transaction(async (m) => {
        const again: Array<{ n: number }> = await m.query(`SELECT COUNT(*) AS n FROM preparation_batch_targets WHERE batch_id = ?`, [batchId]);
        if (again[0].n > 0) return again[0].n;
        // SQLite allows 999 bound parameters: insert in chunks.
        for (let i = 0; i < chosen.length; i += 200) {
          const chunk = chosen.slice(i, i + 200);
          await m.query(
            `INSERT INTO preparation_batch_targets (batch_id, seq, job_key, idempotency_key) VALUES ${chunk.map(() => '(?, ?, ?, ?)').join(', ')}`,
            chunk.flatMap((t, j) => [batchId, i + j + 1, t.jobKey, t.idempotencyKey]),
          );
        }
        return chosen.length;
      }, 'immediate'),
    );
  }

  /** The frozen selection's size, or null when the batch has not frozen one (an empty selection is 0 rows, see freeze). */
  private async count(batchId: string): Promise<number | null> {
    const rows: Array<{ n: number }> = await this.uow.run(({ manager }) => manager.query(`SELECT COUNT(*) AS n FROM preparation_batch_targets WHERE batch_id = ?`, [batchId]));
    return rows[0].n > 0 ? rows[0].n : null;
  }

  async page(batchId: string, afterSeq: number, limit: number): Promise<BatchTarget[]> {
    const rows: Array<{ seq: number; job_key: string; idempotency_key: string }> = await this.uow.run(({ manager }) =>
      manager.query(`SELECT seq, job_key, idempotency_key FROM preparation_batch_targets WHERE batch_id = ? AND seq > ? ORDER BY seq LIMIT ?`, [batchId, afterSeq, limit]),
    );
    return rows.map((r) => ({ seq: r.seq, jobKey: r.job_key, idempotencyKey: r.idempotency_key }));
  }

  /** A finished batch's selection is no longer needed. */
  async release(batchId: string): Promise<void> {
    await this.uow.run(({ manager }) => manager.query(`DELETE FROM preparation_batch_targets WHERE batch_id = ?`, [batchId]));
  }
}
