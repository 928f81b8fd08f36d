import { Injectable, Logger } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import type { NewUser } from '../new-user';
import { readStoredUser, type StoredUserRow } from '../stored-user';
import type { User } from '../user';
import { UserRepository } from '../user.repository';
import { UserEntity } from './user.entity';

// One parameterized statement per lookup: building the query with `findOneBy` cost more CPU than
// the database work itself (the password grant reads the user on every request; userinfo and
// introspection read through UserStore's cache).
const SELECT_USER = 'SELECT subject_id, username, password_hash, enabled, claims, roles, updated_at FROM users WHERE';

// Users whose bad rows were already reported, so each is logged once, not on every request.
const MAX_REPORTED = 10_000;

@Injectable()
export class TypeOrmUserRepository extends UserRepository {
  private readonly logger = new Logger(TypeOrmUserRepository.name);
  private readonly reported = new Set<string>();

  constructor(@InjectRepository(UserEntity) private readonly users: Repository<UserEntity>) {
    super();
  }

  async findByUsername(username: string): Promise<User | undefined> {
    return this.toUser(await this.users.query(`${SELECT_USER} username = $1`, [username]));
  }

  async findBySubjectId(subjectId: string): Promise<User | undefined> {
    return this.toUser(await this.users.query(`${SELECT_USER} subject_id = $1`, [subjectId]));
  }

  private toUser([row]: StoredUserRow[]): User | undefined {
    if (!row) return undefined;
    const { user, skipped } = readStoredUser(row);
    if (skipped.length > 0 && !this.reported.has(user.subjectId) && this.reported.size < MAX_REPORTED) {
      this.reported.add(user.subjectId);
      this.logger.warn(`User ${user.subjectId.slice(0, 64)} has stored data that is not valid, skipped: ${skipped.join(', ')}`);
    }
    return user;
  }

  async findByClaim(name: string, value: string): Promise<User | undefined> {
    // Containment of {name: value} uses the GIN index users_claims (migration UserClaimsIndex) and
    // matches only a string claim equal to value. Two users with it match no one: the external subject is ambiguous.
    const rows: StoredUserRow[] = await this.users.query(`${SELECT_USER} claims @> jsonb_build_object($1::text, $2::text) LIMIT 2`, [name, value]);
    return rows.length === 1 ? this.toUser(rows) : undefined;
  }

  async add(user: NewUser): Promise<boolean> {
    // Raw SQL: INSERT … ON CONFLICT DO NOTHING RETURNING tells a taken username or subject in one statement.
    const inserted: unknown[] = await this.users.query(
      `INSERT INTO users (subject_id, username, password_hash, enabled, claims, roles) VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT DO NOTHING RETURNING subject_id`,
      [user.subjectId, user.username, user.passwordHash, user.enabled, JSON.stringify(user.claims), user.roles],
    );
    return inserted.length === 1;
  }

  async setPasswordHash(username: string, passwordHash: string): Promise<boolean> {
    const { affected } = await this.users.update({ username }, { passwordHash });
    return affected === 1;
  }

  async setEnabled(username: string, enabled: boolean): Promise<boolean> {
    const { affected } = await this.users.update({ username }, { enabled });
    return affected === 1;
  }
}
