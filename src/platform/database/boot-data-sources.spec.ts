import { BootDataSources, type ClosableDataSource } from './boot-data-sources';

class FakeDataSource implements ClosableDataSource {
  isInitialized = true;
  destroyed = 0;

  async destroy(): Promise<void> {
    this.destroyed += 1;
    this.isInitialized = false;
  }
}

describe('BootDataSources', () => {
  it('closes, when abandoned, a data source that finishes connecting afterwards', async () => {
    const boot = new BootDataSources();
    const dataSource = new FakeDataSource();
    let connected!: (value: FakeDataSource) => void;
    const opening = boot.open(() => new Promise<FakeDataSource>((resolve) => (connected = resolve)));
    const abandoning = boot.abandon();
    connected(dataSource);
    await expect(opening).resolves.toBe(dataSource);
    await abandoning;
    expect(dataSource.destroyed).toBe(1);
  });

  it('refuses to connect once abandoned, and survives a connection that failed', async () => {
    const boot = new BootDataSources();
    await expect(boot.open(() => Promise.reject(new Error('refused')))).rejects.toThrow('refused');
    await boot.abandon();
    expect(boot.isAbandoned).toBe(true);
    const connect = jest.fn(async () => new FakeDataSource());
    await expect(boot.open(connect)).rejects.toThrow('the application failed to start');
    expect(connect).not.toHaveBeenCalled();
  });

  it('leaves data sources alone while the boot goes on', async () => {
    const boot = new BootDataSources();
    const dataSource = await boot.open(async () => new FakeDataSource());
    expect(boot.isAbandoned).toBe(false);
    expect(dataSource.destroyed).toBe(0);
  });
});
