import { CatalogCache } from '../../src/modules/catalog/reads/catalog-cache';

/** The catalog read port's short-lived rows (catalog/reads/catalog-cache.ts). */
describe('CatalogCache', () => {
  const found = (value: { id: number | null }) => value.id !== null;

  it('reads once and serves the kept row until a catalog write', async () => {
    const cache = new CatalogCache();
    const load = jest.fn(async () => ({ id: 7 }));
    expect(await cache.through('k', load, found)).toEqual({ id: 7 });
    expect(await cache.through('k', load, found)).toEqual({ id: 7 });
    expect(load).toHaveBeenCalledTimes(1);
    cache.changed();
    await cache.through('k', load, found);
    expect(load).toHaveBeenCalledTimes(2);
  });

  it('never keeps a row that was not found', async () => {
    const cache = new CatalogCache();
    const load = jest.fn(async () => ({ id: null }));
    await cache.through('missing', load, found);
    await cache.through('missing', load, found);
    expect(load).toHaveBeenCalledTimes(2);
  });

  it('forgets a row after its time to live', async () => {
    const cache = new CatalogCache();
    const load = jest.fn(async () => ({ id: 1 }));
    await cache.through('k', load, found);
    // The time to live is what is under test: the clock has to pass it.
    await new Promise((resolve) => setTimeout(resolve, CatalogCache.TTL_MS + 50));
    await cache.through('k', load, found);
    expect(load).toHaveBeenCalledTimes(2);
  });
});
