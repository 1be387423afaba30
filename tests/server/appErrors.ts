// The catalogue code a server function fails with, for tests that call server code directly.
import { AppError } from '../../server/lib/errors';

/** The catalogue code `action` fails with (or 'none'); any other error is thrown on. */
export const codeOf = async (action: () => unknown): Promise<string> => {
  try {
    await action();
    return 'none';
  } catch (error) {
    if (error instanceof AppError) return error.code;
    throw error;
  }
};
