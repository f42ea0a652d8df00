import { useState } from 'react';
import type { TablePaginationConfig } from 'antd';
import { Limits } from '@hpc/contracts';

/**
 * The page of a job table the service is asked for (the spec's page sizes), the table's pagination for a total, and
 * `reset`: back to page 1, for a filter that changes what is listed.
 */
export function useTablePage() {
  const [page, setPage] = useState<{ pageNum: number; pageSize: number }>({
    pageNum: 1,
    pageSize: Limits.defaultPageSize,
  });
  const reset = () => setPage((p) => ({ ...p, pageNum: 1 }));
  const pagination = (total: number): TablePaginationConfig => ({
    current: page.pageNum,
    pageSize: page.pageSize,
    total,
    pageSizeOptions: Limits.pageSizes.map(String),
    showSizeChanger: true,
    showQuickJumper: true,
    onChange: (pageNum, pageSize) => setPage({ pageNum, pageSize }),
  });
  return { page, reset, pagination };
}
