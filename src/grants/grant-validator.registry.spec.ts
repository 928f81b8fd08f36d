import type { GrantContext, GrantSuccess, GrantValidator } from './grant-validator';
import { StartupFailure } from '../platform/logging/startup-failure';
import { recordGrantOrigin } from './grant-origins';
import { GrantValidatorRegistry } from './grant-validator.registry';

class NoParameters {}

class FirstValidator implements GrantValidator<NoParameters> {
  readonly parameters = NoParameters;
  constructor(readonly grantType: string) {}
  async validate(_parameters: NoParameters, _context: GrantContext): Promise<GrantSuccess> {
    return { scopes: [] };
  }
}
class SecondValidator extends FirstValidator {}

describe('GrantValidatorRegistry', () => {
  it('refuses two validators for one grant type, naming both classes', () => {
    expect(() => new GrantValidatorRegistry([new FirstValidator('delegation'), new SecondValidator('delegation')])).toThrow(
      'Two grant validators handle grant_type "delegation": FirstValidator and SecondValidator. Register one.',
    );
  });

  it('names the extension file a validator came from, and refuses a grant type name the CLI would refuse too', () => {
    class ExtensionValidator extends FirstValidator {}
    recordGrantOrigin(ExtensionValidator, 'TOLLGATE_EXTENSIONS /extensions/partner.js');
    expect(() => new GrantValidatorRegistry([new FirstValidator('delegation'), new ExtensionValidator('delegation')])).toThrow(
      'Two grant validators handle grant_type "delegation": FirstValidator and ExtensionValidator (TOLLGATE_EXTENSIONS /extensions/partner.js). Register one.',
    );
    expect(() => new GrantValidatorRegistry([new ExtensionValidator('partner key')])).toThrow(
      new StartupFailure(
        'ExtensionValidator (TOLLGATE_EXTENSIONS /extensions/partner.js): grant type "partner key" must be an absolute URI or a short name of letters, digits and - . _ (RFC 6749 §A.10)',
      ),
    );
    expect(() => new GrantValidatorRegistry([new FirstValidator(42 as unknown as string)])).toThrow('FirstValidator: grantType must be a string');
  });

  it('finds nothing for an unregistered grant type', () => {
    expect(new GrantValidatorRegistry([new FirstValidator('password')]).find('delegation')).toBeUndefined();
  });

  it('finds each validator by its grant type and lists the grant types in registration order', () => {
    const password = new FirstValidator('password');
    const delegation = new SecondValidator('delegation');
    const registry = new GrantValidatorRegistry([password, delegation]);
    expect(registry.find('password')).toBe(password);
    expect(registry.find('delegation')).toBe(delegation);
    expect(registry.grantTypes()).toEqual(['password', 'delegation']);
  });
});
