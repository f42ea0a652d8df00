import { useCallback, useEffect, useRef, useState } from 'react';
import { App, Badge, Button, Space, Tooltip } from 'antd';
import { CloudDownloadOutlined, CloudUploadOutlined, ThunderboltOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { FastransTaskState as S, type FileEntry } from '@hpc/contracts';
import { isApiError } from '@hpc/api-client';
import { notifyError } from '../../shared/api/notify';
import {
  FastransError,
  FASTRANS_PACKAGE_URL,
  fastransClient,
  refusalKey,
  type LocalEntry,
} from './fastrans-client';
import { fastransApi } from './fastrans.api';
import { setFastransOfferHandler, type FastransOffer } from './fastrans-offer';
import { FastransPrompt, type PromptKind } from './fastrans-prompt';
import { LocalPicker } from './local-picker';
import { FastransTaskList } from './task-list';
import { refusalText } from './refusal-text';
import { useFastrans } from './use-fastrans';

interface Props {
  clusterId: string | null;
  /** The folder in view. */
  dir: string | null;
  /** The user's home on this cluster: fast transfer works only inside it (spec §5). */
  homePath: string | null;
  selected: FileEntry[];
  refresh: () => void;
  goTo: (path: string) => void;
  disabled: boolean;
}

const inside = (p: string, root: string) =>
  p === root || p.startsWith(root.endsWith('/') ? root : `${root}/`);

const ACTIVE: number[] = [
  S.todo,
  S.connectingProxy,
  S.waitLoginInfo,
  S.ready,
  S.recover,
  S.started,
  S.stopping,
];

type Picking = { mode: 'pick' } | { mode: 'folder'; src: string[] };

/**
 * Fast upload, fast download and the task list in E-File's toolbar (issue 11 §3). Each starts from a click: the
 * client is detected then (Chrome's local-network prompt needs a user's action), the home and write-permission
 * rules are checked, the local file browser picks the local side, and the task list follows the transfer.
 */
export function FastransBar({ clusterId, dir, homePath, selected, refresh, goTo, disabled }: Props) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const snap = useFastrans();
  const [prompt, setPrompt] = useState<PromptKind | null>(null);
  const [updateUrl, setUpdateUrl] = useState(FASTRANS_PACKAGE_URL);
  const [picking, setPicking] = useState<Picking | null>(null);
  const [listOpen, setListOpen] = useState(false);
  /** What to do once the user chose "continue" in the update prompt. */
  const afterPrompt = useRef<(() => void) | null>(null);

  const fail = useCallback(
    (e: unknown) => {
      const key = refusalKey(e);
      if (key === 'fastrans.prompt.oldTitle') {
        setPrompt('tooOld');
        return;
      }
      if (key) void message.warning(t(key));
      else if (e instanceof FastransError)
        void message.error(t('fastrans.failed', { code: e.code, msg: refusalText(e, t) }));
      else if (isApiError(e)) notifyError(e);
      else void message.error(t('fastrans.failed', { code: '', msg: (e as Error).message }));
    },
    [message, t],
  );

  // When a task into the folder in view succeeds, the folder is listed again (spec §4).
  const where = useRef({ dir, refresh });
  where.current = { dir, refresh };
  useEffect(
    () =>
      fastransClient.onTaskSuccess((task) => {
        if (task.kind === 'upload' && task.remote === where.current.dir) where.current.refresh();
      }),
    [],
  );

  /** Detects the client; shows the prompt unless it is connected and recent enough. */
  const ready = useCallback(async (then: () => void): Promise<void> => {
    const status = await fastransClient.detect();
    if (status === 'connected') return then();
    afterPrompt.current = then;
    if (status === 'tooOld') setUpdateUrl(await fastransClient.updateUrl());
    setPrompt(status === 'tooOld' || status === 'blocked' || status === 'unverified' ? status : 'notRunning');
  }, []);

  /** spec §5/§6: inside the home, and write permission on the target folder. */
  const allowed = useCallback(
    async (target: string, write: boolean): Promise<boolean> => {
      if (!clusterId || !homePath || !inside(target, homePath)) {
        void message.warning(t('fastrans.warn.outsideHome'));
        return false;
      }
      if (write) {
        const { allowded } = await fastransApi.canWrite(target, clusterId);
        if (!allowded) {
          void message.warning(t('fastrans.warn.noWrite'));
          return false;
        }
      }
      return true;
    },
    [clusterId, homePath, message, t],
  );

  const fastUpload = useCallback(async () => {
    if (!dir) return;
    try {
      if (!(await allowed(dir, true))) return;
      await ready(() => setPicking({ mode: 'pick' }));
    } catch (e) {
      fail(e);
    }
  }, [dir, allowed, ready, fail]);

  const fastDownload = useCallback(
    async (paths?: string[]) => {
      const src = paths ?? selected.map((e) => e.path);
      if (!dir) return;
      if (src.length === 0) {
        void message.warning(t('fastrans.warn.selectFirst'));
        return;
      }
      try {
        if (!(await allowed(dir, false))) return;
        await ready(() => setPicking({ mode: 'folder', src }));
      } catch (e) {
        fail(e);
      }
    },
    [dir, selected, allowed, ready, fail, message, t],
  );

  const openList = useCallback(async () => {
    setListOpen(true);
    try {
      const status = await fastransClient.detect();
      if (status === 'connected' || status === 'tooOld') await fastransClient.refreshTasks();
    } catch (e) {
      fail(e);
    }
  }, [fail]);

  // The refusals of folders over 1,000 files offer fast transfer (spec §5).
  useEffect(() => {
    const offer = (o: FastransOffer) => {
      modal.confirm({
        title: t('fastrans.offer.title'),
        content:
          o.kind === 'upload' ? t('fastrans.offer.upload', { name: o.name }) : t('fastrans.offer.download'),
        okText: o.kind === 'upload' ? t('fastrans.offer.fastUpload') : t('fastrans.offer.fastDownload'),
        cancelText: t('fastrans.offer.cancel'),
        onOk: () => void (o.kind === 'upload' ? fastUpload() : fastDownload(o.paths)),
      });
    };
    setFastransOfferHandler(offer);
    return () => setFastransOfferHandler(null);
  }, [modal, t, fastUpload, fastDownload]);

  const onPick = async (picked: LocalEntry[], folder: string) => {
    const p = picking;
    setPicking(null);
    if (!p || !clusterId || !dir) return;
    try {
      if (p.mode === 'pick') await fastransClient.upload(clusterId, dir, picked);
      else await fastransClient.download(clusterId, dir, p.src, folder);
      void message.success(t(p.mode === 'pick' ? 'fastrans.started.upload' : 'fastrans.started.download'));
      setListOpen(true);
    } catch (e) {
      fail(e);
    }
  };

  const active = snap.tasks.filter((x) => ACTIVE.includes(x.state)).length;
  // One compact group, the task list as an icon with its tooltip: the toolbar's second row then holds E-File's
  // actions and fast transfer on one line at 1440 px in both languages (with a label it wrapped in English).
  return (
    <>
      <Space.Compact className="fastrans-bar">
        <Button
          icon={<CloudUploadOutlined />}
          disabled={disabled}
          onClick={() => void fastUpload()}
          data-testid="fastrans-upload"
        >
          {t('fastrans.upload')}
        </Button>
        <Button
          icon={<CloudDownloadOutlined />}
          disabled={disabled}
          onClick={() => void fastDownload()}
          data-testid="fastrans-download"
        >
          {t('fastrans.download')}
        </Button>
        <Tooltip title={t('fastrans.tasks.button')}>
          <Badge count={active} size="small">
            <Button
              icon={<ThunderboltOutlined />}
              aria-label={t('fastrans.tasks.button')}
              onClick={() => void openList()}
              data-testid="fastrans-tasks-button"
            />
          </Badge>
        </Tooltip>
      </Space.Compact>
      {prompt && (
        <FastransPrompt
          kind={prompt}
          version={snap.version}
          permission={snap.permission}
          foreignPort={snap.foreignPort}
          updateUrl={updateUrl}
          onClose={() => setPrompt(null)}
          onRetry={() => {
            setPrompt(null);
            const then = afterPrompt.current;
            if (then) void ready(then).catch(fail);
          }}
          onContinue={() => {
            setPrompt(null);
            fastransClient.acceptOldVersion();
            afterPrompt.current?.();
          }}
        />
      )}
      {picking && dir && (
        <LocalPicker
          mode={picking.mode}
          remote={picking.mode === 'pick' ? dir : picking.src.join(', ')}
          onCancel={() => setPicking(null)}
          onPick={(p, f) => void onPick(p, f)}
          onError={fail}
        />
      )}
      {listOpen && (
        <FastransTaskList
          tasks={snap.tasks}
          via={snap.via}
          onClose={() => setListOpen(false)}
          onControl={(id, c) => void fastransClient.control(id, c).catch(fail)}
          onOpenRemote={(d) => {
            setListOpen(false);
            goTo(d);
          }}
        />
      )}
    </>
  );
}
