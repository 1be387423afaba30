// Section 'app' of the English catalogue.
export const app = {
  placeholder: '',
} as const;
