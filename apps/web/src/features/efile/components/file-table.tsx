import { memo, useCallback, useMemo, useRef } from 'react';
import { Table, type TableColumnsType, type TableProps } from 'antd';
import {
  FileOutlined,
  FileImageOutlined,
  FileTextOutlined,
  FolderFilled,
  LinkOutlined,
} from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { PREVIEWABLE_IMAGE_EXTENSIONS, type FileEntry } from '@hpc/contracts';
import type { SortKey } from '@hpc/api-client';
import type { ColumnKey } from '../hooks/use-columns';
import { rangeOf } from '../hooks/use-selection';
import { formatSize, formatSizeExact } from '../../../shared/utils/format-size';
import { isTextLike } from '../lib/file-kinds';
import { EntryThumbnail, THUMBNAIL_MAX_BYTES } from './entry-thumbnail';

interface Props {
  rows: FileEntry[];
  loading: boolean;
  columns: ColumnKey[];
  sort: SortKey;
  order: 'asc' | 'desc';
  selected: string[];
  onSelect: (paths: string[]) => void;
  onSort: (sort: SortKey, order: 'asc' | 'desc') => void;
  onOpen: (entry: FileEntry) => void;
  onContextMenu: (entry: FileEntry, x: number, y: number) => void;
  /** An image's URL for its thumbnail (none: icons only). */
  thumbnailUrl?: (path: string) => Promise<string>;
  /** The search the rows answer, if any: no rows then means no match, not an empty folder. */
  keyword?: string;
}

const SORT_DIRECTIONS: TableProps<FileEntry>['sortDirections'] = ['ascend', 'descend'];

function EntryIcon({ entry, thumbnailUrl }: { entry: FileEntry; thumbnailUrl?: Props['thumbnailUrl'] }) {
  if (entry.isDirectory) return <FolderFilled className="efile-icon efile-icon-dir" />;
  if (entry.isLink) return <LinkOutlined className="efile-icon" />;
  if ((PREVIEWABLE_IMAGE_EXTENSIONS as readonly string[]).includes(entry.ext.toLowerCase())) {
    const icon = <FileImageOutlined className="efile-icon" />;
    return thumbnailUrl && entry.size > 0 && entry.size <= THUMBNAIL_MAX_BYTES ? (
      <EntryThumbnail path={entry.path} urlOf={thumbnailUrl} fallback={icon} />
    ) : (
      icon
    );
  }
  if (isTextLike(entry.ext)) return <FileTextOutlined className="efile-icon" />;
  return <FileOutlined className="efile-icon" />;
}

/** The name links of the table's rows, in order: each row's one stop for the arrow keys. */
const rowLinks = (table: HTMLElement) => [
  ...table.querySelectorAll<HTMLElement>('tr.ant-table-row .efile-name'),
];

/**
 * The listing: only the page's rows are rendered; sorting is the server's (a click asks for the page again),
 * selection is by path. As on a desktop: a click selects a row, Ctrl/⌘-click adds or removes one, Shift-click selects
 * the range from the last clicked row; double-click or Enter opens; ArrowDown from a column header enters the rows,
 * ArrowUp/ArrowDown move between them selecting as they go (with Shift, the range). Right-click opens the context
 * menu. Memoized with its columns and row handlers: it renders when its rows, selection, columns or sort change, not
 * on each render of the page.
 */
export const FileTable = memo(function FileTable(p: Props) {
  const { t, i18n } = useTranslation();
  const { onOpen, onSort, onSelect, onContextMenu, selected } = p;
  const dateFmt = useMemo(
    () => new Intl.DateTimeFormat(i18n.language, { dateStyle: 'short', timeStyle: 'short' }),
    [i18n.language],
  );
  const columns = useMemo(() => {
    const sortOrder = (key: SortKey) => (p.sort === key ? (p.order === 'asc' ? 'ascend' : 'descend') : null);
    const all: Record<ColumnKey, TableColumnsType<FileEntry>[number]> = {
      name: {
        key: 'name',
        title: t('efile.columns.name'),
        sorter: true,
        sortOrder: sortOrder('name'),
        ellipsis: true,
        render: (_, e) => (
          <a
            className="efile-name"
            data-testid="efile-name"
            // No href (opening is an action, not an address): focusable and opened with Enter like a link.
            role="button"
            tabIndex={0}
            onClick={(ev) => {
              ev.stopPropagation();
              onOpen(e);
            }}
            onKeyDown={(ev) => {
              if (ev.key !== 'Enter') return;
              // This entry, not the selection the list's own Enter key opens.
              ev.preventDefault();
              ev.stopPropagation();
              onOpen(e);
            }}
          >
            <EntryIcon entry={e} thumbnailUrl={p.thumbnailUrl} />
            {e.name}
          </a>
        ),
      },
      owner: {
        key: 'owner',
        title: t('efile.columns.owner'),
        dataIndex: 'owner',
        sorter: true,
        sortOrder: sortOrder('owner'),
        width: 110,
      },
      type: {
        key: 'type',
        title: t('efile.columns.type'),
        sorter: true,
        sortOrder: sortOrder('type'),
        width: 120,
        render: (_, e) =>
          e.isDirectory ? t('efile.kind.folder') : e.ext ? e.ext.toUpperCase() : t('efile.kind.file'),
      },
      size: {
        key: 'size',
        title: t('efile.columns.size'),
        sorter: true,
        sortOrder: sortOrder('size'),
        width: 110,
        align: 'right',
        // The list's short size; its exact size (spec §9's second formatter, with the bytes) on hover.
        render: (_, e) =>
          e.isDirectory ? (
            '-'
          ) : (
            <span
              title={
                formatSizeExact(e.size) +
                t('common.parenthesized', { text: `${e.size.toLocaleString(i18n.language)} B` })
              }
            >
              {formatSize(e.size)}
            </span>
          ),
      },
      permission: {
        key: 'permission',
        title: t('efile.columns.permission'),
        dataIndex: 'permission',
        sorter: true,
        sortOrder: sortOrder('permission'),
        width: 130,
        className: 'efile-mono',
      },
      mtime: {
        key: 'mtime',
        title: t('efile.columns.mtime'),
        sorter: true,
        sortOrder: sortOrder('mtime'),
        width: 170,
        render: (_, e) => dateFmt.format(e.mtime),
      },
    };
    return p.columns.map((c) => all[c]);
  }, [p.columns, p.sort, p.order, p.thumbnailUrl, t, i18n.language, dateFmt, onOpen]);

  const onChange = useCallback<NonNullable<TableProps<FileEntry>['onChange']>>(
    (_pg, _f, sorter, extra) => {
      if (extra.action !== 'sort') return;
      const s = Array.isArray(sorter) ? sorter[0] : sorter;
      // A click on the column sorted descending cancels the sort, and antd then names no column: back to the
      // default order (this used to be ignored, leaving the column stuck descending).
      if (!s?.order || !s.columnKey) onSort('name', 'asc');
      else onSort(s.columnKey as SortKey, s.order === 'descend' ? 'desc' : 'asc');
    },
    [onSort],
  );
  const rowSelection = useMemo<TableProps<FileEntry>['rowSelection']>(
    () => ({ selectedRowKeys: selected, onChange: (keys) => onSelect(keys as string[]), columnWidth: 36 }),
    [selected, onSelect],
  );
  const rowClassName = useCallback(
    (e: FileEntry) => (selected.includes(e.path) ? 'efile-row-selected' : ''),
    [selected],
  );
  // Where a Shift-click or Shift+arrow range starts: the row last clicked or moved to without Shift.
  const anchor = useRef<string | null>(null);
  const rows = p.rows;
  const onRow = useCallback(
    (e: FileEntry): React.HTMLAttributes<HTMLElement> => ({
      // Shift-click selects, it does not select the text between the two rows.
      onMouseDown: (ev) => ev.shiftKey && ev.preventDefault(),
      onClick: (ev) => {
        if (ev.shiftKey) {
          const range = rangeOf(rows, anchor.current, e.path);
          onSelect(ev.ctrlKey || ev.metaKey ? [...new Set([...selected, ...range])] : range);
          return;
        }
        anchor.current = e.path;
        if (ev.ctrlKey || ev.metaKey) {
          onSelect(selected.includes(e.path) ? selected.filter((x) => x !== e.path) : [...selected, e.path]);
        } else onSelect([e.path]);
      },
      onDoubleClick: () => onOpen(e),
      onContextMenu: (ev) => {
        ev.preventDefault();
        if (!selected.includes(e.path)) onSelect([e.path]);
        onContextMenu(e, ev.clientX, ev.clientY);
      },
    }),
    [rows, selected, onSelect, onOpen, onContextMenu],
  );
  // The arrow keys: from a column header into the rows, and from row to row.
  const onKeyDown = useCallback(
    (ev: React.KeyboardEvent<HTMLDivElement>) => {
      if (ev.key !== 'ArrowDown' && ev.key !== 'ArrowUp') return;
      const target = ev.target as HTMLElement;
      const links = rowLinks(ev.currentTarget);
      const inHeader = target.closest('thead') !== null;
      const row = target.closest('tr.ant-table-row');
      const at = row ? links.findIndex((l) => row.contains(l)) : -1;
      let next: number;
      if (inHeader) next = ev.key === 'ArrowDown' ? 0 : -1;
      else if (at >= 0) next = at + (ev.key === 'ArrowDown' ? 1 : -1);
      else return;
      ev.preventDefault();
      if (next < 0 && at === 0) {
        ev.currentTarget.querySelector<HTMLElement>('thead th[tabindex]')?.focus();
        return;
      }
      const link = links[next];
      const entry = rows[next];
      if (!link || !entry) return;
      link.focus();
      if (ev.shiftKey) onSelect(rangeOf(rows, anchor.current ?? rows[at]?.path ?? null, entry.path));
      else {
        anchor.current = entry.path;
        onSelect([entry.path]);
      }
    },
    [rows, onSelect],
  );
  const searching = Boolean(p.keyword?.trim());
  const locale = useMemo(
    () => ({ emptyText: searching ? t('efile.noMatch', { keyword: p.keyword }) : t('efile.empty') }),
    [t, searching, p.keyword],
  );

  return (
    // Key presses bubble here from the header's cells and the rows' controls: the arrow keys between them.
    <div onKeyDown={onKeyDown} className="efile-table-keys">
      <Table<FileEntry>
        className="efile-table"
        data-testid="efile-table"
        size="small"
        rowKey="path"
        dataSource={p.rows}
        columns={columns}
        loading={p.loading}
        pagination={false}
        sortDirections={SORT_DIRECTIONS}
        showSorterTooltip={false}
        onChange={onChange}
        locale={locale}
        rowSelection={rowSelection}
        rowClassName={rowClassName}
        onRow={onRow}
      />
    </div>
  );
});
