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

  it('gives concurrent misses of one key one read, unless asked not to share it', async () => {
    const cache = new CatalogCache();
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const load = jest.fn(async () => {
      await gate;
      return { id: 3 };
    });
    const shared = Promise.all([cache.through('k', load, found), cache.through('k', load, found)]);
    const own = cache.through('k', load, found, false);
    release();
    expect(await shared).toEqual([{ id: 3 }, { id: 3 }]);
    expect(await own).toEqual({ id: 3 });
    expect(load).toHaveBeenCalledTimes(2);
  });

  it('does not keep a row read while a catalog write happened, nor share that read afterwards', async () => {
    const cache = new CatalogCache();
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const stale = cache.through(
      'k',
      async () => {
        await gate;
        return { id: 1 };
      },
      found,
    );
    cache.changed();
    const fresh = jest.fn(async () => ({ id: 2 }));
    expect(await cache.through('k', fresh, found)).toEqual({ id: 2 });
    release();
    expect(await stale).toEqual({ id: 1 });
    expect(await cache.through('k', fresh, found)).toEqual({ id: 2 });
    expect(fresh).toHaveBeenCalledTimes(1);
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
