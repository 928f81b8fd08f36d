import { applyDecorators } from '@nestjs/common';
import { plainToInstance, Transform } from 'class-transformer';
import { getMetadataStorage, IsInt, Max, Min, validateSync, ValidateBy, type ValidationOptions } from 'class-validator';

export type Env = Readonly<Record<string, string | undefined>>;

/**
 * The options of every constraint on a variable: one message naming it, `NAME must be …`, so a bad
 * variable is reported once whichever constraint refused it (docs/configuration.md).
 */
export function mustBe(expected: string): ValidationOptions {
  return { message: `$property must be ${expected}` };
}

/** A whole number from `min` to `max`, written in digits only (no sign, point, exponent or hex). */
export function IntegerIn(min: number, max: number, expected = `an integer from ${min} to ${max}`): PropertyDecorator {
  return NumberIn(min, max, expected, (raw) => (/^\d+$/.test(raw) ? Number(raw) : undefined));
}

/** A number read by `parse` (undefined: not readable), from `min` to `max`. */
export function NumberIn(min: number, max: number, expected: string, parse: (raw: string) => number | undefined): PropertyDecorator {
  const options = mustBe(expected);
  // An unreadable value stays a string, which IsInt refuses with the variable's message.
  const read = Transform(({ value }: { value: string }) => parse(value) ?? value);
  return applyDecorators(read, IsInt(options), Min(min, options), Max(max, options));
}

/** A value that `test` accepts. */
export function Satisfies(test: (value: unknown) => boolean, expected: string): PropertyDecorator {
  return ValidateBy({ name: 'satisfies', validator: { validate: (value) => test(value) } }, mustBe(expected));
}

/** Whether `value` is a URL with one of `protocols` (e.g. 'redis:'). */
export function hasProtocol(...protocols: string[]): (value: unknown) => boolean {
  return (value) => {
    try {
      return typeof value === 'string' && protocols.includes(new URL(value).protocol);
    } catch {
      return false;
    }
  };
}

/** The variables of `type` read from `env` and validated (plainToInstance + validateSync). */
export interface ValidatedEnvironment<T> {
  /** Set variables that passed; unset, empty and refused ones are undefined, so their defaults apply. */
  readonly variables: Partial<T>;
  /** One `NAME must be …` per refused variable, in the order the class declares them. */
  readonly problems: string[];
}

export function validateEnvironment<T extends object>(type: new () => T, env: Env): ValidatedEnvironment<T> {
  const declared = new Set(
    getMetadataStorage()
      .getTargetValidationMetadatas(type, '', true, false)
      .map((entry) => entry.propertyName),
  );
  // An empty value means unset (docs/configuration.md); other variables of the environment are not read.
  const present = Object.fromEntries(Object.entries(env).filter(([name, value]) => declared.has(name) && value !== undefined && value !== ''));
  const variables: Partial<T> = plainToInstance(type, present);
  const failures = validateSync(variables, { skipMissingProperties: true, stopAtFirstError: true, validationError: { target: false, value: false } });
  const problems = failures.map((failure) => Object.values(failure.constraints ?? {})[0] ?? `${failure.property} is invalid`);
  for (const failure of failures) delete variables[failure.property as keyof T];
  return { variables, problems };
}
