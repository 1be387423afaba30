// The password cipher (./crypto.ts, crypto-js) is not part of the login page's download (issue 8):
// it is needed only to write the session's password after a sign-in and to read it back (the login
// form's remembered password, the change-password dialog). It becomes available when ./crypto.ts is
// evaluated: the console imports it statically (so it is there whenever the console runs), the light
// entry loads it on demand through loadPasswordCipher().
export interface PasswordCipher {
  encryptPassword: (plain: string) => string;
  decryptPassword: (cipher: string | null | undefined) => string | null;
}

let available: PasswordCipher | undefined;
let loading: Promise<PasswordCipher> | undefined;

/** Called by ./crypto.ts when it is evaluated. */
export const providePasswordCipher = (cipher: PasswordCipher) => {
  available = cipher;
};

/** The cipher if its code is loaded already, else undefined. */
export const loadedPasswordCipher = (): PasswordCipher | undefined => available;

/** Loads the cipher's chunk (once) and answers the cipher. */
export const loadPasswordCipher = (): Promise<PasswordCipher> => (available ? Promise.resolve(available) : (loading ??= import('./crypto').then((module) => available ?? module)));
