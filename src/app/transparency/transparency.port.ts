/** What the transparency log's use cases are given beside the AppDeps (docs/transparency-log.md). */
export interface TransparencyDeps {
  /** The log's origin, also its checkpoint key's name (`logOriginOf(PUBLIC_URL)`). */
  readonly origin: string;
  /**
   * Where the log's files are also written as static objects, beside the static receipts (STATIC_RECEIPTS_URL);
   * absent, the log is served by the API only.
   */
  readonly objects?: LogObjects;
}

/** The log's files as static objects, under the same paths as `/log/` serves them (`checkpoint`, `tile/…`). */
export interface LogObjects {
  /** Writes (or writes again, identically) one file; `immutable` when its bytes never change under that path. */
  put(path: string, file: { body: Buffer; contentType: string; immutable: boolean }): Promise<void>;
}

/**
 * The account the log's own anchors (its checkpoints' seals) belong to: no user account has it (ids are
 * random UUIDs), and its anchors are logged as checkpoint receipts, not as anchors.
 */
export const LOG_ACCOUNT_ID = '00000000-0000-0000-0000-000000000000';
