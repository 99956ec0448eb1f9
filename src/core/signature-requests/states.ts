/**
 * The states of a signature request and who may move it where (docs/signature-requests.md, "States").
 * The owner moves with `POST …/transition`; the platform moves by itself (activation, all signed, deadline).
 */
import { fail } from '../errors.js';

export const SIGNATURE_REQUEST_STATES = [
  'DRAFT',
  'PENDING',
  'IN_PROGRESS',
  'COMPLETED',
  'CLOSED',
  'CANCELED',
  'EXPIRED',
] as const;
export type SignatureRequestState = (typeof SIGNATURE_REQUEST_STATES)[number];

type Moves = Readonly<Record<SignatureRequestState, readonly SignatureRequestState[]>>;

/** The owner's moves: any move not listed here is refused (403 TRANSITION_NOT_ALLOWED). */
export const OWNER_MOVES: Moves = {
  DRAFT: ['PENDING'],
  PENDING: ['DRAFT', 'CANCELED'],
  IN_PROGRESS: ['CLOSED', 'CANCELED'],
  COMPLETED: [],
  CLOSED: [],
  CANCELED: [],
  EXPIRED: [],
};

/** The platform's moves: activation, every signer signed, deadline passed. */
export const PLATFORM_MOVES: Moves = {
  DRAFT: [],
  PENDING: ['IN_PROGRESS'],
  IN_PROGRESS: ['COMPLETED', 'EXPIRED'],
  COMPLETED: [],
  CLOSED: [],
  CANCELED: [],
  EXPIRED: [],
};

/** States in which nothing changes any more. */
export const FINAL_STATES: ReadonlySet<SignatureRequestState> = new Set(['COMPLETED', 'CLOSED', 'CANCELED', 'EXPIRED']);

/** COMPLETED and CLOSED seal the audit trail and produce the attestation; CANCELED and EXPIRED do not. */
export const SEALING_STATES: ReadonlySet<SignatureRequestState> = new Set(['COMPLETED', 'CLOSED']);

export function isSignatureRequestState(value: unknown): value is SignatureRequestState {
  return typeof value === 'string' && (SIGNATURE_REQUEST_STATES as readonly string[]).includes(value);
}

/**
 * Checks an owner's move and says why it is refused.
 * @throws DomainError VALIDATION_FAILED for an unknown state name, TRANSITION_NOT_ALLOWED for a move
 *   the owner may not make from `from`
 */
export function assertOwnerMove(from: SignatureRequestState, to: unknown): SignatureRequestState {
  if (!isSignatureRequestState(to))
    fail('VALIDATION_FAILED', `the body must be one of ${SIGNATURE_REQUEST_STATES.join(', ')} (a JSON string)`);
  if (OWNER_MOVES[from].includes(to)) return to;
  if (PLATFORM_MOVES[from].includes(to))
    fail('TRANSITION_NOT_ALLOWED', `${from} → ${to} is made by the platform, not by the owner`);
  if (FINAL_STATES.has(from)) fail('TRANSITION_NOT_ALLOWED', `the request is ${from}: it does not change any more`);
  const allowed = OWNER_MOVES[from];
  fail(
    'TRANSITION_NOT_ALLOWED',
    `${from} → ${to} is not allowed; from ${from} the owner may move to ${allowed.length ? allowed.join(' or ') : 'nothing'}`,
  );
}

/**
 * Checks a platform move (a bug guard: the jobs only ask for listed moves).
 * @throws DomainError TRANSITION_NOT_ALLOWED for an unlisted move
 */
export function assertPlatformMove(from: SignatureRequestState, to: SignatureRequestState): void {
  if (!PLATFORM_MOVES[from].includes(to))
    fail('TRANSITION_NOT_ALLOWED', `the platform does not move a request from ${from} to ${to}`);
}

/** The state a request starts in when activated (created without `state`, or moved to PENDING). */
export function activatedState(activation: number | null, now: number): 'PENDING' | 'IN_PROGRESS' {
  return activation !== null && activation > now ? 'PENDING' : 'IN_PROGRESS';
}
