// Keeps a crashing screen from taking the shell down: shows react-admin's error page in the content
// area and resets when the user navigates elsewhere.
import { Component, type ErrorInfo, type ReactNode } from 'react';
import { Error as ErrorPage } from 'react-admin';

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
    return <ErrorPage error={error} errorInfo={errorInfo} resetErrorBoundary={() => this.setState({ error: null })} />;
  }
}
