import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { hasNulCharacter, isFormBody, type FormBody } from '../../protocol/form';
import type { ParametersClass } from '../../protocol/form-parameters';
import { inspectParameters } from '../../protocol/inspected-parameters';

const FORM_MEDIA_TYPE = 'application/x-www-form-urlencoded';

/** `@PageQuery(Dto) parameters: InspectedParameters<Dto>`: the query string as the page's DTO. */
export const PageQuery = createParamDecorator((dto: ParametersClass<object>, context: ExecutionContext) =>
  inspectParameters(dto, parameters(context.switchToHttp().getRequest<FastifyRequest>().query)),
);

/** `@PageForm(Dto) form: InspectedParameters<Dto>`: the posted form as the page's DTO. */
export const PageForm = createParamDecorator((dto: ParametersClass<object>, context: ExecutionContext) =>
  inspectParameters(dto, form(context.switchToHttp().getRequest<FastifyRequest>())),
);

/** Query or form parameters; anything else (another content type, a NUL character) counts as none. */
function parameters(value: unknown): FormBody {
  return isFormBody(value) && !hasNulCharacter(value) ? value : {};
}

function form(request: FastifyRequest): FormBody {
  const mediaType = (request.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
  return mediaType === FORM_MEDIA_TYPE ? parameters(request.body) : {};
}
