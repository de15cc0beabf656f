import type { IncomingMessage, ServerResponse } from 'node:http';
import { badRequest, type FieldError } from '@jobctrl/shared/api-errors';

/**
 * Keys Nest's ValidationPipe deletes from every body, at any depth, before a DTO sees it (its guard
 * against prototype pollution). A free-form map such as PUT /v1/jobs/:jobKey/answers lost such an
 * entry without a word and answered 200 (#39); they are refused by name instead.
 */
export const RESERVED_JSON_KEYS: readonly string[] = ['__proto__', 'constructor', 'prototype'];

/** Each reserved key in a parsed JSON body, named by its path (`answers.constructor`, `items.0.prototype`). */
export function reservedJsonKeys(value: unknown, at = ''): FieldError[] {
  if (typeof value !== 'object' || value === null) return [];
  // JSON.parse makes "__proto__" an own key, so Object.keys sees it; verifyJsonDepth bounds the recursion.
  return Object.keys(value).flatMap((key) => {
    const field = at ? `${at}.${key}` : key;
    const child = (value as Record<string, unknown>)[key];
    if (RESERVED_JSON_KEYS.includes(key)) return [{ field, value: child, rule: `"${key}" is not accepted as a key (JavaScript objects treat it specially)` }];
    return reservedJsonKeys(child, field);
  });
}

/** Express middleware placed after the JSON parser: a body holding a reserved key is the API's 400 naming each. */
export function refuseReservedJsonKeys(req: IncomingMessage & { body?: unknown }, res: ServerResponse, next: (err?: unknown) => void): void {
  const errors = reservedJsonKeys(req.body);
  if (errors.length === 0) return next();
  res.statusCode = 400;
  res.setHeader('content-type', 'application/json; charset=utf-8');
  res.end(JSON.stringify(badRequest(errors).getResponse()));
}
