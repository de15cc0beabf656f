import { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ResolvedConfig } from '@jobctrl/shared/config';
import { runMigrations } from '@jobctrl/shared/db';
import { AppModule } from './app.module';
import { strictValidationPipe } from './http/validation';
import { defaultWebDir, serveWebUi } from './http/web-ui';
import { setupOpenApi } from './openapi/openapi';

/** Builds the API (migrations applied first); used by main and by the e2e tests. `webDir`: the built UI served at / (default: the repo's dist/apps/web). */
export async function createApi(config: ResolvedConfig, opts: { logger?: false; webDir?: string } = {}): Promise<INestApplication> {
  await runMigrations({ databasePath: config.databasePath });
  const app = await NestFactory.create(AppModule.forRoot(config), { logger: opts.logger ?? ['log', 'warn', 'error'] });
  app.useGlobalPipes(strictValidationPipe());
  app.enableShutdownHooks();
  setupOpenApi(app);
  serveWebUi(app, opts.webDir ?? defaultWebDir());
  return app;
}
