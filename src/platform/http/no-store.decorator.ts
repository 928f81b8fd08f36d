import { applyDecorators, Header } from '@nestjs/common';

/** RFC 6749 §5.1 / OIDC Core §5.3.2: a response that carries tokens or claims is never cached. */
export const NoStore = () => applyDecorators(Header('Cache-Control', 'no-store'), Header('Pragma', 'no-cache'));
