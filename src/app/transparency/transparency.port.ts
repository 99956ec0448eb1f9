/** What the transparency log's use cases are given beside the AppDeps (docs/transparency-log.md). */
export interface TransparencyDeps {
  /** The log's origin, also its checkpoint key's name (`logOriginOf(PUBLIC_URL)`). */
  readonly origin: string;
}

/**
 * The account the log's own anchors (its checkpoints' seals) belong to: no user account has it (ids are
 * random UUIDs), and its anchors are logged as checkpoint receipts, not as anchors.
 */
export const LOG_ACCOUNT_ID = '00000000-0000-0000-0000-000000000000';
