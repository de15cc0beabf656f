import { applyDecorators } from '@nestjs/common';
import { ApiResponse } from '@nestjs/swagger';
import type { Schema } from './openapi.types';

/**
 * The error bodies the API answers (libs/shared/api-errors, WorkerReadyGuard, the apply refusals),
 * as OpenAPI components. Hand-written because they are built as object literals inside exceptions,
 * where no type names them; api.e2e/openapi specs compare them with real answers.
 */
const fieldError: Schema = {
  type: 'object',
  description: 'One bad field: the dotted field path, the value sent and the rule it broke.',
  properties: { field: { type: 'string' }, value: { description: 'the value sent, as sent' }, rule: { type: 'string' } },
  required: ['field', 'value', 'rule'],
};
const base = {
  statusCode: { type: 'integer' },
  error: { type: 'string' },
  message: { type: 'string' },
};
const errorsList = { type: 'array', items: { $ref: '#/components/schemas/FieldError' } };

export const ERROR_SCHEMAS: Record<string, Schema> = {
  FieldError: fieldError,
  BadRequestError: {
    type: 'object',
    description: 'Bad input. `errors` names each bad field (absent only for a malformed id in the path, e.g. a non-UUID run id).',
    properties: { ...base, errors: errorsList },
    required: ['statusCode', 'message'],
  },
  ForbiddenError: {
    type: 'object',
    description: 'Refused for this caller whatever the input (a file-only setting while the API requires no token); `errors` names each field and why.',
    properties: { ...base, errors: errorsList },
    required: ['statusCode', 'message'],
  },
  NotFoundError: { type: 'object', description: 'No such id or jobKey.', properties: base, required: ['statusCode', 'message'] },
  ConflictError: {
    type: 'object',
    description:
      'Well-formed but clashing with what is stored. `code` says which refusal when the client can act on it (apply admission refusals, `artifacts_missing`); `errors` names fields (a duplicate source name, a disabled source); `blockers`/`missing` list what stands in the way.',
    properties: {
      ...base,
      code: { type: 'string' },
      errors: errorsList,
      blockers: { type: 'array', items: { type: 'string' } },
      missing: { type: 'array', items: { type: 'string' } },
    },
    required: ['statusCode', 'message'],
  },
  TooManyRequestsError: {
    type: 'object',
    description: 'A budget the caller cannot exceed is spent for now; ask again after `retryAfterSeconds`.',
    properties: { ...base, retryAfterSeconds: { type: 'integer', minimum: 1 } },
    required: ['statusCode', 'message', 'retryAfterSeconds'],
  },
  WorkerNotReadyError: {
    type: 'object',
    description: 'A worker-backed action while no worker has a fresh heartbeat for this database: nothing was started.',
    properties: { ...base, code: { type: 'string', enum: ['worker_not_ready'] }, worker: { $ref: '#/components/schemas/WorkerReadiness' } },
    required: ['statusCode', 'code', 'message', 'worker'],
  },
};

const BY_STATUS = {
  400: ['BadRequestError', 'Bad input; each bad field named'],
  403: ['ForbiddenError', 'Refused for this caller; each field named with why'],
  404: ['NotFoundError', 'Unknown id'],
  409: ['ConflictError', 'Refused: clashes with what is stored'],
  429: ['TooManyRequestsError', 'Budget spent; retry after retryAfterSeconds'],
  503: ['WorkerNotReadyError', 'worker_not_ready: no worker with a fresh heartbeat'],
} as const;

export type ErrorStatus = keyof typeof BY_STATUS;

/** Documents the error answers a route can give, each with its body schema. */
export function ApiErrors(...statuses: ErrorStatus[]): MethodDecorator & ClassDecorator {
  return applyDecorators(
    ...statuses.map((status) => {
      const [name, description] = BY_STATUS[status];
      return ApiResponse({ status, description, schema: { $ref: `#/components/schemas/${name}` } });
    }),
  );
}
