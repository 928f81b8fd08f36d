import { TokenRecipients } from './token-recipients';

describe('TokenRecipients', () => {
  let writes: [string, readonly string[]][];
  let failing: boolean;
  const recipients = () =>
    new TokenRecipients({
      add: async (subject, clientIds) => {
        writes.push([subject, clientIds]);
        if (failing) throw new Error('database unavailable');
      },
    });

  beforeEach(() => {
    writes = [];
    failing = false;
  });

  it('writes each (user, client) pair once per process, repeats costing no write', async () => {
    const recorder = recipients();
    await recorder.record('1', ['api1', 'api2', 'api1']);
    await recorder.record('1', ['api1', 'api2']);
    await recorder.record('1', ['api2', 'api3']);
    await recorder.record('2', ['api1']);
    expect(recorder.record('1', ['api2', 'api3'])).toBeUndefined();
    expect(writes).toEqual([
      ['1', ['api1', 'api2']],
      ['1', ['api3']],
      ['2', ['api1']],
    ]);
  });

  it('never fails the token it is recorded for, and tries again with the next one', async () => {
    const recorder = recipients();
    failing = true;
    await expect(recorder.record('1', ['api1'])).resolves.toBeUndefined();
    expect(writes).toHaveLength(1);
    failing = false;
    await recorder.record('1', ['api1']);
    await recorder.record('1', ['api1']);
    expect(writes).toEqual([
      ['1', ['api1']],
      ['1', ['api1']],
    ]);
  });
});
