// The live command stream (GET /rvm/command/stream) for a machine or a batch: opened with fetch and
// the session's token header, reconnecting with back-off, closed when the screen closes. After a
// reconnect `onResync` runs, since updates may have been missed while the stream was down.
import { useEffect, useRef, useState } from 'react';
import { useConsoleServices } from '../layout/ConsoleServices';
import { API_BASE_URL, buildQueryString, convertDateTimes, requestHeaders } from '../providers/http';
import type { CommandRecord } from './commandTypes';
import { openEventStream, type StreamState } from './sse';

export interface CommandStreamScope {
  rvmId?: number;
  batchId?: number;
}

export const commandStreamUrl = (scope: CommandStreamScope) => `${API_BASE_URL}/rvm/command/stream${buildQueryString({ ...scope })}`;

export const useCommandStream = (scope: CommandStreamScope | null, onCommand: (record: CommandRecord) => void, onResync?: () => void): StreamState => {
  const { session, reload } = useConsoleServices();
  const [state, setState] = useState<StreamState>('connecting');
  // Latest callbacks without reopening the stream on every render.
  const handlers = useRef({ onCommand, onResync });
  handlers.current = { onCommand, onResync };
  const key = scope ? commandStreamUrl(scope) : null;

  useEffect(() => {
    if (!key) return undefined;
    let readyCount = 0;
    const stream = openEventStream({
      url: key,
      headers: () => requestHeaders(session, { Accept: 'text/event-stream' }),
      onState: setState,
      onForcedLogout: () => {
        session.clear();
        reload();
      },
      onEvent: (event) => {
        if (event.event === 'ready') {
          readyCount += 1;
          if (readyCount > 1) handlers.current.onResync?.();
          return;
        }
        if (event.event !== 'command') return;
        try {
          handlers.current.onCommand(convertDateTimes(JSON.parse(event.data)) as CommandRecord);
        } catch {
          /* a malformed event is skipped; the next page load shows the truth */
        }
      },
    });
    return () => stream.close();
  }, [key, session, reload]);

  return state;
};
