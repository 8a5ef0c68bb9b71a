import { type ParsedMail, simpleParser } from 'mailparser';
import { createTransport } from 'nodemailer';
import { SMTPServer } from 'smtp-server';

export interface Smtp {
  /** Every message it accepted, in order. */
  received: ParsedMail[];
  /** The recipients of each accepted message. */
  envelopes: string[][];
  /** How many messages it refused. */
  refused: number;
  close(): Promise<void>;
}

/**
 * A real SMTP server on 127.0.0.1. `reject` may refuse a message after reading it, as a mail
 * server's spam or virus filter does: it returns the reply (`{code: 554, text: '…'}`) or undefined to accept.
 */
export async function startSmtp(port: number, reject?: (mail: ParsedMail) => { code: number; text: string } | undefined): Promise<Smtp> {
  const received: ParsedMail[] = [];
  const envelopes: string[][] = [];
  const state = { refused: 0 };
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      simpleParser(stream).then((mail) => {
        const refusal = reject?.(mail);
        if (refusal) {
          state.refused++;
          return callback(Object.assign(new Error(refusal.text), { responseCode: refusal.code }));
        }
        envelopes.push(session.envelope.rcptTo.map((r) => r.address));
        received.push(mail);
        callback();
      }, callback);
    },
  });
  await new Promise<void>((r) => smtp.listen(port, '127.0.0.1', r));
  return {
    received,
    envelopes,
    get refused() {
      return state.refused;
    },
    close: () => new Promise<void>((r) => smtp.close(() => r())),
  };
}

/**
 * Waits until `what` holds (polling). Without `ms`, as long as the test may run: its time limit is
 * the backstop, and a busy machine only makes the wait longer; with `ms`, fails after that long.
 */
export async function until(what: () => boolean | Promise<boolean>, ms = Number.POSITIVE_INFINITY): Promise<void> {
  const end = Date.now() + ms;
  while (!(await what())) {
    if (Date.now() > end) throw new Error(`timed out after ${ms} ms`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** `content serve`'s e-mail settings for the test SMTP server on `port`, with short retries: a transport of its own for each server. */
export const mailTo = (port: number, retry = { initialMs: 50, maxMs: 200 }) => ({
  mailer: createTransport({ host: '127.0.0.1', port, secure: false, ignoreTLS: true }),
  to: 'studio@example.org',
  from: 'website@example.org',
  retry,
});
