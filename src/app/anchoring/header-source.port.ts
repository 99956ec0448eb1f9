/**
 * Where a verifier learns which block is at which height of Bitcoin's best chain: the one thing an offline
 * check of a proof bundle cannot compute itself. The user chooses it (`proofseal verify --rpc-url`, `--headers`,
 * `--explorer`); no proofseal server is asked.
 */
export interface HeaderSource {
  /** What the verdict names as the source relied on (no credentials). */
  readonly description: string;
  /** The hash (display order) of the best-chain block at `height`; null when the source's chain is shorter. */
  blockHashAt(height: number): Promise<string | null>;
  /** The height of the source's best block. */
  tipHeight(): Promise<number>;
}
