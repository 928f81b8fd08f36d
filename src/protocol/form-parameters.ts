import { getMetadataStorage, validateSync, type ValidationError } from 'class-validator';
import { MAX_PARAMETER_LENGTH, pickParameters, type FormBody, type RequestParameters } from './form';
import { OAuthError, type OAuthErrorCode } from './oauth-error';

/**
 * A parameter DTO: a class whose members carry class-validator decorators. Its values are strings
 * (or lists of strings) as the form sent them, so it carries no class-transformer decorators and is
 * made with `new`.
 */
export type ParametersClass<P extends object> = new () => P;

/**
 * The DTO holding the picked values. What `plainToInstance` would do for a DTO without
 * class-transformer decorators, without its cost: about 20,000 instructions a call, over 40% of
 * reading the delegation grant's parameters (bench/README.md#cost-of-dto-validation).
 */
export function parametersOf<P extends object>(dto: ParametersClass<P>, values: object): P {
  return Object.assign(new dto(), values);
}

/** What a constraint may carry in its class-validator `context` to choose its own error code. */
export interface ParameterConstraintContext {
  readonly error: OAuthErrorCode;
}

/** How a refused DTO is answered: its error code, unless a constraint names its own. */
export interface ParameterRefusal {
  readonly error: OAuthErrorCode;
}

/**
 * The names a DTO declares, read once from its class-validator metadata: every decorated member is
 * a parameter, a member declared `@IsArray()` (or `FormList`) may be repeated (RFC 8693 `audience`, `resource`), and
 * a member whose `@MaxLength` exceeds MAX_PARAMETER_LENGTH may be that long.
 */
export class ParameterSchema {
  private static readonly known = new WeakMap<object, ParameterSchema>();

  private constructor(
    readonly names: ReadonlySet<string>,
    readonly repeatable: ReadonlySet<string>,
    readonly longer: ReadonlyMap<string, number>,
  ) {}

  static of(dto: ParametersClass<object>): ParameterSchema {
    let schema = ParameterSchema.known.get(dto);
    if (!schema) {
      const metadata = getMetadataStorage().getTargetValidationMetadatas(dto, '', true, false);
      const longer = metadata
        .filter((entry) => entry.name === 'maxLength' && Number(entry.constraints[0]) > MAX_PARAMETER_LENGTH)
        .map((entry): [string, number] => [entry.propertyName, Number(entry.constraints[0])]);
      schema = new ParameterSchema(
        new Set(metadata.map((entry) => entry.propertyName)),
        new Set(metadata.filter((entry) => entry.name === 'isArray' || entry.name === 'isFormList').map((entry) => entry.propertyName)),
        new Map(longer),
      );
      ParameterSchema.known.set(dto, schema);
    }
    return schema;
  }
}

/**
 * The DTO's parameters from a form body, validated. Undeclared parameters are dropped
 * (a repeated or overlong one is refused as `invalid_request`); a failed
 * constraint becomes the refusal's code, or the code its `context` names, with the constraint's
 * message as the description.
 */
export function readParameters<P extends object>(dto: ParametersClass<P>, body: FormBody, refusal: ParameterRefusal): P {
  return validateParameters(dto, pickDeclaredParameters(dto, body), refusal);
}

/** The parameters the DTO declares, as sent: a repeated or overlong one refused as `invalid_request`. */
export function pickDeclaredParameters(dto: ParametersClass<object>, body: FormBody): RequestParameters {
  const schema = ParameterSchema.of(dto);
  // A DTO that declares no parameter (client_credentials) has nothing to pick or check.
  return schema.names.size === 0 ? NONE : pickParameters(body, schema.names, schema.repeatable, schema.longer);
}

/** The DTO holding the parameters it declares, picked from a request, validated. */
export function validateParameters<P extends object>(dto: ParametersClass<P>, picked: RequestParameters, refusal: ParameterRefusal): P {
  if (picked === NONE) return new dto();
  const parameters = parametersOf(dto, picked);
  const [failure] = validateSync(parameters, { stopAtFirstError: true, forbidUnknownValues: false, validationError: { target: false } });
  if (failure) throw parameterError(failure, refusal);
  return parameters;
}

const NONE: RequestParameters = Object.freeze({});

function parameterError(failure: ValidationError, refusal: ParameterRefusal): OAuthError {
  const [constraint, message] = Object.entries(failure.constraints ?? {})[0] ?? ['', `parameter ${failure.property} is invalid`];
  const context = failure.contexts?.[constraint] as ParameterConstraintContext | undefined;
  return new OAuthError(context?.error ?? refusal.error, message);
}
