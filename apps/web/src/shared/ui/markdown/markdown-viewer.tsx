import { lazy, Suspense } from 'react';
import { Skeleton } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { EmptyState } from '../empty-state';

const MarkdownBody = lazy(() => import('./markdown-body'));

interface Props {
  /** Cache key of the description, e.g. ['images', 'description', path]. */
  queryKey: readonly unknown[];
  /** Reads the markdown through the catalogue's file-view call; null when the item has no description. */
  load: ((signal: AbortSignal) => Promise<string>) | null;
}

/** A description read through the file-view call (spec §2): skeleton, rendered markdown, or "no info". */
export function MarkdownViewer({ queryKey, load }: Props) {
  const { data, isLoading } = useQuery({
    queryKey,
    queryFn: ({ signal }) => (load ? load(signal) : Promise.resolve('')),
    enabled: load !== null,
  });
  const skeleton = <Skeleton active paragraph={{ rows: 8 }} />;
  if (load && isLoading) return skeleton;
  if (!data?.trim()) return <EmptyState />;
  return (
    <Suspense fallback={skeleton}>
      <MarkdownBody text={data} />
    </Suspense>
  );
}
