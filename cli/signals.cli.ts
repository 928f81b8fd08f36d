import 'reflect-metadata';
import { parseArgs } from 'node:util';
import { SignalOutboxRepository } from '../src/identity/signals/signal-outbox.repository';
import { SignalsModule } from '../src/identity/signals/signals.module';
import { SsfStreamRepository } from '../src/identity/signals/ssf-stream.repository';
import { openOperatorContext } from './operator-context';
import { formatSignalsReport, signalsReport, SIGNALS_USAGE } from './signals/signals-report';

/** `tollgate signals [--json]`: each stream's state and backlog, and the back-channel logout backlog (docs/signals.md#operations). */
export async function runSignalsCommand(argv: readonly string[]): Promise<number> {
  let json: boolean;
  try {
    const { values } = parseArgs({ args: [...argv], options: { json: { type: 'boolean' }, help: { type: 'boolean' } } });
    if (values.help) {
      process.stdout.write(`${SIGNALS_USAGE}\n`);
      return 0;
    }
    json = values.json === true;
  } catch (error) {
    process.stderr.write(`signals: ${(error as Error).message}\n\n${SIGNALS_USAGE}\n`);
    return 2;
  }
  const opened = await openOperatorContext([SignalsModule]);
  if (!opened) return 1;
  try {
    const report = signalsReport(await opened.app.get(SsfStreamRepository).list(), await opened.app.get(SignalOutboxRepository).backlog());
    process.stdout.write(json ? `${JSON.stringify(report, null, 2)}\n` : formatSignalsReport(report));
    return 0;
  } finally {
    await opened.app.close();
  }
}
