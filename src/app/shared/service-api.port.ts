/** JSON over HTTP to a proofseal service (the API or an identity server), as the command-line client sees it. */

export type ClientAuth =
  | { readonly kind: 'bearer'; readonly token: string }
  | { readonly kind: 'basic'; readonly login: string; readonly password: string };

export interface ServiceApiOptions {
  readonly baseUrl: string;
  /** How the service is named in messages, e.g. "proofseal API". */
  readonly label: string;
  readonly auth?: ClientAuth | undefined;
  /** Told to the user when the service does not answer. */
  readonly startHint?: string;
}

export interface ServiceResponse<T> {
  readonly status: number;
  readonly body: T;
}

export interface ServiceApi {
  readonly baseUrl: string;
  /**
   * One request. Statuses in `accept` (default: 200 and 201) resolve; any other status throws.
   * @throws DomainError with the service's code; NOT_READY when the service cannot be reached
   */
  request<T>(
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    path: string,
    options?: { query?: Record<string, string | undefined>; body?: unknown; accept?: number[] },
  ): Promise<ServiceResponse<T>>;
  /**
   * Sends a file as a raw body (streamed, never read whole) and reads the JSON answer; as {@link request}.
   * @throws DomainError with the service's code; NOT_READY when the service cannot be reached
   */
  upload<T>(
    path: string,
    file: { body: AsyncIterable<Uint8Array>; size: number; contentType: string },
    options?: { query?: Record<string, string | undefined>; accept?: number[] },
  ): Promise<ServiceResponse<T>>;
  /**
   * A binary answer (a file, a PDF), streamed. Statuses in `accept` (default: 200) resolve; a JSON error throws.
   * @throws DomainError with the service's code; NOT_READY when the service cannot be reached
   */
  download(
    path: string,
    options?: { query?: Record<string, string | undefined>; accept?: number[] },
  ): Promise<{ status: number; headers: Headers; body: AsyncIterable<Uint8Array> }>;
}
