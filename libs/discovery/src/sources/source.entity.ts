import { Column, Entity, PrimaryColumn } from 'typeorm';

@Entity('sources')
export class SourceEntity {
  @PrimaryColumn({ type: 'text' })
  id!: string;

  @Column({ type: 'text' })
  kind!: string;

  @Column({ type: 'text' })
  name!: string;

  @Column({ type: 'text' })
  family!: string;

  @Column({ type: 'integer', transformer: { to: (v: boolean) => (v ? 1 : 0), from: (v: number) => v === 1 } })
  enabled!: boolean;

  /** The adapter config as JSON (validated by the adapter of `kind` before it is stored). */
  @Column({ type: 'text' })
  config!: string;

  @Column({ name: 'created_at', type: 'integer' })
  createdAt!: number;

  @Column({ name: 'updated_at', type: 'integer' })
  updatedAt!: number;
}
