// The English catalogue: the reference. Its literal type is what the Chinese one is checked against.
import { app } from './app';
import { menu } from './menu';
import { generic } from './generic';
import { validation } from './validation';
import { errors } from './errors';
import { resources } from './resources';

export const en = { app, menu, generic, validation, errors, resources } as const;
export type AppMessages = typeof en;
