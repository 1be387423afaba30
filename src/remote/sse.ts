// A server-sent events reader over fetch (EventSource cannot send the `rvm-token` header): a pure,
// incremental parser of the text/event-stream format (chunks may split anywhere, even inside a line
// or a CRLF), and a stream that reconnects with back-off until it is closed.
import { readEnvelope, isForcedLogoutCode } from '../providers/http';

export interface SseEvent {
  /** `event:` field; 'message' when absent (as EventSource does). */
  event: string;
  data: string;
  id?: string;
}

/**
 * Feeds text chunks, calls `onEvent` for every complete event (terminated by a blank line).
 * Comments (`:` lines, the keep-alives) and unknown fields are ignored; multi-line data is joined
 * with '\n'; an event without data is not dispatched (WHATWG rules).
 */
export const createSseParser = (onEvent: (event: SseEvent) => void) => {
  let buffer = '';
  let eventName = '';
  let data: string[] = [];
  let id: string | undefined;
  // A chunk ending in '\r' may be the first half of a CRLF: the next '\n' then ends nothing new.
  let pendingCr = false;

  const dispatch = () => {
    if (data.length > 0) onEvent({ event: eventName || 'message', data: data.join('\n'), ...(id !== undefined ? { id } : {}) });
    eventName = '';
    data = [];
  };

  const line = (text: string) => {
    if (text === '') return dispatch();
    if (text.startsWith(':')) return undefined;
    const colon = text.indexOf(':');
    const field = colon === -1 ? text : text.slice(0, colon);
    let value = colon === -1 ? '' : text.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'event') eventName = value;
    else if (field === 'data') data.push(value);
    else if (field === 'id' && !value.includes('\0')) id = value;
    return undefined;
  };

  return {
    push(chunk: string) {
      let text = chunk;
      if (pendingCr && text.startsWith('\n')) text = text.slice(1);
      pendingCr = false;
      buffer += text;
      const pattern = /\r\n|\r|\n/g;
      let start = 0;
      for (let match = pattern.exec(buffer); match; match = pattern.exec(buffer)) {
        // A lone '\r' at the very end may still become '\r\n': treat it as a line end, remember it.
        if (match[0] === '\r' && match.index === buffer.length - 1) pendingCr = true;
        line(buffer.slice(start, match.index));
        start = match.index + match[0].length;
      }
      buffer = buffer.slice(start);
    },
    /** Forgets a half-read event (the connection dropped). */
    reset() {
      buffer = '';
      eventName = '';
      data = [];
      pendingCr = false;
    },
  };
};

export type StreamState = 'connecting' | 'open' | 'retrying' | 'closed';

export interface EventStreamOptions {
  url: string;
  headers: () => Record<string, string>;
  onEvent: (event: SseEvent) => void;
  onState?: (state: StreamState) => void;
  /** The server refused with a forced-logout code (11011–11016): the caller clears the session. */
  onForcedLogout?: () => void;
  fetch?: typeof fetch;
  /** Delay before reconnect attempt `attempt` (1, 2, ...). */
  backoff?: (attempt: number) => number;
}

/** 1 s, 2 s, 4 s … capped at 30 s. */
export const defaultBackoff = (attempt: number) => Math.min(30_000, 1000 * 2 ** Math.max(0, attempt - 1));

/** Opens the stream and keeps it open (reconnecting) until `close()`. */
export const openEventStream = (options: EventStreamOptions) => {
  const doFetch = options.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => globalThis.fetch(input, init));
  const backoff = options.backoff ?? defaultBackoff;
  const controller = new AbortController();
  let attempt = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const parser = createSseParser((event) => {
    // A `ready` event proves the connection works: the next drop starts the back-off again.
    if (event.event === 'ready') attempt = 0;
    options.onEvent(event);
  });
  const state = (value: StreamState) => {
    if (!controller.signal.aborted || value === 'closed') options.onState?.(value);
  };

  const connect = async () => {
    state('connecting');
    parser.reset();
    try {
      const response = await doFetch(options.url, { headers: options.headers(), signal: controller.signal, cache: 'no-store' });
      if (response.status !== 200 || !response.body) {
        const envelope = readEnvelope(await response.json().catch(() => null));
        if (envelope && isForcedLogoutCode(envelope.code)) {
          options.onForcedLogout?.();
          return close();
        }
        // No permission will not change by retrying.
        if (envelope?.code === '4003') return close();
        throw new Error(`stream answered ${response.status}`);
      }
      state('open');
      const reader = response.body.getReader();
      // `stream: true` keeps a UTF-8 character split between two chunks whole.
      const decoder = new TextDecoder();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        parser.push(decoder.decode(value, { stream: true }));
      }
    } catch {
      /* dropped or refused: retried below unless closed */
    }
    if (controller.signal.aborted) return undefined;
    attempt += 1;
    state('retrying');
    timer = setTimeout(() => void connect(), backoff(attempt));
    return undefined;
  };

  const close = () => {
    if (timer) clearTimeout(timer);
    if (!controller.signal.aborted) {
      controller.abort();
      options.onState?.('closed');
    }
  };

  void connect();
  return { close };
};
