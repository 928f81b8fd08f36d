import { Module } from '@nestjs/common';
import { Inventory } from './inventory';
import { SqlInventory } from './persistence/sql-inventory';

/** The operator's read-only view of clients, resources, trusted issuers and users (docs/operations.md#seeing-what-exists). */
@Module({ providers: [{ provide: Inventory, useClass: SqlInventory }], exports: [Inventory] })
export class InventoryModule {}
