export interface Account {
  readonly id: string;
  readonly email: string;
  readonly passwordHash: string;
  readonly firstName: string;
  readonly lastName: string;
  readonly callbackSecretSealed: string | null;
  readonly created: number;
  readonly lastModified: number;
}

export interface ApiToken {
  readonly id: string;
  readonly accountId: string;
  readonly name: string;
  readonly created: number;
  readonly lastUsed: number | null;
  readonly revokedAt: number | null;
}

export interface AccountRepository {
  /** Inserts; resolves false when the e-mail is taken (case-insensitive). */
  insert(account: Account): Promise<boolean>;
  findById(id: string): Promise<Account | null>;
  findByEmail(email: string): Promise<Account | null>;
  setCallbackSecret(id: string, sealed: string, now: number): Promise<void>;
  /** Stores the sealed secret only if the account has none; resolves with the one now stored. */
  setCallbackSecretIfAbsent(id: string, sealed: string, now: number): Promise<string>;
  setPassword(id: string, passwordHash: string, now: number): Promise<void>;
  setNames(id: string, firstName: string, lastName: string, now: number): Promise<void>;
}

export interface TokenRepository {
  insert(token: ApiToken, tokenHash: string): Promise<void>;
  /** The live (not revoked) token with this hash, or null. */
  findLiveByHash(tokenHash: string): Promise<ApiToken | null>;
  /** The live token with this hash and its account, in one read. */
  findLiveWithAccount(tokenHash: string): Promise<{ token: ApiToken; account: Account } | null>;
  listByAccount(accountId: string): Promise<ApiToken[]>;
  /** Revokes the account's token with this hash or id; resolves false if none matched. */
  revoke(accountId: string | null, match: { tokenHash?: string; id?: string }, now: number): Promise<boolean>;
  touch(id: string, now: number): Promise<void>;
  /** Deletes tokens revoked before `before`; resolves with how many. */
  purgeRevoked(before: number): Promise<number>;
}

export interface SettingRepository {
  get(key: string): Promise<string | null>;
  /** Sets the value only if the key has none yet; resolves with the value now stored. */
  putIfAbsent(key: string, value: string, now: number): Promise<string>;
  put(key: string, value: string, now: number): Promise<void>;
}
