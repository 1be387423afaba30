// The editor's rules across fields (resources/types.ts CrossFieldRule: after, greaterThan,
// notGreaterThan, equals), each with its message in both languages; checked by the generic form and
// the server alike.
import { ArrayInput, Button, SelectInput, SimpleFormIterator, TextInput, useLocaleState, useSimpleFormIterator, useTranslate } from 'react-admin';
import { useWatch } from 'react-hook-form';
import { Box, Typography } from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import { CONFIGURED_RULE_KINDS } from '../../resources/configuredTypes';
import type { FieldValues } from './editorModel';

const ROW_SX = { display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(180px, 1fr))', columnGap: 2, width: '100%' } as const;

const AddRuleButton = () => {
  const { add } = useSimpleFormIterator();
  return (
    <Button label="resourceTypes.buttons.addRule" onClick={() => add({ kind: 'greaterThan', field: '', other: '', messageEn: '', messageZh: '' })}>
      <AddIcon />
    </Button>
  );
};

const RuleItem = () => {
  const fields = (useWatch({ name: 'fields' }) as FieldValues[] | undefined) ?? [];
  const [locale] = useLocaleState();
  const choices = fields
    .filter((field) => field?.name)
    .map((field) => ({ id: field.name, name: `${field.name} (${(locale === 'zh' ? field.labelZh : field.labelEn) || field.labelEn || ''})` }));
  const kinds = CONFIGURED_RULE_KINDS.map((id) => ({ id, name: `resourceTypes.editor.ruleKinds.${id}` }));
  return (
    <Box sx={ROW_SX}>
      <SelectInput source="field" label="resourceTypes.editor.ruleField" choices={choices} translateChoice={false} />
      <SelectInput source="kind" label="resourceTypes.editor.ruleKind" choices={kinds} />
      <SelectInput source="other" label="resourceTypes.editor.ruleOther" choices={choices} translateChoice={false} />
      <TextInput source="messageEn" label="resourceTypes.editor.field.messageEn" />
      <TextInput source="messageZh" label="resourceTypes.editor.field.messageZh" />
    </Box>
  );
};

export const RulesInput = () => {
  const translate = useTranslate();
  return (
    <>
      <Typography component="h2" variant="h6">
        {translate('resourceTypes.editor.rules')}
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
        {translate('resourceTypes.editor.rulesHelp')}
      </Typography>
      <ArrayInput source="rules" label={false}>
        <SimpleFormIterator disableReordering disableClear addButton={<AddRuleButton />} sx={{ '& .RaSimpleFormIterator-form': { flex: 1, minWidth: 0 } }}>
          <RuleItem />
        </SimpleFormIterator>
      </ArrayInput>
    </>
  );
};
