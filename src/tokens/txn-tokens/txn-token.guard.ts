import { createParamDecorator, UnauthorizedException, type CanActivate, type ExecutionContext } from '@nestjs/common';
import type { TransactionTokenClaims } from './txn-token';
import { createTransactionTokenVerifier, TXN_TOKEN_HEADER, type TransactionTokenVerifier, type TransactionTokenVerifierOptions } from './txn-token.verifier';

interface RequestWithTransactionToken {
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  transactionToken?: TransactionTokenClaims;
}

/**
 * For Nest APIs receiving transaction tokens: `@UseGuards(new TransactionTokenGuard({ issuer }))`
 * admits a request only with a valid `Txn-Token` header, and attaches its claims for
 * `@TransactionToken()`. Anything else is 401 `invalid_token`.
 */
export class TransactionTokenGuard implements CanActivate {
  private readonly verify: TransactionTokenVerifier;

  constructor(options: TransactionTokenVerifierOptions | TransactionTokenVerifier) {
    this.verify = typeof options === 'function' ? options : createTransactionTokenVerifier(options);
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<RequestWithTransactionToken>();
    const token = request.headers[TXN_TOKEN_HEADER];
    if (typeof token !== 'string' || token.length === 0) throw unauthorized('one Txn-Token header is required');
    try {
      request.transactionToken = await this.verify(token);
    } catch {
      throw unauthorized('the Txn-Token is not valid');
    }
    return true;
  }
}

/** The verified claims of the request's transaction token (after `TransactionTokenGuard`). */
export const TransactionToken = createParamDecorator(
  (_data: unknown, context: ExecutionContext) => context.switchToHttp().getRequest<RequestWithTransactionToken>().transactionToken,
);

function unauthorized(description: string): UnauthorizedException {
  return new UnauthorizedException({ error: 'invalid_token', error_description: description });
}
