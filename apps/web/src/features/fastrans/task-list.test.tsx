// @vitest-environment jsdom
import '../../antd-jsdom.test-fixture';
import { render, screen } from '@testing-library/react';
import { App } from 'antd';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { FastransTaskState as S } from '@hpc/contracts';
import i18n, { initI18n, loadLanguage } from '../../shared/i18n/i18n';
import type { FastransTask } from './fastrans-client';

vi.mock('./relay-note', () => ({ RelayNote: () => null }));

import { FastransTaskList } from './task-list';

const task = (over: Partial<FastransTask>): FastransTask => ({
  task_id: 't1',
  kind: 'download',
  state: S.started,
  files: 500,
  count: 120,
  failed: 0,
  bytesDone: 1024,
  bytesTotal: 4096,
  speed: 0,
  eta: null,
  local: '/home/u/Downloads',
  remote: '/public/home/u/results',
  error: null,
  createdAt: 0,
  updatedAt: 0,
  ...over,
});

function list(t: FastransTask) {
  render(
    <App>
      <FastransTaskList
        tasks={[t]}
        via="direct"
        onClose={vi.fn()}
        onControl={vi.fn()}
        onOpenRemote={vi.fn()}
      />
    </App>,
  );
}

describe('the task list', () => {
  beforeAll(async () => {
    await initI18n();
    await loadLanguage('en-US');
  });
  it.each([
    ['zh-CN', '120 / 500+ 个文件，仍在列出', '120 / 500 个文件'],
    ['en-US', '120 / 500+ files, still listing', '120 / 500 files'],
  ])(
    '%s: a task whose files are still being listed says so, and a whole list does not',
    async (lang, growing, whole) => {
      await i18n.changeLanguage(lang);
      list(task({ listing: true }));
      expect(screen.getByText(growing, { exact: false })).toBeTruthy();
      document.body.innerHTML = '';
      list(task({}));
      expect(screen.getByText(whole, { exact: false })).toBeTruthy();
      expect(screen.queryByText(/\+/)).toBeNull();
    },
  );
});
