// Client-side password handling (docs/product-rules.md#sign-in-and-session): the password kept in the session is
// AES-encrypted with a fixed key (so it is not stored in clear text), and the change-password dialog
// compares passwords through a SHA-256 hash rather than character by character.
// The key ships in the bundle, so this hides the password from a casual look, nothing more: whoever
// can read the browser's storage can decrypt it. What contains it (session.ts, docs/security.md): the
// cookie exists only for "remember password", is SameSite=Strict and Secure over HTTPS, and the server
// never takes the ciphertext (or the cookie) as a credential.
// Only the crypto-js modules used (not the whole library, ~4 times larger). The login page does not load
// this module: ./passwordCipher.ts loads it on demand (issue 8), and it registers itself there.
import AES from 'crypto-js/aes';
import Utf8 from 'crypto-js/enc-utf8';
import Hex from 'crypto-js/enc-hex';
import ECB from 'crypto-js/mode-ecb';
import Pkcs7 from 'crypto-js/pad-pkcs7';
import SHA256 from 'crypto-js/sha256';
import { providePasswordCipher } from './passwordCipher';

// Fixed 16-byte key and ECB mode: the same password always gives the same ciphertext, which keeps the
// localStorage value and the cookie value identical (docs/product-rules.md#sign-in-and-session).
const FIXED_KEY = Utf8.parse('RvmConsole@2024!');
const CIPHER_OPTIONS = { mode: ECB, padding: Pkcs7 };

export const encryptPassword = (plain: string): string => AES.encrypt(Utf8.parse(plain), FIXED_KEY, CIPHER_OPTIONS).toString();

/** Returns the clear password, or null when the ciphertext is missing or was not made by us. */
export const decryptPassword = (cipher: string | null | undefined): string | null => {
  if (!cipher) return null;
  try {
    const plain = AES.decrypt(cipher, FIXED_KEY, CIPHER_OPTIONS).toString(Utf8);
    return plain === '' ? null : plain;
  } catch {
    return null;
  }
};

providePasswordCipher({ encryptPassword, decryptPassword });

export const hashPassword = (plain: string): string => SHA256(plain).toString(Hex);

/** Equality after hashing both sides (docs/product-rules.md#validation-rules, change password dialog). */
export const samePasswordHash = (a: string, b: string): boolean => hashPassword(a) === hashPassword(b);
