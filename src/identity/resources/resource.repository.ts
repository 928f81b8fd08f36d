import type { Resources } from './resource';

/** Where identity and API resources are stored; also the DI token. */
export abstract class ResourceRepository {
  /** Every enabled resource. The tables are small and change rarely. */
  abstract loadEnabled(): Promise<Resources>;
}
