import { Module, type DynamicModule } from '@nestjs/common';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfig } from '../platform/config/app.config';
import { TollgateModule } from '../tollgate.module';
import { builtInGrantModules } from './built-in-grants';
import { exportedGrantProviders } from './grant-modules';
import { GrantsModule } from './grants.module';
import { BUILT_IN_CONFIDENTIAL_GRANT_TYPES, BUILT_IN_PUBLIC_CLIENT_GRANT_TYPES } from './public-client-grants';

const BUILT_IN_GRANT_TYPES = [
  'authorization_code',
  'client_credentials',
  'password',
  'delegation',
  'refresh_token',
  'urn:ietf:params:oauth:grant-type:token-exchange',
  'urn:ietf:params:oauth:grant-type:device_code',
  'urn:ietf:params:oauth:grant-type:jwt-bearer',
];

/** What the built-in grant modules export, read exactly as an application's grant module is read. */
function builtInExports() {
  const exported = builtInGrantModules().map(exportedGrantProviders);
  const grantTypes = exported.flatMap(({ validators }) => validators.map((validator) => (Reflect.construct(validator, []) as { grantType: string }).grantType));
  const handlers = exported.flatMap(({ exchangeHandlers }) => exchangeHandlers.map((handler) => handler.name));
  return { grantTypes, handlers };
}

describe('the built-in grants take the one public path (docs/extending.md)', () => {
  it('are grant modules that export every built-in validator and exchange handler', () => {
    const { grantTypes, handlers } = builtInExports();
    expect(grantTypes.sort()).toEqual([...BUILT_IN_GRANT_TYPES].sort());
    expect(handlers.sort()).toEqual([
      'AccessTokenExchangeHandler',
      'IdJagExchangeHandler',
      'IdentityChainingExchangeHandler',
      'TransactionTokenExchangeHandler',
    ]);
  });

  it('declare publicClients exactly as the operator commands assume (public-client-grants.ts)', () => {
    const validators = builtInGrantModules()
      .flatMap((module) => exportedGrantProviders(module).validators)
      .map((validator) => Reflect.construct(validator, []) as { grantType: string; publicClients?: boolean });
    expect(
      validators
        .filter((validator) => validator.publicClients === true)
        .map((validator) => validator.grantType)
        .sort(),
    ).toEqual([...BUILT_IN_PUBLIC_CLIENT_GRANT_TYPES].sort());
    expect(
      validators
        .filter((validator) => validator.publicClients !== true)
        .map((validator) => validator.grantType)
        .sort(),
    ).toEqual([...BUILT_IN_CONFIDENTIAL_GRANT_TYPES].sort());
  });

  it("reach the token endpoint through the same GrantsModule.register({ modules }) as an application's grants, nothing else", () => {
    class PartnerGrant {
      readonly grantType = 'urn:test:partner';
      readonly parameters = class {};
      async validate(): Promise<object> {
        return {};
      }
    }
    @Module({ providers: [PartnerGrant], exports: [PartnerGrant] })
    class ApplicationGrants {}
    const tollgate = TollgateModule.forRoot({ config: loadConfig({}), grants: [ApplicationGrants] });
    const registered = (tollgate.imports ?? []).filter((module): module is DynamicModule => (module as DynamicModule).module === GrantsModule);
    expect(registered).toHaveLength(1);
    expect(registered[0].imports).toEqual([...builtInGrantModules(), ApplicationGrants]);
    // Collected from the modules' exports only: no validator is a provider of the registration itself.
    expect(registered[0].providers).toHaveLength(2);
  });

  it('are written without the token endpoint: no grant file imports src/endpoints/token or the continuation internals of another', () => {
    const files = readdirSync(__dirname).filter((file) => /\.(grant-validator|exchange-handler)\.ts$/.test(file));
    expect(files.length).toBeGreaterThanOrEqual(9);
    for (const file of files) expect(readFileSync(join(__dirname, file), 'utf8')).not.toMatch(/from '\.\.\/endpoints\//);
  });
});
