import { useState } from 'react';
import { App, Button, Checkbox, List, Modal, Space } from 'antd';
import { ArrowDownOutlined, ArrowUpOutlined, EditOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { identity } from '../../../shared/api/client';
import { notifyError } from '../../../shared/api/notify';
import { ENTRIES, ENTRY_IDS, entriesOf, moveEntry, type EntryId } from '../lib/entries';
import { Widget } from './widget';

export const preferencesKey = ['dashboard', 'preferences'] as const;

/** Quick entries to the portal's features, chosen and ordered by the user, kept in the user's preferences. */
export function QuickEntries() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const qc = useQueryClient();
  const prefs = useQuery({
    queryKey: preferencesKey,
    queryFn: ({ signal }) => identity.user.preferences({ signal }),
  });
  const entries = entriesOf(prefs.data?.dashboardEntries);
  const [editing, setEditing] = useState<{ order: EntryId[]; shown: Set<EntryId> } | null>(null);
  const save = useMutation({
    mutationFn: (list: EntryId[]) => identity.user.savePreferences({ dashboardEntries: list }),
    onSuccess: (p) => {
      qc.setQueryData(preferencesKey, p);
      setEditing(null);
      void message.success(t('dashboard.entries.saved'));
    },
    onError: notifyError,
  });
  const open = () =>
    setEditing({
      order: [...entries, ...ENTRY_IDS.filter((id) => !entries.includes(id))],
      shown: new Set(entries),
    });
  const label = (id: EntryId) => t(`dashboard.entries.items.${id}`);
  return (
    <Widget
      testId="dash-entries"
      title={t('dashboard.entries.title')}
      extra={
        <Button
          type="text"
          icon={<EditOutlined />}
          onClick={open}
          aria-label={t('dashboard.entries.edit')}
          data-testid="dash-entries-edit"
        />
      }
    >
      {entries.length === 0 ? (
        <span className="hpc-dash-muted">{t('dashboard.entries.empty')}</span>
      ) : (
        <nav className="hpc-dash-entries" aria-label={t('dashboard.entries.title')}>
          {entries.map((id) => (
            <Link key={id} to={ENTRIES[id]} className="hpc-dash-entry" data-testid={`dash-entry-${id}`}>
              {label(id)}
            </Link>
          ))}
        </nav>
      )}
      <Modal
        open={editing !== null}
        title={t('dashboard.entries.edit')}
        okText={t('dashboard.entries.save')}
        cancelText={t('dashboard.entries.cancel')}
        confirmLoading={save.isPending}
        onCancel={() => setEditing(null)}
        onOk={() => editing && save.mutate(editing.order.filter((id) => editing.shown.has(id)))}
      >
        <p>{t('dashboard.entries.editHint')}</p>
        {editing ? (
          <List
            size="small"
            dataSource={editing.order}
            renderItem={(id, i) => (
              <List.Item
                actions={[
                  <Button
                    key="up"
                    size="small"
                    icon={<ArrowUpOutlined />}
                    aria-label={t('dashboard.entries.up', { name: label(id) })}
                    disabled={i === 0}
                    onClick={() => setEditing({ ...editing, order: moveEntry(editing.order, i, -1) })}
                  />,
                  <Button
                    key="down"
                    size="small"
                    icon={<ArrowDownOutlined />}
                    aria-label={t('dashboard.entries.down', { name: label(id) })}
                    disabled={i === editing.order.length - 1}
                    onClick={() => setEditing({ ...editing, order: moveEntry(editing.order, i, 1) })}
                  />,
                ]}
              >
                <Space>
                  <Checkbox
                    checked={editing.shown.has(id)}
                    data-testid={`dash-entry-check-${id}`}
                    onChange={(e) => {
                      const shown = new Set(editing.shown);
                      if (e.target.checked) shown.add(id);
                      else shown.delete(id);
                      setEditing({ ...editing, shown });
                    }}
                  >
                    {label(id)}
                  </Checkbox>
                </Space>
              </List.Item>
            )}
          />
        ) : null}
      </Modal>
    </Widget>
  );
}
