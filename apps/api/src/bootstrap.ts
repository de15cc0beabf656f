import { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ResolvedConfig } from '@jobctrl/shared/config';
import { runMigrations } from '@jobctrl/shared/db';
import { AppModule } from './app.module';
import { strictValidationPipe } from './http/validation';
import { setupOpenApi } from './openapi/openapi';

/** Builds the API (migrations applied first); used by main and by the e2e tests. */
export async function createApi(config: ResolvedConfig, opts: { logger?: false } = {}): Promise<INestApplication> {
  await runMigrations({ databasePath: config.databasePath });
  const app = await NestFactory.create(AppModule.forRoot(config), { logger: opts.logger ?? ['log', 'warn', 'error'] });
  app.useGlobalPipes(strictValidationPipe());
  app.enableShutdownHooks();
  setupOpenApi(app);
  return app;
}
