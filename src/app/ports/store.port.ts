import type { AccountRepository, SettingRepository, TokenRepository } from './account.port.js';
import type { AnchorRepository } from './anchor.port.js';
import type { BatchRepository, BtcTxRepository } from './bitcoin.port.js';
import type { CallbackRepository } from './callback.port.js';
import type { IdentityKeyRepository, IdentityTokenRepository } from './identity.port.js';
import type { UtxoStore } from './utxo.port.js';

/**
 * The Store: every repository the use cases need, on PostgreSQL or on the embedded PostgreSQL.
 * `transaction` gives a Store whose repositories all write in one database transaction.
 */
export interface Store {
  readonly kind: 'postgres' | 'embedded';
  readonly accounts: AccountRepository;
  readonly tokens: TokenRepository;
  readonly settings: SettingRepository;
  readonly identityKeys: IdentityKeyRepository;
  readonly identityTokens: IdentityTokenRepository;
  readonly anchors: AnchorRepository;
  readonly callbacks: CallbackRepository;
  readonly batches: BatchRepository;
  readonly btcTxs: BtcTxRepository;
  readonly utxos: UtxoStore;
  transaction<T>(fn: (tx: Store) => Promise<T>): Promise<T>;
  /** Resolves when the database answers a trivial query. */
  ping(): Promise<void>;
}
