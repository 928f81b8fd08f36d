import { FormField, inspectParameters } from './inspected-parameters';

class ExampleParameters {
  @FormField(4) name?: string;
  @FormField(4) other?: string;
}

const invalidRequest = (description: string) => expect.objectContaining({ code: 'invalid_request', status: 400, description });

describe('inspectParameters', () => {
  it('refuses a repeated member when it is read, and leaves it out of what was sent', () => {
    const parameters = inspectParameters(ExampleParameters, { other: 'x', name: ['a', 'b'] });
    expect(() => parameters.valid('name')).toThrow(invalidRequest('parameter name must not be repeated'));
    expect(parameters.accepted('name')).toBeUndefined();
    expect({ ...parameters.sent }).toEqual({ other: 'x' });
    expect(parameters.valid('other')).toBe('x');
  });

  it('refuses a member longer than declared when it is read, keeping it as sent', () => {
    const parameters = inspectParameters(ExampleParameters, { name: 'abcde' });
    expect(() => parameters.valid('name')).toThrow(invalidRequest('parameter name is too long'));
    expect(parameters.accepted('name')).toBeUndefined();
    expect(parameters.sent.name).toBe('abcde');
  });

  it('names the repeated members in the order the request sent them', () => {
    expect(inspectParameters(ExampleParameters, { other: ['1', '2'], unknown: ['3', '4'], name: ['5', '6'] }).repeated).toEqual(['other', 'name']);
  });

  it('reads an empty member as absent', () => {
    const parameters = inspectParameters(ExampleParameters, { name: '' });
    expect([parameters.valid('name'), parameters.accepted('name'), parameters.valid('other')]).toEqual([undefined, undefined, undefined]);
  });

  it('returns an instance of the DTO with undeclared parameters dropped', () => {
    const parameters = inspectParameters(ExampleParameters, { name: 'abcd', extra: 'dropped' });
    expect(parameters.sent).toBeInstanceOf(ExampleParameters);
    expect({ ...parameters.sent }).toEqual({ name: 'abcd' });
  });
});
