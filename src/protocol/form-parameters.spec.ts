import { IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';
import { MAX_PARAMETER_LENGTH } from './form';
import { ParameterSchema, readParameters, type ParameterRefusal } from './form-parameters';

class LongParameters {
  @MaxLength(MAX_PARAMETER_LENGTH * 2)
  @IsString()
  @IsOptional()
  long?: string;

  @MaxLength(8)
  @IsNotEmpty({ message: 'short is required' })
  short!: string;
}

const REFUSAL: ParameterRefusal = { error: 'invalid_request' };
const refused = (description: string) => expect.objectContaining({ code: 'invalid_request', description });

describe('ParameterSchema.of', () => {
  it('allows a member the length its @MaxLength declares only when that exceeds MAX_PARAMETER_LENGTH', () => {
    expect([...ParameterSchema.of(LongParameters).longer]).toEqual([['long', MAX_PARAMETER_LENGTH * 2]]);
  });
});

describe('readParameters', () => {
  it.each([
    ['a repeated member', { short: ['a', 'b'] }, 'parameter short must not be repeated'],
    ['a member longer than it may be', { short: 'a', long: 'l'.repeat(MAX_PARAMETER_LENGTH * 2 + 1) }, 'parameter long is too long'],
    ['a failed constraint', { short: '' }, 'short is required'],
  ])('refuses %s as invalid_request', (_, body, description) => {
    expect(() => readParameters(LongParameters, body, REFUSAL)).toThrow(refused(description));
  });

  it('reads a member up to the length it declares', () => {
    const long = 'l'.repeat(MAX_PARAMETER_LENGTH * 2);
    expect({ ...readParameters(LongParameters, { short: 'a', long }, REFUSAL) }).toEqual({ short: 'a', long });
  });
});
