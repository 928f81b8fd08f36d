import { PeriodicTask, type TaskLog } from './periodic-task';

class RecordingLog implements TaskLog {
  readonly lines: string[] = [];
  warn(message: string): void {
    this.lines.push(`warn: ${message}`);
  }
  log(message: string): void {
    this.lines.push(`log: ${message}`);
  }
}

/** A run that finishes only when the spec says so. */
class ControlledRun {
  started = 0;
  private finish: Array<(error?: Error) => void> = [];
  readonly run = () =>
    new Promise<void>((resolve, reject) => {
      this.started++;
      this.finish.push((error) => (error ? reject(error) : resolve()));
    });
  settle(error?: Error): void {
    for (const finish of this.finish.splice(0)) finish(error);
  }
}

describe('PeriodicTask', () => {
  let log: RecordingLog;
  let task: PeriodicTask | undefined;
  beforeEach(() => {
    jest.useFakeTimers();
    log = new RecordingLog();
  });
  afterEach(() => {
    task?.stop();
    jest.useRealTimers();
  });

  describe('start', () => {
    it('does not run at once, then runs once per period', async () => {
      let runs = 0;
      task = new PeriodicTask({ name: 'Counting', periodMs: 1000, run: async () => void runs++, log });
      task.start();
      expect(runs).toBe(0);
      await jest.advanceTimersByTimeAsync(3500);
      expect(runs).toBe(3);
    });

    it('keeps one timer when started twice', async () => {
      let runs = 0;
      task = new PeriodicTask({ name: 'Counting', periodMs: 1000, run: async () => void runs++, log });
      task.start();
      task.start();
      await jest.advanceTimersByTimeAsync(2000);
      expect(runs).toBe(2);
    });

    it('never keeps the process alive', () => {
      const setInterval = jest.spyOn(global, 'setInterval');
      task = new PeriodicTask({ name: 'Idle', periodMs: 1000, run: async () => undefined, log });
      task.start();
      const timer = setInterval.mock.results[0].value as NodeJS.Timeout;
      expect(timer.hasRef()).toBe(false);
    });
  });

  describe('stop', () => {
    it('runs nothing after it', async () => {
      let runs = 0;
      task = new PeriodicTask({ name: 'Counting', periodMs: 1000, run: async () => void runs++, log });
      task.start();
      await jest.advanceTimersByTimeAsync(1000);
      task.stop();
      expect(task.started).toBe(false);
      await jest.advanceTimersByTimeAsync(5000);
      expect(runs).toBe(1);
      expect(jest.getTimerCount()).toBe(0);
    });

    it('may be called from the run itself, as an outage probe does when the outage ends', async () => {
      let runs = 0;
      const probe: PeriodicTask = new PeriodicTask({ name: 'Probing', periodMs: 1000, run: async () => (++runs === 2 ? probe.stop() : undefined), log });
      task = probe;
      probe.start();
      await jest.advanceTimersByTimeAsync(5000);
      expect({ runs, started: probe.started }).toEqual({ runs: 2, started: false });
    });
  });

  describe('a run still going at the next tick', () => {
    it('is not joined by a second run of the same task', async () => {
      const slow = new ControlledRun();
      task = new PeriodicTask({ name: 'Slow', periodMs: 1000, run: slow.run, log });
      task.start();
      await jest.advanceTimersByTimeAsync(5000);
      expect(slow.started).toBe(1);
      slow.settle();
      await jest.advanceTimersByTimeAsync(1000);
      expect(slow.started).toBe(2);
    });
  });

  describe('failures', () => {
    it('logs a failure as one warning without a stack, not once per tick, and logs its end', async () => {
      let failing = true;
      task = new PeriodicTask({
        name: 'Reloading resources',
        periodMs: 1000,
        run: async () => {
          if (failing) throw new Error('connect ECONNREFUSED 127.0.0.1:5432');
        },
        log,
      });
      task.start();
      await jest.advanceTimersByTimeAsync(5000);
      expect(log.lines).toEqual(['warn: Reloading resources failed: connect ECONNREFUSED 127.0.0.1:5432']);
      failing = false;
      await jest.advanceTimersByTimeAsync(3000);
      expect(log.lines).toEqual(['warn: Reloading resources failed: connect ECONNREFUSED 127.0.0.1:5432', 'log: Reloading resources works again']);
    });

    it('logs a failure again when its reason changes', async () => {
      const reasons = ['timeout', 'timeout', 'relation "resources" does not exist'];
      task = new PeriodicTask({ name: 'Reloading resources', periodMs: 1000, run: async () => Promise.reject(new Error(reasons.shift() ?? 'timeout')), log });
      task.start();
      await jest.advanceTimersByTimeAsync(4000);
      expect(log.lines).toEqual([
        'warn: Reloading resources failed: timeout',
        'warn: Reloading resources failed: relation "resources" does not exist',
        'warn: Reloading resources failed: timeout',
      ]);
    });

    it('keeps running after a failure', async () => {
      let runs = 0;
      task = new PeriodicTask({ name: 'Failing', periodMs: 1000, run: async () => Promise.reject(new Error(`run ${++runs}`)), log });
      task.start();
      await jest.advanceTimersByTimeAsync(3000);
      expect(runs).toBe(3);
    });
  });
});
