/** Time and randomness are ports so use cases stay deterministic under test. */
export interface Clock {
  /** Milliseconds since the Unix epoch. */
  now(): number;
}

export interface Random {
  bytes(n: number): Buffer;
  uuid(): string;
}
