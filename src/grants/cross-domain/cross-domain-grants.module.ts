import { Module } from '@nestjs/common';
import { JwtBearerGrantValidator } from './jwt-bearer.grant-validator';
import { IdentityChainingExchangeHandler, IdJagExchangeHandler } from './partner-grant.exchange-handlers';
import { PartnerGrantIssuer } from './partner-grant.issuer';

/**
 * Tokens across trust domains, both halves (docs/chaining.md): the RFC 7523 `jwt-bearer` grant that
 * redeems JWT authorization grants and ID-JAGs of trusted issuers, and the token-exchange handlers
 * that issue them for partner authorization servers. Written on Tollgate's public API only
 * (everything comes from the package's entry point), like a grant module of your own.
 */
@Module({
  providers: [JwtBearerGrantValidator, PartnerGrantIssuer, IdJagExchangeHandler, IdentityChainingExchangeHandler],
  exports: [JwtBearerGrantValidator, IdJagExchangeHandler, IdentityChainingExchangeHandler],
})
export class CrossDomainGrantsModule {}
