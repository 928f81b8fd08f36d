/** What APIs receiving transaction tokens use (docs/transaction-tokens.md). */
export type { TransactionTokenClaims } from './txn-token';
export { TransactionToken, TransactionTokenGuard } from './txn-token.guard';
export {
  createTransactionTokenVerifier,
  TransactionTokenError,
  TXN_TOKEN_HEADER,
  type TransactionTokenVerifier,
  type TransactionTokenVerifierOptions,
} from './txn-token.verifier';
