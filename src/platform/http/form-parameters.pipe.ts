import { Body, type PipeTransform } from '@nestjs/common';
import { isFormBody } from '../../protocol/form';
import { readParameters, type ParameterRefusal, type ParametersClass } from '../../protocol/form-parameters';
import { OAuthError } from '../../protocol/oauth-error';

const INVALID_REQUEST: ParameterRefusal = { error: 'invalid_request' };

/**
 * Hands the handler the form body as its DTO, validated (`readParameters`); a refused DTO is the
 * endpoint's OAuth error. The route's guard has already required a form body (`requireFormBody`).
 */
export class FormParametersPipe<P extends object> implements PipeTransform<unknown, P> {
  constructor(
    private readonly dto: ParametersClass<P>,
    private readonly refusal: ParameterRefusal = INVALID_REQUEST,
  ) {}

  transform(body: unknown): P {
    if (!isFormBody(body)) throw OAuthError.invalidRequest('the request body must be application/x-www-form-urlencoded');
    return readParameters(this.dto, body, this.refusal);
  }
}

/** `@FormParameters(Dto) parameters: Dto`: the form body as a validated DTO. */
export const FormParameters = <P extends object>(dto: ParametersClass<P>, refusal?: ParameterRefusal): ParameterDecorator =>
  Body(new FormParametersPipe(dto, refusal));
