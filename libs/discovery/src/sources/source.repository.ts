import { Injectable } from '@nestjs/common';
import { UnitOfWorkFactory } from '@jobctrl/shared/db';
import { SourceEntity } from './source.entity';

@Injectable()
export class SourceRepository {
  constructor(private readonly uow: UnitOfWorkFactory) {}

  list(): Promise<SourceEntity[]> {
    return this.uow.run(({ manager }) => manager.find(SourceEntity, { order: { createdAt: 'ASC', id: 'ASC' } }));
  }

  find(id: string): Promise<SourceEntity | null> {
    return this.uow.run(({ manager }) => manager.findOneBy(SourceEntity, { id }));
  }

  /** Inserts or replaces one source; false when another source already uses the name. */
  async save(source: SourceEntity): Promise<boolean> {
    return this.uow.run(({ transaction }) =>
      transaction(async (m) => {
        const clash = await m.findOneBy(SourceEntity, { name: source.name });
        if (clash && clash.id !== source.id) return false;
        await m.save(SourceEntity, source);
        return true;
      }, 'immediate'),
    );
  }

  async remove(id: string): Promise<boolean> {
    const result = await this.uow.run(({ manager }) => manager.delete(SourceEntity, { id }));
    return (result.affected ?? 0) > 0;
  }
}
