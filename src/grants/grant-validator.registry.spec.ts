import type { GrantContext, GrantSuccess, GrantValidator } from './grant-validator';
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
