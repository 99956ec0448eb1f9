/** Whether `text` has the form of a UUID (any version, either case): ids are checked before they reach a uuid cast. */
export function isUuid(text: string): boolean {
  return UUID.test(text);
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
