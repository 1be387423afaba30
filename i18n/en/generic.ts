// Section 'generic' of the English catalogue.
export const generic = {
  placeholder: '',
} as const;
