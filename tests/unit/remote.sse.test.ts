// The SSE reader of the remote command stream: the text/event-stream format however the network
// cuts it, and a stream that sends the token header, reconnects after a drop and stops when closed.
import { describe, expect, it, vi } from 'vitest';
import { createSseParser, openEventStream, type SseEvent, type StreamState } from '../../src/remote/sse';

const parseAll = (chunks: string[]) => {
  const events: SseEvent[] = [];
  const parser = createSseParser((event) => events.push(event));
  for (const chunk of chunks) parser.push(chunk);
  return events;
};

const STREAM = 'event: ready\ndata: {}\n\n: keep-alive\n\nevent: command\ndata: {"id":1,"status":"sent"}\n\nevent: command\nid: 7\ndata: {"id":2,\ndata: "status":"sending"}\n\n';
const EXPECTED: SseEvent[] = [
  { event: 'ready', data: '{}' },
  { event: 'command', data: '{"id":1,"status":"sent"}' },
  { event: 'command', data: '{"id":2,\n"status":"sending"}', id: '7' },
];

describe('SSE parser', () => {
  it('reads several events from one chunk and ignores keep-alive comments', () => {
    expect(parseAll([STREAM])).toEqual(EXPECTED);
  });

  it('gives the same events however the chunks are cut (every split point, one character at a time)', () => {
    for (let cut = 1; cut < STREAM.length; cut += 1) {
      expect(parseAll([STREAM.slice(0, cut), STREAM.slice(cut)]), `cut at ${cut}`).toEqual(EXPECTED);
    }
    expect(parseAll([...STREAM])).toEqual(EXPECTED);
  });

  it('accepts CRLF and CR line ends, also when a CRLF is split between chunks', () => {
    const crlf = STREAM.replace(/\n/g, '\r\n');
    for (let cut = 1; cut < crlf.length; cut += 1) {
      expect(parseAll([crlf.slice(0, cut), crlf.slice(cut)]), `cut at ${cut}`).toEqual(EXPECTED);
    }
    expect(parseAll([STREAM.replace(/\n/g, '\r')])).toEqual(EXPECTED);
  });

  it('waits for the blank line before dispatching, names unnamed events "message", skips events without data', () => {
    const events: SseEvent[] = [];
    const parser = createSseParser((event) => events.push(event));
    parser.push('data: half');
    parser.push('\n');
    expect(events).toEqual([]);
    parser.push('\nevent: empty\n\ndata:no-space\n\n');
    expect(events).toEqual([
      { event: 'message', data: 'half' },
      { event: 'message', data: 'no-space' },
    ]);
  });

  it('forgets a half-read event on reset (the connection dropped)', () => {
    const events: SseEvent[] = [];
    const parser = createSseParser((event) => events.push(event));
    parser.push('event: command\ndata: {"id":1');
    parser.reset();
    parser.push('event: ready\ndata: {}\n\n');
    expect(events).toEqual([{ event: 'ready', data: '{}' }]);
  });
});

/** A fetch answering each call with the next scripted body; a body is a list of chunks, then the end. */
const scriptedFetch = (bodies: Array<{ status?: number; chunks: string[]; json?: unknown }>) => {
  const calls: Array<{ url: string; headers: Record<string, string> }> = [];
  const fetch = vi.fn(async (url: RequestInfo | URL, init?: RequestInit) => {
    calls.push({ url: String(url), headers: init?.headers as Record<string, string> });
    const next = bodies.shift();
    if (!next) return new Promise<Response>(() => undefined); // stays pending: no more connections
    if (next.json !== undefined) return new Response(JSON.stringify(next.json), { status: next.status ?? 401 });
    const encoder = new TextEncoder();
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const chunk of next.chunks) controller.enqueue(encoder.encode(chunk));
        controller.close();
      },
    });
    return new Response(body, { status: next.status ?? 200, headers: { 'Content-Type': 'text/event-stream' } });
  });
  return { fetch: fetch as unknown as typeof globalThis.fetch, calls };
};

describe('event stream', () => {
  it('sends the headers, reports the events, reconnects after a drop with back-off, stops on close', async () => {
    const { fetch, calls } = scriptedFetch([
      { chunks: ['event: ready\ndata: {}\n\nevent: com', 'mand\ndata: {"id":1}\n\n'] },
      { status: 503, chunks: [] },
      // a multi-byte character split between two chunks stays whole
      { chunks: ['event: command\ndata: "\u00e9\u4e2d', '"\n\n'] },
    ]);
    const events: SseEvent[] = [];
    const states: StreamState[] = [];
    const attempts: number[] = [];
    const stream = openEventStream({
      url: '/test-api/rvm/command/stream?rvmId=5',
      headers: () => ({ 'rvm-token': 'abc', Accept: 'text/event-stream' }),
      onEvent: (event) => events.push(event),
      onState: (state) => states.push(state),
      fetch,
      backoff: (attempt) => {
        attempts.push(attempt);
        return 1;
      },
    });
    await vi.waitFor(() => expect(events).toHaveLength(3), { timeout: 5000 });
    expect(events.map((event) => event.data)).toEqual(['{}', '{"id":1}', '"\u00e9\u4e2d"']);
    expect(calls[0]).toEqual({ url: '/test-api/rvm/command/stream?rvmId=5', headers: { 'rvm-token': 'abc', Accept: 'text/event-stream' } });
    // after 'ready' the count starts again at 1; the 503 makes it 2
    await vi.waitFor(() => expect(calls).toHaveLength(4), { timeout: 5000 });
    expect(attempts).toEqual([1, 2, 3]);
    stream.close();
    expect(states.at(-1)).toBe('closed');
    expect(states).toContain('retrying');
  });

  it('stops and reports a forced logout instead of retrying', async () => {
    const { fetch, calls } = scriptedFetch([{ json: { resCode: '11013', resMsg: 'idle', resData: null }, chunks: [] }]);
    const onForcedLogout = vi.fn();
    const states: StreamState[] = [];
    openEventStream({ url: '/s', headers: () => ({}), onEvent: () => undefined, onForcedLogout, onState: (state) => states.push(state), fetch, backoff: () => 1 });
    await vi.waitFor(() => expect(onForcedLogout).toHaveBeenCalledOnce(), { timeout: 5000 });
    await vi.waitFor(() => expect(states.at(-1)).toBe('closed'));
    expect(calls).toHaveLength(1);
  });
});
