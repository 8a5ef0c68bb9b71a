// A PostgreSQL address as it may be printed, apart from pg-store.ts: the commands name the store
// they read without loading the PostgreSQL client when they read SQLite.

/** The address with its password (if any) replaced: the only form of it that is ever printed. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    for (const name of ['password', 'sslpassword']) if (u.searchParams.has(name)) u.searchParams.set(name, '***');
    return u.toString().replaceAll('%2A%2A%2A', '***');
  } catch {
    return '(not a valid address)';
  }
}

/** A message with the address's password taken out wherever it might appear. */
export function scrub(message: string, url: string): string {
  let secrets: string[] = [];
  try {
    const u = new URL(url);
    secrets = [decodeURIComponent(u.password), u.searchParams.get('password') ?? '', u.searchParams.get('sslpassword') ?? ''];
  } catch {}
  return secrets.filter((p) => p.length >= 3).reduce((m, p) => m.split(p).join('***'), message);
}
