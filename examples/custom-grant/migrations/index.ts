import type { TollgateMigration } from 'tollgate';

/** This application's migrations, oldest first: `npm run client:migration -- …` appends here. */
export const migrations: TollgateMigration[] = [];
