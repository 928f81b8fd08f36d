import { IsArray, IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';
import { GrantParameterSchema, readGrantParameters, type ParameterConstraintContext } from './grant-parameters';

const tooLong = { message: 'name is too long', context: { error: 'invalid_grant' } satisfies ParameterConstraintContext };

class ExampleParameters {
  @MaxLength(8, tooLong)
  @IsString({ message: 'name is required' })
  @IsNotEmpty({ message: 'name is required' })
  name!: string;

  @IsNotEmpty({ each: true, message: 'tags must not be empty' })
  @IsArray()
  @IsOptional()
  tags?: string[];
}

const failure = (code: string, description: string) => expect.objectContaining({ code, status: 400, description });

describe('GrantParameterSchema.of', () => {
  it('names every decorated member, and the @IsArray() ones as repeatable', () => {
    const schema = GrantParameterSchema.of(ExampleParameters);
    expect([[...schema.names].sort(), [...schema.repeatable]]).toEqual([['name', 'tags'], ['tags']]);
  });

  it('reads a class once', () => {
    expect(GrantParameterSchema.of(ExampleParameters)).toBe(GrantParameterSchema.of(ExampleParameters));
  });
});

describe('readGrantParameters', () => {
  it.each([
    ['a missing member', {}],
    ['an empty member', { name: '' }],
  ])("refuses %s with the grant's error code and the constraint's message", (_, body) => {
    expect(() => readGrantParameters(ExampleParameters, body, 'invalid_grant')).toThrow(failure('invalid_grant', 'name is required'));
    expect(() => readGrantParameters(ExampleParameters, body, 'invalid_request')).toThrow(failure('invalid_request', 'name is required'));
  });

  it('uses the error code a constraint names in its context', () => {
    expect(() => readGrantParameters(ExampleParameters, { name: 'x'.repeat(9) }, 'invalid_request')).toThrow(failure('invalid_grant', 'name is too long'));
  });

  it("refuses a repeated single-valued member as invalid_request whatever the grant's code", () => {
    expect(() => readGrantParameters(ExampleParameters, { name: ['a', 'b'] }, 'invalid_grant')).toThrow(
      failure('invalid_request', 'parameter name must not be repeated'),
    );
  });

  it('validates each value of a repeatable member', () => {
    expect(() => readGrantParameters(ExampleParameters, { name: 'a', tags: ['x', ''] }, 'invalid_request')).toThrow(
      failure('invalid_request', 'tags must not be empty'),
    );
  });

  it('returns an instance of the DTO with undeclared parameters dropped and a single repeatable value as a list', () => {
    const parameters = readGrantParameters(ExampleParameters, { name: 'alice', tags: 'one', other: 'dropped' }, 'invalid_request');
    expect(parameters).toBeInstanceOf(ExampleParameters);
    expect({ ...parameters }).toEqual({ name: 'alice', tags: ['one'] });
  });

  it('returns an empty instance of a DTO that declares no parameter, whatever the body sends', () => {
    class NoParameters {}
    const parameters = readGrantParameters(NoParameters, { scope: 'api1', other: ['repeated', 'twice'] }, 'invalid_request');
    expect(parameters).toBeInstanceOf(NoParameters);
    expect({ ...parameters }).toEqual({});
  });
});
