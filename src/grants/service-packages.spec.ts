import { isSharedPackage } from './service-packages';

describe('isSharedPackage', () => {
  it.each([
    ['tollgate'],
    ['@nestjs/common'],
    ['@nestjs/common/constants'],
    ['@nestjs/core'],
    ['class-validator'],
    ['class-validator/types/decorator/decorators'],
  ])('shares %s with extensions', (specifier) => expect(isSharedPackage(specifier)).toBe(true));

  it.each([['tollgate-extras'], ['@nestjs/commons'], ['@nestjs/jwt'], ['class-validator-jsonschema'], ['./tollgate'], ['node:fs'], ['@nestjs']])(
    'leaves %s to Node',
    (specifier) => expect(isSharedPackage(specifier)).toBe(false),
  );
});
