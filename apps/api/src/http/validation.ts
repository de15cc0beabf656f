import { BadRequestException, ValidationError, ValidationPipe } from '@nestjs/common';
import { ConfigError } from '@jobctrl/shared/config';

/** One bad field in a 400 answer: the dotted field path, the value sent and the rule it broke. */
export interface FieldError {
  field: string;
  value: unknown;
  rule: string;
}

export function badRequest(errors: FieldError[]): BadRequestException {
  return new BadRequestException({
    statusCode: 400,
    error: 'Bad Request',
    message: errors.map((e) => `${e.field} = ${JSON.stringify(e.value)}: ${e.rule}`).join('; '),
    errors,
  });
}

export function configErrorToBadRequest(err: ConfigError): BadRequestException {
  return badRequest(err.issues.map((i) => ({ field: i.key, value: i.value, rule: i.rule })));
}

function flatten(errors: ValidationError[], prefix = ''): FieldError[] {
  return errors.flatMap((e) => {
    const field = prefix ? `${prefix}.${e.property}` : e.property;
    const own = Object.values(e.constraints ?? {}).map((rule) => ({ field, value: e.value, rule }));
    return [...own, ...flatten(e.children ?? [], field)];
  });
}

/**
 * Every DTO is validated strictly: unknown fields are rejected (not silently dropped) and nothing is
 * coerced, so "2" is not accepted where 2 is meant. Errors name each field.
 */
export function strictValidationPipe(): ValidationPipe {
  return new ValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    transform: true,
    transformOptions: { enableImplicitConversion: false },
    exceptionFactory: (errors) => badRequest(flatten(errors)),
  });
}
