/**
 * The file to sign of a request. Two ports: the reference a request holds (`RequestDocumentRepository`, in
 * the Store, written in the request's transactions) and the sealed bytes (`DocumentObjectStore`: the store
 * itself by default, an S3-compatible object store later). Objects are content-addressed (their name is a
 * keyed hash of the file's SHA-256) and hold only sealed chunks: an object store learns nothing.
 */

/** What an object's chunks need to be opened: the salt its key derives from and the plaintext size. */
export interface DocumentObjectHeader {
  /** Random, 16 bytes, drawn for this object. */
  readonly salt: Uint8Array;
  /** Plaintext bytes (never 0). */
  readonly size: number;
  /** Plaintext bytes per chunk (the last may be shorter). */
  readonly chunkBytes: number;
}

/** An object being written: nothing is visible under a name until `commit`. */
export interface DocumentObjectWriter {
  /** Appends the next sealed chunk (in order). */
  append(sealedChunk: Uint8Array): Promise<void>;
  /**
   * Publishes the chunks written under `name`, and marks the object touched at `now`. When an object of
   * that name exists already (the same file, uploaded before), that one is kept and these chunks dropped.
   */
  commit(name: string, header: DocumentObjectHeader, now: number): Promise<void>;
  /** Drops what was written (an upload refused or failed). */
  abort(): Promise<void>;
}

export interface DocumentObjectStore {
  /** Starts writing an object at `now` (abandoned writes are swept by their start). */
  begin(now: number): Promise<DocumentObjectWriter>;
  /** The object's header; null when there is no object of that name. */
  header(name: string): Promise<DocumentObjectHeader | null>;
  /** The sealed chunks `first`..`last` (inclusive, 0-based), in order, a few at a time. */
  chunks(name: string, first: number, last: number): AsyncIterable<Uint8Array>;
  /**
   * Deletes the object unless it was touched at or after `touchedBefore` (an upload of the same file may be
   * about to reference it); true when deleted. Writes abandoned before `touchedBefore` are dropped too.
   */
  remove(name: string, touchedBefore: number): Promise<boolean>;
  /** Drops chunks of writes begun before `before` and never committed (a process stopped mid-upload). */
  sweepAbandoned(before: number): Promise<number>;
}

/** A request's file, as its reference records it. */
export interface RequestDocument {
  readonly requestId: string;
  readonly objectName: string;
  /** SHA-256 of the file, lowercase hex (the request's hashToSign). */
  readonly sha256: string;
  readonly fileName: string;
  readonly contentType: string;
  readonly size: number;
  readonly uploaded: number;
  /** When the retention job deleted the bytes; null while they are kept. */
  readonly deleted: number | null;
}

export interface RequestDocumentRepository {
  find(requestId: string): Promise<RequestDocument | null>;
  /**
   * Records (or replaces) the request's file and sets the request's `fileURL`, `isUploaded` and, when it has
   * none, its `fileName`.
   */
  attach(document: Omit<RequestDocument, 'deleted'>, fileUrl: string): Promise<void>;
  /**
   * Requests whose file is kept and due for deletion: CANCELED or EXPIRED, or COMPLETED or CLOSED and not
   * modified since `doneBefore`.
   */
  dueForDeletion(doneBefore: number, limit: number): Promise<string[]>;
  /** Marks the request's file deleted at `now` (its object is then to be released). */
  markDeleted(requestId: string, now: number): Promise<void>;
  /** Objects of deleted files not released yet (removed, or found used by a kept file). */
  objectsToRelease(limit: number): Promise<string[]>;
  /** Records that the deleted files of this object need nothing more. */
  markReleased(objectName: string): Promise<void>;
  /** Whether a kept file of any request is this object. */
  isReferenced(objectName: string): Promise<boolean>;
}

/** The documents' settings and object store, handed to the use cases. */
export interface DocumentDeps {
  readonly objects: DocumentObjectStore;
  /** How long the file of a COMPLETED or CLOSED request is kept after its last change, ms. */
  readonly retentionMs: number;
  /** Checks each uploaded PDF before it is kept; absent, uploads are not inspected. */
  readonly inspector?: DocumentInspector;
}

/**
 * What the check of an uploaded PDF found (issue 32): its page count, or why it is refused (over a bound: a
 * hostile or too costly structure) or unreadable (no structure found; let through, a viewer may repair it).
 */
export type DocumentInspection =
  | { readonly kind: 'ok'; readonly pages: number }
  | { readonly kind: 'refused' | 'unreadable'; readonly reason: string };

/** Checks a PDF's structure against the service's bounds, off the event loop. */
export interface DocumentInspector {
  inspect(pdf: Uint8Array): Promise<DocumentInspection>;
}
