import type { INestApplication } from '@nestjs/common';
import { ModulesContainer } from '@nestjs/core';
import { DocumentBuilder, type OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { ERROR_SCHEMAS } from './api-errors.decorator';
import { GENERATED_SCHEMAS } from './openapi.schemas.generated';
import type { ExtractedSchemas, Schema } from './openapi.types';
import { applyRules, dtoRules, type Rule } from './validation-rules';

export const OPENAPI_JSON_PATH = '/v1/openapi.json';
export const DOCS_PATH = '/v1/docs';

type Operation = { operationId?: string; responses: Record<string, { description?: string; content?: Record<string, { schema: Schema }> }>; requestBody?: { content: Record<string, { schema: Schema }> }; parameters?: Array<{ in: string; name: string }> };

/**
 * Puts the schemas derived from the controllers' types (schema-extractor.ts) into the document
 * @nestjs/swagger built from the routes: the success response of each operation, its request body
 * and its query parameters. Routes come from Nest (so none is missed); shapes come from TypeScript.
 */
export function applySchemas(doc: OpenAPIObject, schemas: ExtractedSchemas, dtoClasses: Iterable<{ name: string }> = []): OpenAPIObject {
  const rules = dtoRules(dtoClasses);
  // A DTO extending another DTO is allOf [its base's $ref, its own fields]: the rules go on its own fields.
  const withRules = (schema: Schema, own: readonly Rule[]): Schema =>
    schema['properties']
      ? { ...schema, properties: applyRules(schema['properties'] as Record<string, Schema>, own) }
      : Array.isArray(schema['allOf'])
        ? { ...schema, allOf: (schema['allOf'] as Schema[]).map((part) => withRules(part, own)) }
        : schema;
  const components: Record<string, Schema> = { ...schemas.components };
  for (const [name, schema] of Object.entries(components)) {
    const own = rules.get(name);
    if (own) components[name] = withRules(schema, own);
  }
  doc.components = { ...doc.components, schemas: { ...doc.components?.schemas, ...components, ...ERROR_SCHEMAS } };
  for (const item of Object.values(doc.paths)) {
    for (const op of Object.values(item) as Operation[]) {
      const extracted = op?.operationId ? schemas.operations[op.operationId] : undefined;
      if (!extracted) continue;
      // Nest adds its default success response only to routes without @ApiResponse (our error decorators).
      const success = String(extracted.status);
      const response = (op.responses[success] ??= { description: '' });
      if (!response.description) response.description = success === '204' ? 'No content' : 'Success';
      if (extracted.response) response.content = { 'application/json': { schema: extracted.response } };
      if (extracted.binary) response.content = { 'image/png': { schema: { type: 'string', format: 'binary' } } };
      if (extracted.eventStream) response.content = { 'text/event-stream': { schema: extracted.eventStream } };
      if (extracted.body && op.requestBody?.content['application/json']) {
        op.requestBody.content['application/json'].schema = extracted.body;
      }
      if (extracted.query) {
        const { required } = extracted.query;
        const properties = applyRules(extracted.query.properties, rules.get(extracted.query.dto) ?? []);
        op.parameters = [
          ...(op.parameters ?? []).filter((p) => p.in !== 'query'),
          ...Object.entries(properties).map(([name, schema]) => ({ name, in: 'query', required: required.includes(name), schema })),
        ];
      }
    }
  }
  return doc;
}

/** The whole document: Nest's routes and decorators, the derived schemas, the error bodies. */
export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const info = new DocumentBuilder()
    .setTitle('jobctrl API')
    .setDescription(
      'Self-hosted job-search pipeline. config.json and the settings documents are snake_case; other JSON is camelCase. ' +
        'Bad input answers 400 naming each field, an unknown id 404, a worker-backed action without a ready worker 503 worker_not_ready.',
    )
    .setVersion('1')
    .build();
  return applySchemas(SwaggerModule.createDocument(app, info), GENERATED_SCHEMAS, routeParameterClasses(app));
}

/**
 * The classes the routes take (their @Body and @Query DTOs), from the parameter types TypeScript
 * emits for the controllers' decorated methods: a DTO that declares no rule of its own is found
 * only here, not in class-validator's registry.
 */
function routeParameterClasses(app: INestApplication): Array<{ name: string }> {
  const classes: Array<{ name: string }> = [];
  for (const module of app.get(ModulesContainer).values()) {
    for (const { metatype } of module.controllers.values()) {
      const prototype = (metatype as { prototype?: object } | null)?.prototype;
      if (!prototype) continue;
      for (const key of Object.getOwnPropertyNames(prototype)) {
        const types = (Reflect.getMetadata('design:paramtypes', prototype, key) as unknown[] | undefined) ?? [];
        for (const type of types) if (typeof type === 'function') classes.push(type);
      }
    }
  }
  return classes;
}

/**
 * GET /v1/openapi.json and the Swagger UI at /v1/docs. The UI's assets are served from the
 * swagger-ui-dist package on disk (no CDN: jobctrl runs offline). Built lazily on first request.
 */
export function setupOpenApi(app: INestApplication): void {
  let doc: OpenAPIObject | undefined;
  SwaggerModule.setup(DOCS_PATH.slice(1), app, () => (doc ??= buildOpenApiDocument(app)), {
    jsonDocumentUrl: OPENAPI_JSON_PATH.slice(1),
    raw: ['json'],
    customSiteTitle: 'jobctrl API',
  });
}
