import { IsOptional, IsString, MaxLength, ValidateBy, validateSync } from 'class-validator';
import type { FormBody } from './form';
import { ParameterSchema, parametersOf, type ParametersClass } from './form-parameters';
import { OAuthError } from './oauth-error';

/** A form field sent at most once, of at most `maxLength` characters; an empty one counts as absent when read. */
export function FormField(maxLength: number): PropertyDecorator {
  return (target, property) => {
    // Registered in the order they are checked: a repeated field is refused as such, before its length.
    IsOptional()(target, property);
    IsString({ message: 'parameter $property must not be repeated' })(target, property);
    MaxLength(maxLength, { message: 'parameter $property is too long' })(target, property);
  };
}

/** The class-validator name of `FormList`, which `ParameterSchema` takes for a repeatable member. */
export const FORM_LIST = 'isFormList';

/** A form field that may repeat: at most `maxCount` values of at most `maxLength` characters each. */
export function FormList(maxLength: number, maxCount: number): PropertyDecorator {
  return (target, property) => {
    IsOptional()(target, property);
    ValidateBy(
      {
        name: FORM_LIST,
        validator: {
          validate: (value: unknown) => {
            const values = (Array.isArray(value) ? value : [value]) as unknown[];
            return values.length <= maxCount && values.every((entry) => typeof entry === 'string' && entry.length <= maxLength);
          },
          defaultMessage: () => `parameter ${String(property)} is too long or repeated too often`,
        },
      },
      {},
    )(target, property);
  };
}

/**
 * A DTO validated without refusing, for the browser endpoints, which answer each problem where and
 * when they reach it (docs/browser-sign-in.md#authorization-endpoint--get-or-post-connectauthorize):
 * the members as sent (a repeated one left out) and why each refused member was refused.
 */
export class InspectedParameters<P extends object> {
  constructor(
    readonly sent: Readonly<P>,
    private readonly refusals: ReadonlyMap<string, string>,
    /** The members sent more than once, in the order the request named them. */
    readonly repeated: readonly string[],
  ) {}

  /** The member, undefined when absent or empty; a refused member is `invalid_request` with its reason. */
  valid(name: keyof P & string): string | undefined {
    const refusal = this.refusals.get(name);
    if (refusal !== undefined) throw OAuthError.invalidRequest(refusal);
    const value = this.sent[name];
    return typeof value === 'string' && value !== '' ? value : undefined;
  }

  /** A repeatable member (`FormList`): its value or values as sent; a refused member is `invalid_request`. */
  listed(name: keyof P & string): unknown {
    const refusal = this.refusals.get(name);
    if (refusal !== undefined) throw OAuthError.invalidRequest(refusal);
    return this.sent[name];
  }

  /** The member, undefined when absent, empty or refused. */
  accepted(name: keyof P & string): string | undefined {
    return this.refusals.has(name) ? undefined : this.valid(name);
  }
}

/** The DTO's members from a form body or query, validated; undeclared parameters are dropped. */
export function inspectParameters<P extends object>(dto: ParametersClass<P>, body: FormBody): InspectedParameters<P> {
  const { names, repeatable } = ParameterSchema.of(dto);
  const declared = Object.keys(body).filter((name) => names.has(name));
  const parameters = parametersOf(dto, Object.fromEntries(declared.map((name) => [name, body[name]])));
  const refusals = new Map<string, string>();
  for (const failure of validateSync(parameters, { stopAtFirstError: true, forbidUnknownValues: false, validationError: { target: false } })) {
    refusals.set(failure.property, Object.values(failure.constraints ?? {})[0] ?? `parameter ${failure.property} is invalid`);
  }
  const repeated = declared.filter((name) => Array.isArray(body[name]) && !repeatable.has(name));
  for (const name of repeated) Reflect.deleteProperty(parameters, name);
  return new InspectedParameters(parameters, refusals, repeated);
}
