import { BadRequestException, ConflictException, ForbiddenException, HttpException, HttpStatus } from '@nestjs/common';

/** One bad field in a 400 (or 409) answer: the dotted field path, the value sent and the rule it broke. */
export interface FieldError {
  field: string;
  value: unknown;
  rule: string;
}

/** The JSON body of every 400/409 the API builds by hand: Nest's own keys, then the fields at fault. */
interface ErrorBody {
  statusCode: number;
  error: string;
  message: string;
  errors?: FieldError[];
}

function body(statusCode: number, error: string, message: string, errors?: FieldError[]): ErrorBody {
  return errors ? { statusCode, error, message, errors } : { statusCode, error, message };
}

/** "field = value: rule; …", the message a 400 carries when the caller has no better sentence. */
function describe(errors: FieldError[]): string {
  return errors.map((e) => `${e.field} = ${JSON.stringify(e.value)}: ${e.rule}`).join('; ');
}

/**
 * A 400 naming each bad field (ARCHITECTURE §5). The message defaults to the fields listed; a
 * service passes its own when one sentence says it better.
 */
export function badRequest(errors: FieldError[], message = describe(errors)): BadRequestException {
  return new BadRequestException(body(400, 'Bad Request', message, errors));
}

/** A 409: the request is well-formed but clashes with what is stored; `errors` names the fields when there are any. */
export function conflict(message: string, errors?: FieldError[]): ConflictException {
  return new ConflictException(body(409, 'Conflict', message, errors));
}

/** A 403: the caller may not do this here; `errors` names each field refused and why. */
export function forbidden(errors: FieldError[], message = describe(errors)): ForbiddenException {
  return new ForbiddenException(body(403, 'Forbidden', message, errors));
}

/**
 * A 429: a budget the caller cannot exceed is spent for now. `retryAfterSeconds` says when asking
 * again can succeed (whole seconds, at least 1), so a client waits instead of polling.
 */
export function tooManyRequests(message: string, retryAfterSeconds: number): HttpException {
  return new HttpException(
    { statusCode: 429, error: 'Too Many Requests', message, retryAfterSeconds: Math.max(1, Math.ceil(retryAfterSeconds)) },
    HttpStatus.TOO_MANY_REQUESTS,
  );
}
