import type { MigrationInterface, QueryRunner } from 'typeorm';

// OpenID Connect Core 1.0 §5.4: the claims each standard scope requests; `role` is Tollgate's own
// (docs/tokens.md). Every database has them, demo data or not.
const STANDARD_IDENTITY_RESOURCES: ReadonlyArray<readonly [string, readonly string[]]> = [
  ['openid', ['sub']],
  [
    'profile',
    [
      'name', 'family_name', 'given_name', 'middle_name', 'nickname', 'preferred_username', 'profile',
      'picture', 'website', 'gender', 'birthdate', 'zoneinfo', 'locale', 'updated_at',
    ],
  ],
  ['email', ['email', 'email_verified']],
  ['role', ['role']],
  ['address', ['address']],
  ['phone', ['phone_number', 'phone_number_verified']],
];

export class StandardIdentityResources1764500000000 implements MigrationInterface {
  name = 'StandardIdentityResources1764500000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    // A database seeded with the demo set before this migration already has the first four.
    for (const [name, claimTypes] of STANDARD_IDENTITY_RESOURCES) {
      await queryRunner.query('INSERT INTO identity_resources (name, claim_types) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING', [name, claimTypes]);
    }
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DELETE FROM identity_resources WHERE name = ANY($1)', [STANDARD_IDENTITY_RESOURCES.map(([name]) => name)]);
  }
}
