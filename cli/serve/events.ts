/** What the server reports as it runs (`content serve` prints them); never a visitor's name or address. */
export type ServeEvent =
  | { kind: 'stored'; id: number; duplicate: boolean }
  | { kind: 'refused'; status: number; code: string }
  | { kind: 'mail-sent'; id: number }
  | { kind: 'mail-failed'; id: number; error: string; retryInMs: number }
  /** The mail server refused it for good: marked failed, shown by `content enquiries list`, sent again only by `resend`. */
  | { kind: 'mail-refused'; id: number; error: string }
  /** Kept aside as suspected spam: stored, not e-mailed. */
  | { kind: 'suspected'; id: number; reason: string; duplicate: boolean }
  /** Deleted by the retention period (only ids: nothing a visitor wrote). */
  | { kind: 'expired'; ids: number[]; days: number }
  | { kind: 'error'; error: string };

/** `request`: the request the event belongs to, if any (its log line then carries the request's id). */
export type ServeLog = (event: ServeEvent, request?: { id: string }) => void;
