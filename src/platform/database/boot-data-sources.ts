/** What a boot needs of a data source to close it. */
export interface ClosableDataSource {
  readonly isInitialized: boolean;
  destroy(): Promise<void>;
}

/**
 * The data sources one boot opens. Nest gives up on a boot at the first provider that fails, while
 * the database may still be connecting: the boot closes what was opened, and anything that would
 * open afterwards refuses, so a failed boot leaves no pool or connection attempt behind.
 */
export class BootDataSources {
  private readonly opening: Promise<ClosableDataSource | undefined>[] = [];
  private abandoned = false;

  get isAbandoned(): boolean {
    return this.abandoned;
  }

  async open<T extends ClosableDataSource>(connect: () => Promise<T>): Promise<T> {
    if (this.abandoned) throw new Error('the application failed to start: not connecting to the database');
    const connecting = connect();
    this.opening.push(connecting.catch(() => undefined));
    return connecting;
  }

  async abandon(): Promise<void> {
    this.abandoned = true;
    const opened = await Promise.all(this.opening);
    await Promise.all(opened.map((dataSource) => (dataSource?.isInitialized ? dataSource.destroy().catch(() => undefined) : undefined)));
  }
}
