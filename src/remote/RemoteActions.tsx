// The remote actions of one machine (the catalogue, resources/commands.ts) as grouped buttons. A command the machine's model does not
// support (resources/commands.ts supportsCommand) stays visible but disabled, its tooltip saying why.
import { useTranslate } from 'ra-core';
import { Box, Button, Paper, Tooltip, Typography } from '@mui/material';
import { supportsCommand, type RemoteCommand } from '../../resources/commands';
import { COMMAND_GROUPS } from './commandUi';
import { commandIcon } from './commandIcons';

export interface RemoteActionsProps {
  /** The machine's model; null while unknown (then every action is offered and the server decides). */
  termType: string | null;
  onAction: (command: RemoteCommand) => void;
}

export const RemoteActions = ({ termType, onAction }: RemoteActionsProps) => {
  const translate = useTranslate();
  return (
    <Box
      component="section"
      aria-label={translate('remote.actionsTitle')}
      // Groups as wide as their longest label, side by side while they fit, wrapping when not.
      sx={{ display: 'flex', flexWrap: 'wrap', gap: 1.5, mb: 2 }}
      data-testid="remote-actions"
    >
      {COMMAND_GROUPS.map((group) => (
        <Paper key={group.key} variant="outlined" sx={{ p: 1.5, flex: '1 1 auto' }} role="group" aria-labelledby={`remote-group-${group.key}`}>
          <Typography id={`remote-group-${group.key}`} variant="subtitle2" color="text.secondary" sx={{ mb: 1, whiteSpace: 'nowrap' }}>
            {translate(`remote.groups.${group.key}`)}
          </Typography>
          <Box sx={{ display: 'flex', flexDirection: 'column', gap: 1 }}>
            {group.commands.map((command) => {
              const supported = termType === null || supportsCommand(termType, command);
              const Icon = commandIcon(command);
              const button = (
                <Button
                  variant="outlined"
                  size="small"
                  startIcon={<Icon />}
                  disabled={!supported}
                  onClick={() => onAction(command)}
                  sx={{ justifyContent: 'flex-start', textTransform: 'none', width: '100%', whiteSpace: 'nowrap' }}
                  data-testid={`action-${command}`}
                >
                  {translate(`remote.commands.${command}`)}
                </Button>
              );
              return supported ? (
                // describeChild: the description is the button's description, its name stays its visible label (WCAG 2.5.3)
                <Tooltip key={command} describeChild title={translate(`remote.descriptions.${command}`)} placement="top" enterDelay={600}>
                  {button}
                </Tooltip>
              ) : (
                // A disabled button fires no pointer events: the wrapper carries the tooltip.
                <Tooltip key={command} title={translate('remote.unsupported', { model: termType ?? '' })} placement="top">
                  <Box component="span" tabIndex={0} sx={{ display: 'block' }} data-testid={`unsupported-${command}`}>
                    {button}
                  </Box>
                </Tooltip>
              );
            })}
          </Box>
        </Paper>
      ))}
    </Box>
  );
};
