import type { KeyVault } from '../../src/app/anchoring/key-vault.port.js';

/** KeyVault in memory, for tests. `sealed` is exposed so tests can check nothing is stored in clear. */
export class MemoryKeyVault implements KeyVault {
  sealed: string | null = null;

  async load(): Promise<string | null> {
    return this.sealed;
  }

  async save(sealed: string): Promise<void> {
    this.sealed = sealed;
  }
}
