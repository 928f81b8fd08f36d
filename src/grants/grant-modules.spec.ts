import { Injectable, Module } from '@nestjs/common';
import type { GrantSuccess } from './grant-validator';
import { exportedGrantValidators } from './grant-modules';

class Parameters {}

@Injectable()
class PartnerGrantValidator {
  readonly grantType = 'urn:test:partner';
  readonly parameters = Parameters;
  async validate(): Promise<GrantSuccess> {
    return { scopes: [] };
  }
}

@Injectable()
class PartnerDirectory {}

describe('exportedGrantValidators', () => {
  it('refuses a module that exports no grant validator, naming it', () => {
    @Module({ providers: [PartnerDirectory, PartnerGrantValidator], exports: [PartnerDirectory] })
    class HelpersOnlyModule {}

    expect(() => exportedGrantValidators(HelpersOnlyModule)).toThrow('HelpersOnlyModule exports no grant validator (a class with a validate method)');
  });

  it("returns the classes with a validate method among a module's exports, not its other exports", () => {
    @Module({ providers: [PartnerDirectory, PartnerGrantValidator], exports: [PartnerDirectory, PartnerGrantValidator] })
    class PartnerModule {}

    expect(exportedGrantValidators(PartnerModule)).toEqual([PartnerGrantValidator]);
  });

  it("reads a dynamic module's exports besides its class's", () => {
    @Module({})
    class ConfigurablePartnerModule {}

    const dynamic = { module: ConfigurablePartnerModule, providers: [PartnerGrantValidator], exports: [PartnerGrantValidator] };

    expect(exportedGrantValidators(dynamic)).toEqual([PartnerGrantValidator]);
  });
});
