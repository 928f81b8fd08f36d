/**
 * A failure to start whose message tells the operator everything (which setting, what went wrong):
 * logged as that one line, without a stack trace (docs/operations.md#logs).
 */
export class StartupFailure extends Error {
  override readonly name = 'StartupFailure';
}
