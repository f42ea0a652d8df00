import { memo } from 'react';
import { Button, Pagination, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { Limits } from '@hpc/contracts';

interface Props {
  total: number;
  pageNum: number;
  pageSize: number;
  onChange: (pageNum: number, pageSize: number) => void;
}

/** Page sizes 10–500 (default 20), jump to page, first and last page (spec §9). */
export const FilePagination = memo(function FilePagination({ total, pageNum, pageSize, onChange }: Props) {
  const { t } = useTranslation();
  const last = Math.max(1, Math.ceil(total / pageSize));
  return (
    <div className="efile-pagination" data-testid="efile-pagination">
      <span className="efile-total">{t('efile.pagination.total', { count: total })}</span>
      <Space size={4}>
        <Button size="small" disabled={pageNum <= 1} onClick={() => onChange(1, pageSize)}>
          {t('efile.pagination.first')}
        </Button>
        <Pagination
          size="small"
          current={pageNum}
          pageSize={pageSize}
          total={total}
          showSizeChanger
          showQuickJumper
          pageSizeOptions={Limits.pageSizes.map(String)}
          onChange={(pn, ps) => onChange(ps !== pageSize ? 1 : pn, ps)}
          showTitle={false}
        />
        <Button size="small" disabled={pageNum >= last} onClick={() => onChange(last, pageSize)}>
          {t('efile.pagination.last')}
        </Button>
      </Space>
    </div>
  );
});
