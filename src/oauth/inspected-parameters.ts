import { IsOptional, IsString, MaxLength, validateSync } from 'class-validator';
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

  /** The member, undefined when absent, empty or refused. */
  accepted(name: keyof P & string): string | undefined {
    return this.refusals.has(name) ? undefined : this.valid(name);
  }
}

/** The DTO's members from a form body or query, validated; undeclared parameters are dropped. */
export function inspectParameters<P extends object>(dto: ParametersClass<P>, body: FormBody): InspectedParameters<P> {
  const { names } = ParameterSchema.of(dto);
  const declared = Object.keys(body).filter((name) => names.has(name));
  const parameters = parametersOf(dto, Object.fromEntries(declared.map((name) => [name, body[name]])));
  const refusals = new Map<string, string>();
  for (const failure of validateSync(parameters, { stopAtFirstError: true, forbidUnknownValues: false, validationError: { target: false } })) {
    refusals.set(failure.property, Object.values(failure.constraints ?? {})[0] ?? `parameter ${failure.property} is invalid`);
  }
  const repeated = declared.filter((name) => Array.isArray(body[name]));
  for (const name of repeated) Reflect.deleteProperty(parameters, name);
  return new InspectedParameters(parameters, refusals, repeated);
}
