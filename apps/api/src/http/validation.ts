import { BadRequestException, ValidationError, ValidationPipe } from '@nestjs/common';
import { badRequest, type FieldError } from '@jobctrl/shared/api-errors';
import { ConfigError } from '@jobctrl/shared/config';

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
