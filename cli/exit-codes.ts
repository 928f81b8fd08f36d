/** Exit code of an operator command that found the database behind its build: it did nothing (docs/operations.md#migrations). */
export const SCHEMA_BEHIND_EXIT_CODE = 3;
