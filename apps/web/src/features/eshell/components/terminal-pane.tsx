import { useEffect, useRef, useState } from 'react';
import { Alert, Button, Space } from 'antd';
import { CloseOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { Terminal } from '@xterm/xterm';
import { FitAddon } from '@xterm/addon-fit';
import { SearchAddon } from '@xterm/addon-search';
import { WebLinksAddon } from '@xterm/addon-web-links';
import '@xterm/xterm/css/xterm.css';
import { isApiError } from '@hpc/api-client';
import {
  EFILE_OSC,
  type EfileShellRequest,
  type ShellEndReason,
  type ShellServerMessage,
} from '@hpc/contracts';
import { errorMessage } from '../../../shared/api/error-message';
import type { ThemeName } from '../../../shared/preferences/themes';
import type { EshellApi } from '../api/eshell.api';
import { EfileRequestGate } from '../lib/efile-requests';
import { endText, endTone } from '../lib/end-text';
import type { ShellTab } from '../lib/tabs-store';
import { TERMINAL_THEMES } from '../lib/terminal-theme';
import { EfileCommandHelp } from './efile-command-help';
import { EfileRequestPrompt } from './efile-request-prompt';

/** The service's close codes (apps/eshell/src/http/socket.ts). */
const CLOSE_ENDED = 4000;
const CLOSE_REPLACED = 4001;
const RECONNECT_TRIES = 8;

/** Characters per input message (at most 3 bytes each in UTF-8, in JSON: well under the service's 256 KiB). */
const INPUT_PIECE = 32 * 1024;

type Status =
  | { kind: 'connecting' | 'reconnecting' | 'replaced' }
  | { kind: 'ready'; node: string }
  | { kind: 'ended'; reason: ShellEndReason; code: number | null; message?: string }
  | { kind: 'failed'; message: string };

export interface TerminalHandle {
  findNext(text: string): void;
  focus(): void;
}

/**
 * One session's terminal (issue 26 §2): xterm.js with fit, web links and search; a one-time ticket opens the socket
 * (a new session, or the tab's running one, whose scroll-back the service replays); a dropped socket is attached again
 * with a fresh ticket; the size follows the pane. The shell's `efile` command (its OSC sequence, contracts'
 * `eshell-efile.ts`) becomes a prompt in the pane, through the tab's request gate.
 */
export function TerminalPane({
  tab,
  api,
  active,
  fontSize,
  theme,
  onSession,
  onClose,
  onHandle,
}: {
  tab: ShellTab;
  api: EshellApi;
  active: boolean;
  fontSize: number;
  theme: ThemeName;
  onSession: (sessionId: string) => void;
  /** Closes the tab and ends its session. */
  onClose: () => void;
  onHandle?: (h: TerminalHandle | null) => void;
}) {
  const { t } = useTranslation();
  const box = useRef<HTMLDivElement>(null);
  const termRef = useRef<Terminal | null>(null);
  const fitRef = useRef<FitAddon | null>(null);
  const [status, setStatus] = useState<Status>({ kind: 'connecting' });
  const [generation, setGeneration] = useState(0);
  const gate = useRef(new EfileRequestGate());
  const [request, setRequest] = useState<EfileShellRequest | null>(null);
  // The latest props the long-lived socket callbacks read.
  const latest = useRef({ tab, onSession });
  latest.current = { tab, onSession };

  useEffect(() => {
    const term = new Terminal({
      fontSize,
      theme: TERMINAL_THEMES[theme],
      cursorBlink: true,
      scrollback: 5000,
      fontFamily: 'Menlo, Consolas, "DejaVu Sans Mono", "Noto Sans Mono CJK SC", monospace',
      // At xterm's 1.0 a cell is the font's em box: DejaVu Sans Mono's underscore falls below it and was cut off,
      // so `x86_64` read as `x86 64` (found from outside, 2026-12-01).
      lineHeight: 1.15,
      allowProposedApi: true,
    });
    const fit = new FitAddon();
    const search = new SearchAddon();
    term.loadAddon(fit);
    term.loadAddon(search);
    // Links open in a new tab of the browser, never in this page, and only on the user's click.
    term.loadAddon(
      new WebLinksAddon((_e, uri) => {
        if (/^https?:\/\//i.test(uri)) window.open(uri, '_blank', 'noopener,noreferrer');
      }),
    );
    // Copy as a terminal user expects: Ctrl+C copies while text is selected (else it is the shell's interrupt), and
    // Ctrl+Shift+C / Ctrl+Shift+V always copy and paste; the browser's own paste (Ctrl+V, the mouse) works as is.
    term.attachCustomKeyEventHandler((e) => {
      if (e.type !== 'keydown' || !(e.ctrlKey || e.metaKey)) return true;
      const key = e.key.toLowerCase();
      if (key === 'c' && (e.shiftKey || term.hasSelection())) {
        if (term.hasSelection())
          void navigator.clipboard?.writeText(term.getSelection()).catch(() => undefined);
        return false;
      }
      if (key === 'v' && e.shiftKey) {
        void navigator.clipboard
          ?.readText()
          .then((text) => term.paste(text))
          .catch(() => undefined);
        return false;
      }
      return true;
    });
    // `efile open|get` in the shell: only a prompt, shown when the gate lets it through; none for the sequences of a
    // replayed scroll-back (old requests, answered or not, never ask again). Every sequence of this number is taken
    // (returns true), so none reaches another handler.
    let replayWrites = 0;
    const efileRequests = term.parser.registerOscHandler(EFILE_OSC, (data) => {
      if (replayWrites > 0) return true;
      const req = gate.current.offer(data);
      if (req) setRequest(req);
      return true;
    });
    term.open(box.current!);
    termRef.current = term;
    fitRef.current = fit;
    onHandle?.({ findNext: (text) => void search.findNext(text), focus: () => term.focus() });
    try {
      fit.fit();
    } catch {
      /* not laid out yet */
    }

    let ws: WebSocket | null = null;
    let disposed = false;
    let ended = false;
    let tries = 0;
    let retry: ReturnType<typeof setTimeout> | undefined;
    const send = (m: unknown) => {
      if (ws?.readyState === WebSocket.OPEN) ws.send(JSON.stringify(m));
    };

    const connect = async () => {
      const { tab: current } = latest.current;
      let ticket: { ticket: string; sessionId: string };
      try {
        ticket = await api.ticket(
          current.sessionId
            ? { sessionId: current.sessionId }
            : {
                node: current.node,
                ...(current.cwd ? { cwd: current.cwd } : {}),
                cols: term.cols,
                rows: term.rows,
              },
        );
      } catch (e) {
        if (disposed) return;
        const err = isApiError(e) ? e : null;
        if (err?.code === 'ESHELL_NO_SESSION') {
          ended = true;
          setStatus({ kind: 'ended', reason: 'detached', code: null });
        } else if (current.sessionId && (!err || err.status === 0)) {
          // No answer (a network drop): try again, the session waits for its detach time.
          scheduleRetry();
        } else setStatus({ kind: 'failed', message: errorMessage(e, t) ?? String(e) });
        return;
      }
      if (disposed) return;
      latest.current.onSession(ticket.sessionId);
      const socket = new WebSocket(api.socketUrl());
      ws = socket;
      socket.binaryType = 'arraybuffer';
      let replaying = true;
      socket.onopen = () => socket.send(JSON.stringify({ t: 'auth', ticket: ticket.ticket }));
      socket.onmessage = (ev: MessageEvent<ArrayBuffer | string>) => {
        if (typeof ev.data !== 'string') {
          if (replaying) {
            // The scroll-back of the session comes first (one frame, before `ready`): this terminal starts over with
            // it, and takes no `efile` request of it until the terminal has parsed it.
            replaying = false;
            term.reset();
            replayWrites += 1;
            term.write(new Uint8Array(ev.data), () => {
              replayWrites -= 1;
            });
            return;
          }
          term.write(new Uint8Array(ev.data));
          return;
        }
        const m = JSON.parse(ev.data) as ShellServerMessage;
        if (m.t === 'ready') {
          if (replaying && m.replayed === 0) term.reset();
          replaying = false;
          tries = 0;
          setStatus({ kind: 'ready', node: m.node });
          send({ t: 'resize', cols: term.cols, rows: term.rows });
        } else if (m.t === 'end') {
          ended = true;
          setStatus({ kind: 'ended', reason: m.reason, code: m.code, message: m.message });
          term.write(`\r\n\x1b[2m[${endText(t, m.reason, m.code)}]\x1b[0m\r\n`);
        }
      };
      socket.onclose = (ev) => {
        if (disposed || ended) return;
        if (ev.code === CLOSE_ENDED) return;
        if (ev.code === CLOSE_REPLACED) {
          setStatus({ kind: 'replaced' });
          return;
        }
        scheduleRetry();
      };
    };
    const scheduleRetry = () => {
      if (tries >= RECONNECT_TRIES) {
        setStatus({ kind: 'failed', message: t('eshell.status.reconnecting') });
        return;
      }
      tries += 1;
      setStatus({ kind: 'reconnecting' });
      retry = setTimeout(() => void connect(), Math.min(8000, 500 * 2 ** (tries - 1)));
    };

    // A big paste goes in pieces: the service takes messages of up to 256 KiB.
    const type = (d: string) => {
      for (let i = 0; i < d.length; i += INPUT_PIECE) send({ t: 'in', d: d.slice(i, i + INPUT_PIECE) });
    };
    const input = term.onData(type);
    const binary = term.onBinary(type);
    const resized = term.onResize(({ cols, rows }) => send({ t: 'resize', cols, rows }));
    const observer = new ResizeObserver(() => {
      try {
        fit.fit();
      } catch {
        /* hidden tab */
      }
    });
    observer.observe(box.current!);
    void connect();
    return () => {
      disposed = true;
      clearTimeout(retry);
      observer.disconnect();
      input.dispose();
      binary.dispose();
      resized.dispose();
      efileRequests.dispose();
      // The session stays: the service keeps it for its detach time (a reload, another page and back).
      ws?.close();
      onHandle?.(null);
      term.dispose();
      termRef.current = null;
    };
    // One terminal per tab and start; font and colours change in place below.
  }, [api, generation]);

  useEffect(() => {
    const term = termRef.current;
    if (!term) return;
    term.options.fontSize = fontSize;
    term.options.theme = TERMINAL_THEMES[theme];
    try {
      fitRef.current?.fit();
    } catch {
      /* hidden */
    }
  }, [fontSize, theme]);

  useEffect(() => {
    if (!active) return;
    try {
      fitRef.current?.fit();
    } catch {
      /* not laid out */
    }
    termRef.current?.focus();
  }, [active]);

  const restart = () => {
    latest.current.onSession('');
    setStatus({ kind: 'connecting' });
    setGeneration((g) => g + 1);
  };

  const notice = endNotice(status, t);
  return (
    <div className="hpc-eshell-pane">
      <div className="hpc-eshell-bar">
        <div
          className="hpc-eshell-status"
          role="status"
          data-testid="eshell-status"
          data-status={status.kind}
        >
          {status.kind === 'ready'
            ? t('eshell.status.ready', { node: status.node })
            : status.kind === 'ended'
              ? `${t('eshell.status.ended')}${t('common.colon')}${endText(t, status.reason, status.code)}`
              : status.kind === 'failed'
                ? t('eshell.status.failed', { message: status.message })
                : t(`eshell.status.${status.kind}`)}
          {tab.cwd && status.kind === 'ready' ? ` · ${t('eshell.fromFolder', { path: tab.cwd })}` : null}
        </div>
        <Space>
          <EfileCommandHelp />
          <Button size="small" icon={<CloseOutlined />} onClick={onClose} data-testid="eshell-close">
            {t('eshell.closeSession')}
          </Button>
        </Space>
      </div>
      {notice ? (
        <Alert
          type={notice.type}
          showIcon
          title={notice.title}
          action={
            <Button size="small" onClick={restart} data-testid="eshell-restart">
              {t('eshell.restart')}
            </Button>
          }
        />
      ) : null}
      {request ? (
        <EfileRequestPrompt
          key={`${request.verb} ${request.path}`}
          request={request}
          clusterId={tab.clusterId}
          onDone={() => {
            gate.current.settle();
            setRequest(null);
            termRef.current?.focus();
          }}
        />
      ) : null}
      <div className="hpc-eshell-terminal" ref={box} data-testid="eshell-terminal" />
    </div>
  );
}

/**
 * The notice under the bar once a session is over: an error where the pane could not get or keep a session, the
 * end's own tone and words (end-text.ts) where it ended, information where another window opened it; none while it
 * runs or connects.
 */
function endNotice(
  status: Status,
  t: TFunction,
): { type: 'info' | 'warning' | 'error'; title: string } | null {
  switch (status.kind) {
    case 'failed':
      return { type: 'error', title: t('eshell.status.failed', { message: status.message }) };
    case 'ended':
      return { type: endTone(status.reason, status.code), title: endText(t, status.reason, status.code) };
    case 'replaced':
      return { type: 'info', title: t('eshell.status.replaced') };
    case 'connecting':
    case 'reconnecting':
    case 'ready':
      return null;
  }
}
