import { RestartBudget } from './restart-budget';

describe('RestartBudget.nextDelayMs', () => {
  it('refuses the restart after the limit within the window', () => {
    const budget = new RestartBudget(3, 60_000, 1_000);
    expect([0, 1, 2].map((second) => budget.nextDelayMs(second * 1_000))).toEqual([1_000, 2_000, 4_000]);
    expect(budget.nextDelayMs(59_000)).toBeUndefined();
  });

  it('doubles the wait with each restart of the window', () => {
    const budget = new RestartBudget(5, 60_000, 500);
    expect([0, 10, 20, 30, 40].map((second) => budget.nextDelayMs(second * 1_000))).toEqual([500, 1_000, 2_000, 4_000, 8_000]);
  });

  it('forgets restarts older than the window', () => {
    const budget = new RestartBudget(2, 60_000, 1_000);
    expect(budget.nextDelayMs(0)).toBe(1_000);
    expect(budget.nextDelayMs(30_000)).toBe(2_000);
    expect(budget.nextDelayMs(60_000)).toBe(2_000);
    expect(budget.nextDelayMs(61_000)).toBeUndefined();
    expect(budget.nextDelayMs(150_000)).toBe(1_000);
  });

  it('defaults to five restarts a minute, from 1 s', () => {
    const budget = new RestartBudget();
    expect([0, 1, 2, 3, 4].map((second) => budget.nextDelayMs(second * 1_000))).toEqual([1_000, 2_000, 4_000, 8_000, 16_000]);
    expect(budget.nextDelayMs(5_000)).toBeUndefined();
  });
});
