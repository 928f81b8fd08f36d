import 'reflect-metadata';
import { Inventory } from './inventory/inventory';
import { INVENTORY_USAGE, InventoryUsageError, parseInventoryArguments, runInventoryRequest, type InventoryNoun } from './inventory/inventory.command';
import { InventoryModule } from './inventory/inventory.module';
import { openOperatorContext } from './operator-context';

/** `tollgate clients|resources|issuers|users list|show` (docs/operations.md#seeing-what-exists): read-only. */
export async function runInventoryCommand(noun: InventoryNoun, argv: readonly string[]): Promise<number> {
  let request;
  try {
    request = parseInventoryArguments(noun, argv);
  } catch (error) {
    if (!(error instanceof InventoryUsageError)) throw error;
    process.stderr.write(`${noun}: ${error.message}\n\n${INVENTORY_USAGE}\n`);
    return 2;
  }
  if (!request) {
    process.stdout.write(`${INVENTORY_USAGE}\n`);
    return 0;
  }
  const opened = await openInventory();
  if (!opened) return 1;
  try {
    return await runInventoryRequest(
      request,
      opened.inventory,
      (text) => process.stdout.write(text),
      (text) => process.stderr.write(text),
    );
  } finally {
    await opened.close();
  }
}

/** The inventory on the service's database; undefined (the bad settings written to stderr) when the environment is invalid. */
export async function openInventory(): Promise<{ inventory: Inventory; close: () => Promise<void> } | undefined> {
  const opened = await openOperatorContext([InventoryModule]);
  if (!opened) return undefined;
  return { inventory: opened.app.get(Inventory), close: () => opened.app.close() };
}
