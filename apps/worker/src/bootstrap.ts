import { NestFactory } from '@nestjs/core';
import { ResolvedConfig } from '@jobctrl/shared/config';
import { runMigrations } from '@jobctrl/shared/db';
import { WorkerModule } from './worker.module';
import { WorkerRuntime } from './worker-runtime';

export async function startWorker(config: ResolvedConfig): Promise<void> {
  await runMigrations({ databasePath: config.databasePath });
  const app = await NestFactory.createApplicationContext(WorkerModule.forRoot(config), { logger: ['log', 'warn', 'error'] });
  try {
    await app.get(WorkerRuntime).run();
  } finally {
    await app.close();
  }
}
