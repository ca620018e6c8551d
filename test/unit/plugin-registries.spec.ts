import { MemoryFileStorage } from '../../examples/memory-storage/memory-storage.plugin';
import { Contributions, contributionsOf } from '../../src/common/plugins/contributions';
import { loadConfig } from '../../src/config/app-config';
import { createFileStorage } from '../../src/modules/catalog/files/storage/file-storage.module';
import { ScopeRegistry } from '../../src/modules/identity/scopes/scope-registry';
import { definePlugin } from '../../src/plugins';

const registryOf = (...plugins: ReturnType<typeof definePlugin>[]) =>
  new ScopeRegistry(new Contributions(plugins.flatMap((p) => contributionsOf(p))));

describe('plugin registrations', () => {
  it("adds a plugin's scopes after the contract's, with their descriptions", () => {
    const registry = registryOf(definePlugin({ name: 'chat', scopes: { 'chat.write': 'Post to the chat.' } }));
    expect(registry.all().slice(-1)).toEqual(['chat.write']);
    expect(registry.all()[0]).toBe('user.read');
    expect(registry.has('chat.write')).toBe(true);
    expect(registry.describe('chat.write')).toBe('Post to the chat.');
    expect(registry.has('chat.read')).toBe(false);
  });

  it('refuses a scope that is not resource.action, or one already registered', () => {
    expect(() => registryOf(definePlugin({ name: 'bad', scopes: { Chat: 'x' } }))).toThrow(
      'Plugin bad: scope "Chat" is not of the form resource.action',
    );
    expect(() => registryOf(definePlugin({ name: 'dup', scopes: { 'orders.read': 'x' } }))).toThrow(
      'Plugin dup: scope orders.read is already registered',
    );
  });

  it('refuses a plugin name that cannot name a module', () => {
    expect(() => definePlugin({ name: 'Chat Notifier' })).toThrow('Plugin name "Chat Notifier"');
  });

  it('creates the storage of the driver STORAGE_DRIVER names, and refuses two drivers of one name', async () => {
    const memory = new MemoryFileStorage();
    const config = loadConfig({ STORAGE_DRIVER: 'memory' });
    expect(await createFileStorage(config, [{ name: 'memory', create: () => memory }])).toBe(memory);
    await expect(createFileStorage(config, [{ name: 'local', create: () => memory }])).rejects.toThrow(
      'Two storage drivers are named local',
    );
  });
});
