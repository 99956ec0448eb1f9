import type { WindowCount } from '../../../core/signature-requests/otp.js';

/** A one-time password as stored: never the code, only its keyed hash. */
export interface OtpRecord {
  readonly id: string;
  /** Who the code is for: a stable key of one signer of one request, chosen by the caller. */
  readonly signerKey: string;
  readonly phone: string;
  readonly codeHash: string;
  readonly created: number;
  readonly expires: number;
  readonly wrongTries: number;
  readonly consumed: boolean;
}

export interface OtpRepository {
  /** Inside a transaction: holds issues for this signer until it ends, so two at once cannot both pass the rules. */
  lockSigner(signerKey: string): Promise<void>;
  insert(otp: OtpRecord): Promise<void>;
  /** The signer's most recent code, if any: the only one that can be tried. */
  latestFor(signerKey: string): Promise<OtpRecord | undefined>;
  /** Codes issued to the signer since `since`, and the oldest of their times. */
  countForSigner(signerKey: string, since: number): Promise<WindowCount>;
  /** Codes issued to the phone number since `since` (all signers), and the oldest of their times. */
  countForPhone(phone: string, since: number): Promise<WindowCount>;
  /** Takes one try if fewer than `max` were taken; the tries now taken, or undefined when none was left. */
  reserveTry(id: string, max: number): Promise<number | undefined>;
  /** Gives back a try taken by {@link reserveTry} (the code given was right). */
  releaseTry(id: string): Promise<void>;
  /** Marks the code used; false when it was used already (or is unknown). */
  consume(id: string): Promise<boolean>;
}
