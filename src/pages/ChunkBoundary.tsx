// Lazy chunks under a time-out and an error boundary (docs/ARCHITECTURE.md#console-http-client): <ChunkSuspense> shows `fallback`
// while a chunk loads and turns a load still pending after CHUNK_TIMEOUT_MS into a chunk load error;
// <ChunkErrorBoundary> shows chunk load errors with a reload and passes every other error on.
import { Component, Suspense, useEffect, useState, type ReactNode } from 'react';
import { asChunkLoadError, CHUNK_TIMEOUT_MS, ChunkLoadError } from './chunkLoad';
import { ChunkLoadErrorView } from './ChunkLoadErrorView';

const PendingChunk = ({ fallback, timeoutMs }: { fallback: ReactNode; timeoutMs: number }) => {
  const [timedOut, setTimedOut] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setTimedOut(true), timeoutMs);
    return () => clearTimeout(timer);
  }, [timeoutMs]);
  if (timedOut) throw new ChunkLoadError('script', 'timeout');
  return <>{fallback}</>;
};

export const ChunkSuspense = ({ fallback, children, timeoutMs = CHUNK_TIMEOUT_MS }: { fallback: ReactNode; children: ReactNode; timeoutMs?: number }) => (
  <Suspense fallback={<PendingChunk fallback={fallback} timeoutMs={timeoutMs} />}>{children}</Suspense>
);

interface State {
  error: unknown;
  resetKey?: string;
}

export class ChunkErrorBoundary extends Component<{ children: ReactNode; resetKey?: string }, State> {
  state: State = { error: null, resetKey: this.props.resetKey };

  static getDerivedStateFromError(error: unknown): Partial<State> {
    return { error };
  }

  static getDerivedStateFromProps(props: { resetKey?: string }, state: State): Partial<State> | null {
    return props.resetKey !== state.resetKey ? { error: null, resetKey: props.resetKey } : null;
  }

  render() {
    if (this.state.error === null) return this.props.children;
    const chunkError = asChunkLoadError(this.state.error);
    // not ours: the next boundary up (or React) handles it
    if (!chunkError) throw this.state.error;
    return <ChunkLoadErrorView error={chunkError} />;
  }
}
