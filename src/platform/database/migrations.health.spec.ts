import { HealthIndicatorService } from '@nestjs/terminus';
import { MigrationsHealthIndicator } from './migrations.health';

describe('MigrationsHealthIndicator', () => {
  function indicator(pending: boolean[]) {
    const calls = { count: 0 };
    const dataSource = { showMigrations: async () => pending[calls.count++] ?? false };
    return { calls, indicator: new MigrationsHealthIndicator(dataSource, new HealthIndicatorService()) };
  }

  it('reports down while migrations are pending', async () => {
    const { indicator: migrations } = indicator([true]);
    expect(await migrations.check('migrations')).toMatchObject({ migrations: { status: 'down', message: 'pending migrations' } });
  });

  it('queries the migrations once they are all applied, and never again on later probes', async () => {
    const { indicator: migrations, calls } = indicator([true, false]);
    await migrations.check('migrations');
    for (let probe = 0; probe < 5; probe++) expect(await migrations.check('migrations')).toMatchObject({ migrations: { status: 'up' } });
    expect(calls.count).toBe(2);
  });
});
