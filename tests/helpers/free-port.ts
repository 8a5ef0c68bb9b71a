import { createServer } from 'node:net';

/** A TCP port on 127.0.0.1 that nothing listens on now (for a server a test starts with a fixed port). */
export async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
  const { port } = probe.address() as { port: number };
  await new Promise<void>((r) => probe.close(() => r()));
  return port;
}
