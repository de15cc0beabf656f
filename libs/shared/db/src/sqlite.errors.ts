// sqlite3 creates its errors in native code, in the main realm: under jest's vm sandbox (and any
// other realm) they are not `instanceof Error`, so errors are recognised by shape.
export function messageOf(error: unknown): string {
  const message = (error as { message?: unknown } | null)?.message;
  return typeof message === 'string' ? message : '';
}

/** SQLITE_BUSY from sqlite3 itself, from TypeORM's QueryFailedError around it, or from our writer queue. */
export function isBusyError(error: unknown): boolean {
  const candidates = [error, (error as { driverError?: unknown } | null)?.driverError];
  return candidates.some(
    (candidate) => (candidate as { code?: unknown } | null)?.code === 'SQLITE_BUSY' || messageOf(candidate).includes('SQLITE_BUSY'),
  );
}
