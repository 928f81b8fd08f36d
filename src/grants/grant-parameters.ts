import { plainToInstance } from 'class-transformer';
import { getMetadataStorage, validateSync, type ValidationError } from 'class-validator';
import { pickParameters, type FormBody } from '../oauth/form';
import { OAuthError, type OAuthErrorCode } from '../oauth/oauth-error';

/** A grant's parameter DTO: a class whose members carry class-validator decorators. */
export type GrantParametersClass<P extends object> = new () => P;

/** What a constraint may carry in its class-validator `context` to choose its own error code. */
export interface ParameterConstraintContext {
  readonly error: OAuthErrorCode;
}

/**
 * The names a DTO declares, read once from its class-validator metadata: every decorated member is
 * a parameter, and a member declared `@IsArray()` may be repeated (RFC 8693 `audience`, `resource`).
 */
export class GrantParameterSchema {
  private static readonly known = new WeakMap<object, GrantParameterSchema>();

  private constructor(
    readonly names: ReadonlySet<string>,
    readonly repeatable: ReadonlySet<string>,
  ) {}

  static of(dto: GrantParametersClass<object>): GrantParameterSchema {
    let schema = GrantParameterSchema.known.get(dto);
    if (!schema) {
      const metadata = getMetadataStorage().getTargetValidationMetadatas(dto, '', true, false);
      schema = new GrantParameterSchema(
        new Set(metadata.map((entry) => entry.propertyName)),
        new Set(metadata.filter((entry) => entry.name === 'isArray').map((entry) => entry.propertyName)),
      );
      GrantParameterSchema.known.set(dto, schema);
    }
    return schema;
  }
}

/**
 * The grant's parameters from a form body, as its DTO, validated. Undeclared parameters are
 * dropped (`pickParameters`); a failed constraint becomes `errorCode`, or the code its `context`
 * names, with the constraint's message as the description.
 */
export function readGrantParameters<P extends object>(dto: GrantParametersClass<P>, body: FormBody, errorCode: OAuthErrorCode): P {
  const schema = GrantParameterSchema.of(dto);
  const parameters = plainToInstance(dto, pickParameters(body, schema.names, schema.repeatable));
  const [failure] = validateSync(parameters, { stopAtFirstError: true, forbidUnknownValues: false, validationError: { target: false } });
  if (failure) throw parameterError(failure, errorCode);
  return parameters;
}

function parameterError(failure: ValidationError, errorCode: OAuthErrorCode): OAuthError {
  const [constraint, message] = Object.entries(failure.constraints ?? {})[0] ?? ['', `parameter ${failure.property} is invalid`];
  const context = failure.contexts?.[constraint] as ParameterConstraintContext | undefined;
  return new OAuthError(context?.error ?? errorCode, message);
}
