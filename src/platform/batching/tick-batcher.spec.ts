import { TickBatcher } from './tick-batcher';

describe('TickBatcher', () => {
  it('runs the calls of one turn as one batch, each getting its own result', async () => {
    const batches: number[][] = [];
    const batcher = new TickBatcher<number, number>(async (items) => {
      batches.push([...items]);
      return items.map((item) => item * 10);
    });
    const results = await Promise.all([batcher.add(1), batcher.add(2), batcher.add(3)]);
    expect(results).toEqual([10, 20, 30]);
    expect(batches).toEqual([[1, 2, 3]]);
    expect(await batcher.add(4)).toBe(40);
    expect(batches).toEqual([[1, 2, 3], [4]]);
  });

  it('runs a full batch at once, and the rest at the end of the turn', async () => {
    const batches: number[][] = [];
    const batcher = new TickBatcher<number, number>(async (items) => {
      batches.push([...items]);
      return [...items];
    }, 2);
    await Promise.all([1, 2, 3, 4, 5].map((item) => batcher.add(item)));
    expect(batches).toEqual([[1, 2], [3, 4], [5]]);
  });

  it('fails every call of a failed batch, and runs the next batch afresh', async () => {
    let fail = true;
    const batcher = new TickBatcher<number, number>(async (items) => {
      if (fail) throw new Error('database unavailable');
      return [...items];
    });
    const failed = [batcher.add(1), batcher.add(2)];
    await expect(failed[0]).rejects.toThrow('database unavailable');
    await expect(failed[1]).rejects.toThrow('database unavailable');
    fail = false;
    await expect(batcher.add(3)).resolves.toBe(3);
  });
});
