import { StartupFailure } from '../logging/startup-failure';

/** An operator command found the schema behind its build: it stops before reading or writing anything (docs/operations.md#migrations). */
export class SchemaBehindError extends StartupFailure {
  /** `hint`: what else the command could do, e.g. write a migration without checking the database. */
  constructor(
    readonly pending: readonly string[],
    hint = '',
  ) {
    super(
      `The database is behind this build by ${pending.length} migration${pending.length === 1 ? '' : 's'} (${named(pending)}). ` +
        'Operator commands never apply migrations: apply them with `tollgate migrate` (npm run migrate), or deploy and start the service, which applies them at start.' +
        hint,
    );
  }
}

/** All of a few; of many (a database never migrated), the first and the last. */
function named(pending: readonly string[]): string {
  return pending.length <= 4 ? pending.join(', ') : `${pending[0]}, …, ${pending.at(-1)}`;
}
