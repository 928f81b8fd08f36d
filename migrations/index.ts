import { InitialSchema1763870400000 } from './1763870400000-InitialSchema';

/** Every migration, oldest first. `npm run client:migration` appends here. */
export const migrations = [InitialSchema1763870400000];
