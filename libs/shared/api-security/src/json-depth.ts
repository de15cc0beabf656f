import type { IncomingMessage, ServerResponse } from 'node:http';
import { badRequest } from '@jobctrl/shared/api-errors';

/** The deepest nesting of objects/arrays a request body may have; no DTO of the API goes past ~6. */
export const MAX_JSON_DEPTH = 32;

/**
 * The nesting depth of raw JSON bytes, stopping as soon as it passes `max` (the scan is linear and
 * allocates nothing, so a 100 kB "[[[[…" costs a pass over its bytes, not a deep parse and walk).
 * Brackets inside strings do not count. The text need not be valid JSON: the parser judges that.
 */
export function jsonDepthExceeds(buf: Uint8Array, max = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < buf.length; i++) {
    const c = buf[i];
    if (inString) {
      if (c === 0x5c) i++; // backslash: the next byte is escaped
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > max) return true;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return false;
}

const TOO_DEEP = 'entity.too.deep';

/** body-parser's `verify` hook: refuses a too-deep body before it is parsed. */
export function verifyJsonDepth(_req: IncomingMessage, _res: ServerResponse, buf: Buffer): void {
  if (jsonDepthExceeds(buf)) throw Object.assign(new Error(`JSON nested deeper than ${MAX_JSON_DEPTH} levels`), { status: 400, type: TOO_DEEP });
}

/** Express error middleware placed right after the JSON parser: the depth refusal as the API's 400 body. */
export function jsonDepthErrorHandler(err: unknown, _req: IncomingMessage, res: ServerResponse, next: (err?: unknown) => void): void {
  if ((err as { type?: string } | null)?.type !== TOO_DEEP) return next(err);
  const body = badRequest([{ field: '(body)', value: null, rule: `JSON may nest at most ${MAX_JSON_DEPTH} levels of objects and arrays` }]).getResponse();
  res.statusCode = 400;
  res.setHeader('content-type', 'application/json; charset=utf-8');
  res.end(JSON.stringify(body));
}
