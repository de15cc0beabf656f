import { Column, Entity, PrimaryColumn } from 'typeorm';

/** One row per worker process, upserted every heartbeat interval (table created by migration). */
@Entity('worker_heartbeats')
export class WorkerHeartbeatEntity {
  @PrimaryColumn({ name: 'worker_id', type: 'text' })
  workerId!: string;

  @Column({ name: 'task_queue', type: 'text' })
  taskQueue!: string;

  @Column({ name: 'database_path', type: 'text' })
  databasePath!: string;

  @Column({ name: 'app_dir', type: 'text' })
  appDir!: string;

  @Column({ type: 'text' })
  host!: string;

  @Column({ type: 'integer' })
  pid!: number;

  @Column({ name: 'activity_slots', type: 'integer' })
  activitySlots!: number;

  @Column({ name: 'local_control_slots', type: 'integer' })
  localControlSlots!: number;

  @Column({ name: 'executor_width', type: 'integer' })
  executorWidth!: number;

  @Column({ name: 'schema_version', type: 'integer' })
  schemaVersion!: number;

  /** JSON: activity counts, executor stats and runtime facts (see WorkerHeartbeatPayload). */
  @Column({ type: 'text' })
  payload!: string;

  @Column({ name: 'started_at', type: 'integer' })
  startedAt!: number;

  @Column({ name: 'recorded_at', type: 'integer' })
  recordedAt!: number;
}
