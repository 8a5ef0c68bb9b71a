/** What the server reports as it runs (`content serve` prints them); never a visitor's name or address. */
export type ServeEvent =
  | { kind: 'stored'; id: number; duplicate: boolean }
  | { kind: 'dropped'; reason: string }
  | { kind: 'refused'; status: number; code: string }
  | { kind: 'mail-sent'; id: number }
  | { kind: 'mail-failed'; id: number; error: string; retryInMs: number }
  | { kind: 'error'; error: string };

/** `request`: the request the event belongs to, if any (its log line then carries the request's id). */
export type ServeLog = (event: ServeEvent, request?: { id: string }) => void;
