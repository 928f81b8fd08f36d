import { Inject, Injectable } from '@nestjs/common';
import { CachedLookup } from '../../platform/cache/cached-lookup';
import type { ConfigType } from '../../platform/config/config-slice';
import { cacheConfig } from '../../platform/config/config.slices';
import type { User } from './user';
import { UserDirectory } from './user-directory';

/**
 * Users by subject id for the hot paths (userinfo, introspection, the token endpoint's check that a
 * token's user is enabled), read from the directory at most `CACHE_TTL_SECONDS` after they were last
 * read: a disabled user or a changed claim is seen within that time. Grants that authenticate users
 * (password, refresh, authorization code) also read the directory directly.
 */
@Injectable()
export class UserStore {
  private readonly users: CachedLookup<User>;

  constructor(@Inject(UserDirectory) directory: Pick<UserDirectory, 'findBySubjectId'>, @Inject(cacheConfig.KEY) cache: ConfigType<typeof cacheConfig>) {
    this.users = new CachedLookup((subjectId) => directory.findBySubjectId(subjectId), cache.ttlSeconds);
  }

  findBySubjectId(subjectId: string): Promise<User | undefined> {
    return this.users.get(subjectId);
  }
}
