/** The shapes apps/api/src/openapi/schema-extractor.ts derives from the controllers (OpenAPI 3.0 schema objects). */

export type Schema = Record<string, unknown>;

export interface OperationSchemas {
  /** The success status: @HttpCode's, else Nest's default (201 POST, 200 otherwise). */
  status: number;
  /** Undefined when the route answers no body (void, 204). */
  response?: Schema;
  /** A file download (StreamableFile): documented as binary, not JSON. */
  binary?: true;
  /** A server-sent-events route (@Sse): the schema of one event ({type, data}), served as text/event-stream. */
  eventStream?: Schema;
  body?: Schema;
  /** The @Query() DTO: each property becomes one query parameter. */
  query?: { dto: string; properties: Record<string, Schema>; required: string[] };
}

export interface ExtractedSchemas {
  /** Keyed `${Controller}_${method}`, @nestjs/swagger's default operationId. */
  operations: Record<string, OperationSchemas>;
  components: Record<string, Schema>;
}
