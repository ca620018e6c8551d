/*
 * Every test file loads the application first, in the order `src/main.ts` does. Module indexes
 * import each other (billing ⇄ webhooks, catalog ⇄ billing); a test that opens a module's internal
 * file first would otherwise load that cycle from an entry point the service never starts from,
 * and Nest would find a class still undefined. test/unit/module-barrels.spec.ts checks each
 * index as an entry point in a registry of its own.
 */
import '../../src/app.module';
