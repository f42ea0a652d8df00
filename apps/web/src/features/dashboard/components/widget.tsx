import { Component, type ReactNode } from 'react';
import { Alert, Button, Card } from 'antd';
import { useTranslation } from 'react-i18next';

/** A render error inside one widget stays in that widget (issue 22 §4: every widget fails alone). */
class WidgetBoundary extends Component<
  { fallback: (reset: () => void) => ReactNode; children: ReactNode },
  { failed: boolean }
> {
  override state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  override render() {
    return this.state.failed
      ? this.props.fallback(() => this.setState({ failed: false }))
      : this.props.children;
  }
}

/** A Dashboard widget: a card with its title, its own loading and its own failure. */
export function Widget({
  title,
  extra,
  testId,
  children,
}: {
  title: ReactNode;
  extra?: ReactNode;
  testId: string;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <Card title={title} extra={extra} className="hpc-dash-widget" data-testid={testId} size="small">
      <WidgetBoundary
        fallback={(reset) => (
          <Alert
            type="error"
            showIcon
            title={t('dashboard.widgetError', { message: '' })}
            action={<Button onClick={reset}>{t('dashboard.retry')}</Button>}
          />
        )}
      >
        {children}
      </WidgetBoundary>
    </Card>
  );
}

/** The failure of a widget's query, with a retry. */
export function WidgetError({ message, onRetry }: { message: string; onRetry: () => void }) {
  const { t } = useTranslation();
  return (
    <Alert
      type="warning"
      showIcon
      data-testid="widget-error"
      title={t('dashboard.widgetError', { message })}
      action={
        <Button size="small" onClick={onRetry}>
          {t('dashboard.retry')}
        </Button>
      }
    />
  );
}
