// Keeps a crashing screen from taking the shell down: shows react-admin's error page in the content
// area (a screen chunk that failed to load: the chunk load error with a reload, docs/product-rules.md#error-catalogue) and resets
// when the user navigates elsewhere.
import { Component, type ErrorInfo, type ReactNode } from 'react';
import { Error as ErrorPage } from 'react-admin';
import { asChunkLoadError } from '../pages/chunkLoad';
import { ChunkLoadErrorView } from '../pages/ChunkLoadErrorView';

interface Props {
  /** Changing it (e.g. the pathname) clears a shown error. */
  resetKey: string;
  children: ReactNode;
}
interface State {
  error: Error | null;
  errorInfo?: ErrorInfo;
  resetKey: string;
}

export class ScreenErrorBoundary extends Component<Props, State> {
  state: State = { error: null, resetKey: this.props.resetKey };

  static getDerivedStateFromError(error: Error): Partial<State> {
    return { error };
  }

  static getDerivedStateFromProps(props: Props, state: State): Partial<State> | null {
    return props.resetKey !== state.resetKey ? { error: null, errorInfo: undefined, resetKey: props.resetKey } : null;
  }

  componentDidCatch(error: Error, errorInfo: ErrorInfo) {
    this.setState({ errorInfo });
    console.error(error);
  }

  render() {
    const { error, errorInfo } = this.state;
    if (!error) return this.props.children;
    const chunkError = asChunkLoadError(error);
    if (chunkError) return <ChunkLoadErrorView error={chunkError} />;
    return <ErrorPage error={error} errorInfo={errorInfo} resetErrorBoundary={() => this.setState({ error: null })} />;
  }
}
