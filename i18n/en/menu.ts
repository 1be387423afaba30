// Section 'menu' of the English catalogue.
export const menu = {
  placeholder: '',
} as const;
