import type { FormBody } from './form';
import { ParameterSchema, readParameters, type ParametersClass } from './form-parameters';
import type { OAuthErrorCode } from './oauth-error';

export type { ParameterConstraintContext } from './form-parameters';

/** A grant's parameter DTO: a class whose members carry class-validator decorators. */
export type GrantParametersClass<P extends object> = ParametersClass<P>;

/** The names a grant's DTO declares. */
export const GrantParameterSchema = ParameterSchema;

/** The grant's parameters from a form body, as its DTO, validated; a failure is `errorCode` unless its constraint names another. */
export function readGrantParameters<P extends object>(dto: GrantParametersClass<P>, body: FormBody, errorCode: OAuthErrorCode): P {
  return readParameters(dto, body, { error: errorCode });
}
