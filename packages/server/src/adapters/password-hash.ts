import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

/**
 * Staff passwords, hashed with scrypt from Node's crypto (docs/decisions/0010-staff-sign-in.md):
 * N = 2^15, r = 8, p = 1 (OWASP's minimum for scrypt), a 16-byte salt, a 32-byte key; stored as
 * `scrypt$N$r$p$salt$key` so that stronger parameters can come later without breaking old hashes.
 */
const PARAMETERS = { N: 2 ** 15, r: 8, p: 1 } as const;
const KEY_BYTES = 32;
// 128 · N · r bytes of memory (32 MiB) plus headroom: Node's default cap is exactly 32 MiB.
const MAX_MEMORY = 64 * 1024 * 1024;

function derive(password: string, salt: Buffer, parameters: { N: number; r: number; p: number }): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(password.normalize('NFC'), salt, KEY_BYTES, { ...parameters, maxmem: MAX_MEMORY }, (error, key) =>
      error ? reject(error) : resolve(key),
    ),
  );
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, PARAMETERS);
  return ['scrypt', PARAMETERS.N, PARAMETERS.r, PARAMETERS.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/** Whether `password` matches `stored`; a malformed hash matches nothing. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, key] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !key) return false;
  const expected = Buffer.from(key, 'base64url');
  const actual = await derive(password, Buffer.from(salt, 'base64url'), { N: Number(n), r: Number(r), p: Number(p) });
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** A hash no password matches: checked against when the e-mail is unknown, so that an answer's time tells nothing. */
export const UNUSABLE_HASH = `scrypt$${PARAMETERS.N}$${PARAMETERS.r}$${PARAMETERS.p}$${Buffer.alloc(16).toString('base64url')}$${Buffer.alloc(KEY_BYTES).toString('base64url')}`;
