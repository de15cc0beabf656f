import { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { ConfigError, ResolvedConfig } from '@jobctrl/shared/config';
import { runMigrations, UnitOfWorkFactory } from '@jobctrl/shared/db';
import { apiAuth, apiTokenIssues, isLoopbackName, jsonDepthErrorHandler, LoginRateLimits, refuseReservedJsonKeys, RevokedSessionRepository, securityHeaders, verifyJsonDepth } from '@jobctrl/shared/api-security';
import { AppModule } from './app.module';
import { strictValidationPipe } from './http/validation';
import { defaultWebDir, serveWebUi } from './http/web-ui';
import { setupOpenApi } from './openapi/openapi';

/**
 * Builds the API (migrations applied first); used by main and by the e2e tests. `webDir`: the built UI
 * served at / (default: the repo's dist/apps/web); `loginRateLimits`: tests shorten the window.
 */
export async function createApi(config: ResolvedConfig, opts: { logger?: false; webDir?: string; loginRateLimits?: LoginRateLimits } = {}): Promise<INestApplication> {
  const tokenIssues = apiTokenIssues(config.api);
  if (tokenIssues.length > 0) throw new ConfigError(tokenIssues, config.configPath);
  await runMigrations({ databasePath: config.databasePath });
  // Logouts are read back before the first request is checked: a logged-out cookie stays out after a restart.
  const auth = await apiAuth({
    token: config.api.token,
    boundToLoopback: isLoopbackName(config.api.host),
    revocationStore: new RevokedSessionRepository(new UnitOfWorkFactory({ databasePath: config.databasePath, entities: [] })),
    loginRateLimits: opts.loginRateLimits,
  });
  // CORS stays off (Nest enables it only when asked): no Access-Control-Allow-Origin on any answer.
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot(config), { logger: opts.logger ?? ['log', 'warn', 'error'] });
  // Order matters: express runs these before the routes Nest registers at init, so the headers and the
  // token check cover everything served — /v1, the event stream, the docs and the UI's files alike.
  app.use(securityHeaders());
  app.use(auth);
  app.useBodyParser('json', { limit: '100kb', verify: verifyJsonDepth });
  app.use(jsonDepthErrorHandler);
  // Before the ValidationPipe, which would drop these keys silently.
  app.use(refuseReservedJsonKeys);
  app.useGlobalPipes(strictValidationPipe());
  app.enableShutdownHooks();
  setupOpenApi(app);
  serveWebUi(app, opts.webDir ?? defaultWebDir());
  return app;
}
