// A text field that holds a comma-separated list of declared options (`display: 'optionList'`, e.g. an
// event notification's alarm codes): picked from the options, each shown as its value and label (an
// alarm code and its text, in the console's language) and searchable by either; the value sent and
// stored stays the text `a, b, c` the API and its validation speak.
import { AutocompleteArrayInput, useTranslate, type Validator } from 'react-admin';

interface Choice {
  id: string | number;
  /** i18n key of the option's label. */
  name: string;
}

export interface OptionListInputProps {
  source: string;
  label: string;
  choices: Choice[];
  validate?: Validator;
  fullWidth?: boolean;
  /** The declared initial text of a new record (e.g. a new subscription starts with all its API's events). */
  defaultValue?: unknown;
}

/** "a, b" ⇄ ['a', 'b']. */
export const splitOptionList = (value: unknown): string[] =>
  typeof value === 'string'
    ? value
        .split(',')
        .map((item) => item.trim())
        .filter(Boolean)
    : Array.isArray(value)
      ? value.map(String)
      : [];
export const joinOptionList = (values: unknown): string => (Array.isArray(values) ? values.join(', ') : '');

export const OptionListInput = ({ choices, defaultValue, ...props }: OptionListInputProps) => {
  const translate = useTranslate();
  const labelled = choices.map((choice) => ({ id: String(choice.id), name: `${choice.id} ${translate(choice.name, { _: '' })}`.trim() }));
  return (
    <AutocompleteArrayInput
      {...props}
      // the form holds the stored text (format and parse convert), whatever the input's array typing says
      defaultValue={defaultValue as string[] | undefined}
      choices={labelled}
      translateChoice={false}
      format={splitOptionList}
      parse={joinOptionList}
      filterSelectedOptions
    />
  );
};
