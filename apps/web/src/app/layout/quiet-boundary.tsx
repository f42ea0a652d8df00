import { Component, type ReactNode } from 'react';

/**
 * Around optional parts of the shell (the user menu, the alert bars): if one fails to load or render, it is left
 * out instead of taking the shell down with it; the page itself reports its own failures (RouteError).
 */
export class QuietBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  override render() {
    return this.state.failed ? null : this.props.children;
  }
}
