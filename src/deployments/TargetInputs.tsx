// The machines a new deployment targets (docs/deployments.md: the union of what is given): machines
// picked by number, fleets from the fleet tree (each with its sub-fleets), models (those the package
// is made for), and a saved filter of the machine list.
import { useEffect, useState } from 'react';
import { useDataProvider, useGetList, useTranslate } from 'ra-core';
import { useFormState } from 'react-hook-form';
import { AutocompleteArrayInput, ReferenceArrayInput, SelectInput } from 'react-admin';
import { Alert, Box, Typography } from '@mui/material';
import { fleet } from '../../resources/fleet';
import { machine } from '../../resources/machine';
import { LABELS_META } from '../generic/FieldDisplay';
import { nameLikeQuery } from '../generic/FieldInput';
import { resourceNameOf } from '../providers/registry';
import { TreeChecklistInput } from '../generic/TreeChecklistInput';
import type { RvmDataProvider, SavedFilter } from '../providers/dataProvider';

/** The fleet tree's records, as the tree input loads them (one query, shared). */
export const useFleetRecords = () =>
  useGetList<{ id: number; parentId: number | null }>(resourceNameOf(fleet), {
    pagination: { page: 1, perPage: 500 },
    sort: fleet.list.defaultSort,
    meta: { all: true },
  }).data ?? [];

const useMachineFilters = () => {
  const dataProvider = useDataProvider<RvmDataProvider>();
  const [filters, setFilters] = useState<SavedFilter[]>([]);
  useEffect(() => {
    let current = true;
    dataProvider.savedFilters(machine.name).then(
      (answer) => current && setFilters(answer),
      () => current && setFilters([]),
    );
    return () => {
      current = false;
    };
  }, [dataProvider]);
  return filters;
};

export const TargetInputs = ({ models }: { models: readonly string[] }) => {
  const translate = useTranslate();
  const savedFilters = useMachineFilters();
  const { errors } = useFormState();
  const targetsError = (errors.targets as { message?: string } | undefined)?.message;
  const filterName = (filter: SavedFilter) => (filter.builtIn ? translate(`generic.savedFilters.builtInNames.${filter.name}`, { _: filter.name }) : filter.name);

  return (
    <Box>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
        {translate('deployments.form.targetsHelp')}
      </Typography>
      {targetsError ? (
        <Alert severity="error" sx={{ mb: 1 }} data-testid="targets-error">
          {translate(targetsError, { _: targetsError })}
        </Alert>
      ) : null}
      <ReferenceArrayInput source="machineIds" reference={resourceNameOf(machine)} queryOptions={{ meta: LABELS_META }}>
        <AutocompleteArrayInput
          label="deployments.form.machines"
          optionText={machine.nameField}
          filterToQuery={nameLikeQuery}
          helperText="deployments.form.machinesHelp"
          fullWidth
        />
      </ReferenceArrayInput>
      <AutocompleteArrayInput
        source="models"
        label="deployments.form.models"
        choices={models.map((model) => ({ id: model, name: model }))}
        translateChoice={false}
        helperText="deployments.form.modelsHelp"
        fullWidth
      />
      <SelectInput
        source="savedFilterId"
        label="deployments.form.savedFilter"
        choices={savedFilters.map((filter) => ({ id: filter.id, name: filterName(filter) }))}
        translateChoice={false}
        emptyText="deployments.form.noSavedFilter"
        helperText="deployments.form.savedFilterHelp"
        fullWidth
      />
      <TreeChecklistInput source="fleetSelection" label="deployments.form.fleets" reference={fleet} />
      <Typography variant="caption" color="text.secondary">
        {translate('deployments.form.fleetsHelp')}
      </Typography>
    </Box>
  );
};
