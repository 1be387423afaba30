// A text field that holds a comma-separated list of declared options (`display: 'optionList'`, e.g. an
// event notification's alarm codes, a promotion's days): picked from the options, each chip showing its
// label in the console's language as the list and show pages do (FieldDisplay), the stored value beside
// the label in the drop-down only, and searchable by either; the value sent and stored stays the text
// `a, b, c` the API and its validation speak.
import { Box, Typography } from '@mui/material';
import { AutocompleteArrayInput, useRecordContext, useTranslate, type Validator } from 'react-admin';

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

interface LabelledChoice {
  id: string;
  name: string;
}

/** A drop-down line: the label, and the stored value after it when it says something else. */
const OptionLine = () => {
  const choice = useRecordContext<LabelledChoice>();
  if (!choice) return null;
  return (
    <Box component="span" sx={{ display: 'flex', gap: 1, alignItems: 'baseline' }}>
      <span>{choice.name}</span>
      {choice.name !== choice.id && (
        <Typography component="span" variant="caption" color="text.secondary">
          {choice.id}
        </Typography>
      )}
    </Box>
  );
};

// one element for every render: a new one each time would make the input forget the typed text
const OPTION_LINE = <OptionLine />;
const labelOf = (choice: LabelledChoice) => choice.name;
const matches = (filter: string, choice: LabelledChoice) => {
  const wanted = filter.trim().toLowerCase();
  return choice.name.toLowerCase().includes(wanted) || choice.id.toLowerCase().includes(wanted);
};

export const OptionListInput = ({ choices, defaultValue, ...props }: OptionListInputProps) => {
  const translate = useTranslate();
  const labelled: LabelledChoice[] = choices.map((choice) => ({ id: String(choice.id), name: translate(choice.name, { _: String(choice.id) }) }));
  return (
    <AutocompleteArrayInput
      {...props}
      // the form holds the stored text (format and parse convert), whatever the input's array typing says
      defaultValue={defaultValue as string[] | undefined}
      choices={labelled}
      translateChoice={false}
      optionText={OPTION_LINE}
      inputText={labelOf}
      matchSuggestion={matches}
      format={splitOptionList}
      parse={joinOptionList}
      filterSelectedOptions
    />
  );
};
