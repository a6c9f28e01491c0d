/**
 * HTTP digest fields (RFC 9530) for objects: a client sends `Want-Repr-Digest: sha-256=10` with a
 * HEAD request and the API answers `Repr-Digest: sha-256=:<base64>:`, hashed where the object is
 * stored. Import compares the objects a target already holds with the bundle's this way, rather
 * than downloading each one to hash it. Both fields are structured-field dictionaries; only what
 * we use is read (sha-256, a preference 1–10, 0 meaning "not wanted").
 */

/** Whether a `Want-Repr-Digest` field asks for sha-256. */
export function wantsSha256(field: string | null | undefined): boolean {
  if (!field) return false;
  for (const member of field.split(',')) {
    const [key, value] = member
      .split(';')[0]!
      .split('=')
      .map((s) => s.trim());
    if (key?.toLowerCase() !== 'sha-256') continue;
    if (value === undefined) return true; // a bare key is the boolean true
    const weight = Number(value);
    return Number.isInteger(weight) && weight > 0 && weight <= 10;
  }
  return false;
}

/** `Repr-Digest` for a hex sha-256. */
export function reprDigest(sha256Hex: string): string {
  return `sha-256=:${Buffer.from(sha256Hex, 'hex').toString('base64')}:`;
}

/** The hex sha-256 of a `Repr-Digest` field, or null when it holds none (or a malformed one). */
export function sha256OfReprDigest(field: string | null | undefined): string | null {
  if (!field) return null;
  for (const member of field.split(',')) {
    const m = /^\s*sha-256\s*=\s*:([A-Za-z0-9+/]+={0,2}):\s*$/i.exec(member);
    if (!m) continue;
    const bytes = Buffer.from(m[1]!, 'base64');
    return bytes.length === 32 ? bytes.toString('hex') : null;
  }
  return null;
}
