import { execFileSync, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUsers, idOf, makeHome, openPathTo, removeUsers } from '../../../test-support/unix-users';
import { prepareLogin } from './ssh/ssh-login';
import { eshellHarness, makeKey, sshdMissing, startSshd, tmpDir, type Terminal } from './eshell.test-fixture';

/**
 * The shell service against Debian's real sshd (issue 26 §3), with users of its own: `eshta1` plays demo, `eshtb1`
 * plays lisi. Skipped loudly without root or without openssh-server.
 */
const missing = sshdMissing();
if (missing) console.warn(`SKIPPED the shell service's tests on a real sshd: ${missing}`);

const A = 'eshta1';
const B = 'eshtb1';

describe.skipIf(missing !== null)('the shell service over a real sshd', () => {
  let dir: string;
  let sshd: Awaited<ReturnType<typeof startSshd>>;
  let h: Awaited<ReturnType<typeof eshellHarness>>;
  let caKey: string;
  const homes: Record<string, string> = {};
  const open: Terminal[] = [];

  beforeAll(async () => {
    dir = tmpDir('eshell-test-');
    fs.chmodSync(dir, 0o711);
    for (const u of [A, B]) homes[u] = path.join(dir, 'home', u);
    createUsers([A, B], { [A]: ['-d', homes[A]!], [B]: ['-d', homes[B]!] });
    for (const u of [A, B]) makeHome(homes[u]!, u);
    openPathTo(path.join(dir, 'home'));
    caKey = path.join(dir, 'ca');
    const caPub = makeKey(caKey);
    sshd = await startSshd(dir, caPub);
    h = await eshellHarness({
      dir,
      caKey,
      nodes: [
        { address: `127.0.0.1:${sshd.port}`, hostKey: sshd.hostKey },
        // The same sshd under another name, pinned to a key it does not have.
        { address: `localhost:${sshd.port}`, hostKey: makeKey(path.join(dir, 'other_host')) },
      ],
      homes,
      env: { ESHELL_DETACH_S: '1', ESHELL_MAX_SESSIONS_PER_USER: '3' },
    });
  }, 30_000);

  afterAll(async () => {
    for (const t of open) t.close();
    await h?.close();
    await sshd?.stop();
    removeUsers([A, B]);
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  /** A new session of `user` on the first node, ready for input. */
  const shell = async (user: string, body: Record<string, unknown> = {}, tok?: string) => {
    const token = tok ?? (await h.token(user));
    const t = await h.ticket(token, body);
    expect(t.code).toBe('0');
    const term = h.connect();
    open.push(term);
    await term.auth(t.data.ticket);
    await term.ready();
    return { term, sessionId: t.data.sessionId, token };
  };
  /** Runs a command line and returns what it printed between two markers. */
  const run = async (term: Terminal, line: string) => {
    const mark = `M${Math.random().toString(36).slice(2, 8)}`;
    term.type(`echo ${mark}B; ${line}; echo ${mark}E\n`);
    const re = new RegExp(`${mark}B\\r?\\n([\\s\\S]*?)${mark}E`);
    return term.waitFor(`output of ${line}`, () => re.exec(term.output)?.[1]?.trim());
  };

  it("runs demo's shell as demo (uid, groups), in demo's home", async () => {
    const { term } = await shell(A);
    const out = await run(term, 'id -u; id -G; pwd; echo "$LANG"');
    const [uid, groups, cwd, lang] = out.split(/\r?\n/).map((s) => s.trim());
    expect(lang).toBe('C.UTF-8');
    expect(Number(uid)).toBe(idOf(A));
    expect(groups).toBe(execFileSync('id', ['-G', A]).toString().trim());
    expect(cwd).toBe(homes[A]);
    // Nothing was written into the home (no authorized_keys, no .ssh).
    expect(fs.existsSync(path.join(homes[A]!, '.ssh'))).toBe(false);
    // The per-connection keys were gone once the handshake was made.
    expect(fs.readdirSync(h.deps.config.runDir)).toEqual([]);
    term.close();
  });

  it('logs start and end (user, cluster, node, address, duration), never what was typed or printed', async () => {
    const { term, sessionId } = await shell(A);
    await run(term, 'echo s3cr3t-$((1+1))');
    term.close();
    await h.call(await h.token(A), 'POST', '/sothisai/api/eshell/action/close', { sessionId });
    await term.waitFor('the end line', () =>
      h.logs.lines.find((l) => l.event === 'eshell.end' && l.session === sessionId),
    );
    const start = h.logs.lines.find((l) => l.event === 'eshell.start' && l.session === sessionId);
    const end = h.logs.lines.find((l) => l.event === 'eshell.end' && l.session === sessionId);
    expect(start).toMatchObject({
      user: '100',
      cun: A,
      cluster: 'et1',
      node: `127.0.0.1:${sshd.port}`,
      address: `127.0.0.1:${sshd.port}`,
    });
    expect(end).toMatchObject({ cun: A, reason: 'closed' });
    expect(end!.durationMs).toBeGreaterThan(0);
    expect(h.logs.raw).not.toMatch(/s3cr3t/);
    // Nor any token or ticket.
    expect(h.logs.raw).not.toContain(await h.token(A));
  });

  it('takes a paste far larger than the shell reads at once, whole and in order, and answers meanwhile', async () => {
    // Into a shell that reads nothing until a file appears: its terminal, sshd's channel window (2 MiB) and ours
    // fill up. The service goes on answering meanwhile (the call below comes back before the file is there;
    // pty-input.ts says how node-pty's own write spun), and the paste arrives whole and in order once it reads.
    const { term, token } = await shell(A);
    const out = path.join(homes[A]!, 'pasted');
    const go = path.join(homes[A]!, 'go');
    const size = 6 * 1024 * 1024;
    term.type(
      `stty raw -echo; echo RAW-$((1+1)); while [ ! -e ${go} ]; do sleep 0.05; done; ` +
        `head -c ${size} > ${out}; stty sane; echo PASTED-$((2+2))\n`,
    );
    await term.waitFor('the raw terminal', () => term.output.includes('RAW-2'));
    spawn('sh', ['-c', `sleep 8; touch ${go}`], { stdio: 'ignore' }).unref();
    const sent = Buffer.alloc(size);
    for (let i = 0; i < size; i++) sent[i] = 97 + ((i * 7 + (i >> 12)) % 26);
    for (let at = 0; at < size; at += 200_000) term.type(sent.subarray(at, at + 200_000).toString('latin1'));
    const listed = await h.call<{ sessions: unknown[] }>(
      token,
      'GET',
      '/sothisai/api/eshell/action/sessions',
    );
    expect(listed.code).toBe('0');
    expect(fs.existsSync(go)).toBe(false);
    await term.waitFor('the end of the paste', () => term.output.includes('PASTED-4'), 60_000);
    expect(fs.readFileSync(out).equals(sent)).toBe(true);
    term.close();
  }, 90_000);

  it('starts in the folder asked for (E-File\'s "open a shell here")', async () => {
    const sub = path.join(homes[A]!, "my 'data'");
    fs.mkdirSync(sub);
    fs.chownSync(sub, idOf(A), idOf(A));
    const { term } = await shell(A, { cwd: sub });
    expect(await run(term, 'pwd')).toBe(sub);
    term.close();
  });

  it("a token of demo never opens or reaches a shell of lisi's", async () => {
    const b = await shell(B);
    expect(Number(await run(b.term, 'id -u'))).toBe(idOf(B));
    const aToken = await h.token(A);
    // demo cannot attach to lisi's session, nor list or close it.
    expect((await h.ticket(aToken, { sessionId: b.sessionId })).code).toBe('ESHELL_NO_SESSION');
    const listed = await h.call<{ sessions: unknown[] }>(
      aToken,
      'GET',
      '/sothisai/api/eshell/action/sessions',
    );
    expect(JSON.stringify(listed.data.sessions)).not.toContain(b.sessionId);
    const closed = await h.call(aToken, 'POST', '/sothisai/api/eshell/action/close', {
      sessionId: b.sessionId,
    });
    expect(closed.code).toBe('ESHELL_NO_SESSION');
    // A ticket has no user field: the shell is always the token's compute user's.
    const sneaky = await h.ticket(aToken, { user: B, cun: B });
    if (sneaky.code === '0') {
      const term = h.connect();
      open.push(term);
      await term.auth(sneaky.data.ticket);
      await term.ready();
      expect(Number(await run(term, 'id -u'))).toBe(idOf(A));
      term.close();
    } else expect(sneaky.code).toMatch(/^100[34]$/);
    b.term.close();
  });

  /** ssh straight to the test sshd with a key signed by the test CA: what sshd itself refuses. */
  const sshWith = (principal: string, login: string, validity: string) => {
    const kdir = tmpDir('eshell-key-');
    const key = path.join(kdir, 'id');
    makeKey(key);
    execFileSync('ssh-keygen', ['-q', '-s', caKey, '-I', 't', '-n', principal, '-V', validity, `${key}.pub`]);
    fs.writeFileSync(path.join(kdir, 'kh'), `[127.0.0.1]:${sshd.port} ${sshd.hostKey}\n`);
    const r = spawnSync(
      'ssh',
      [
        '-F',
        '/dev/null',
        '-i',
        key,
        '-o',
        'IdentitiesOnly=yes',
        '-o',
        'BatchMode=yes',
        '-o',
        'StrictHostKeyChecking=yes',
        '-o',
        `UserKnownHostsFile=${path.join(kdir, 'kh')}`,
        '-p',
        String(sshd.port),
        '-l',
        login,
        '127.0.0.1',
        'id -u',
      ],
      { encoding: 'utf8', timeout: 10_000 },
    );
    fs.rmSync(kdir, { recursive: true, force: true });
    return r;
  };

  it("sshd accepts the CA's certificate for the user, refuses one whose principal is not the user", () => {
    const good = sshWith(A, A, '-1m:+5m');
    expect(good.status).toBe(0);
    expect(Number(good.stdout.trim())).toBe(idOf(A));
    const wrong = sshWith(A, B, '-1m:+5m');
    expect(wrong.status).toBe(255);
    expect(wrong.stderr).toMatch(/Permission denied/);
  });

  it('signs a certificate for a terminal alone, and starts ssh without its ~ escapes', async () => {
    const c = h.deps.config;
    const login = await prepareLogin(
      {
        sshBin: c.ESHELL_SSH_BIN,
        keygenBin: c.ESHELL_SSH_KEYGEN_BIN,
        caKey: c.ESHELL_CA_KEY,
        runDir: c.runDir,
        certMinutes: c.ESHELL_CERT_MINUTES,
        connectTimeoutS: c.ESHELL_CONNECT_TIMEOUT_S,
      },
      { cun: A, node: c.loginNodes[0]!, keyId: 'eshell:test:cert' },
    );
    try {
      const cert = execFileSync('ssh-keygen', [
        '-L',
        '-f',
        path.join(login.keyDir, 'id-cert.pub'),
      ]).toString();
      // No port, agent or X11 forwarding and no ~/.ssh/rc: a terminal only.
      expect(cert).toMatch(/Critical Options: \(none\)\s+Extensions:\s+permit-pty\s*$/);
      expect(login.args.join(' ')).toContain('EscapeChar=none');
    } finally {
      login.dispose();
    }
  });

  it('sshd refuses a certificate past its minutes', () => {
    const expired = sshWith(A, A, '-10m:-5m');
    expect(expired.status).toBe(255);
    expect(expired.stderr).toMatch(/Permission denied/);
  });

  /**
   * Waits until the sessions `user` closed in the tests before have ended (a closed tab's session ends after the
   * detach time, 1 s here, and counts against the limit of 3 until then; on a busy machine three may still be there).
   */
  const noSessionsOf = async (user: string) => {
    const left = () => h.deps.sessions.all().filter((s) => s.owner.cun === user);
    for (let i = 0; i < 50 && left().length > 0; i++) await new Promise((r) => setTimeout(r, 100));
    expect(left()).toEqual([]);
  };

  it('refuses a login node whose host key is not the pinned one', async () => {
    await noSessionsOf(A);
    const t = await h.ticket(await h.token(A), { node: `localhost:${sshd.port}` });
    expect(t.code).toBe('0');
    const term = h.connect();
    open.push(term);
    await term.auth(t.data.ticket);
    const end = await term.ended();
    expect(end).toMatchObject({ t: 'end', code: 255 });
    expect(term.output).toMatch(/Host key verification failed/);
    // A node that is not configured is refused before anything starts.
    expect((await h.ticket(await h.token(A), { node: 'elsewhere:22' })).code).toBe('ESHELL_NODE');
  });

  it('opens no shell as root, a system account or an account whose login shell is refused', async () => {
    // Found from outside: a manager mapped a portal user to `postgres` (uid 101) and got a shell as it; efile and
    // the job service refused that account all along (their workers' rules), E-Shell checked only the name.
    const [sys, nologin] = ['eshtsys1', 'eshtnol1'];
    createUsers([sys, nologin], { [sys]: ['-r', '-s', '/bin/bash'], [nologin]: ['-s', '/usr/sbin/nologin'] });
    try {
      for (const cun of ['root', sys, nologin])
        expect((await h.ticket(await h.token(A, { cun }), {})).code, cun).toBe('1017');
      expect((await h.ticket(await h.token(A, { cun: 'eshtnone1' }), {})).code).toBe('601009');
      expect((await h.ticket(await h.token(A), {})).code).toBe('0');
    } finally {
      removeUsers([sys, nologin]);
    }
  });

  it('a ticket opens one socket once', async () => {
    const token = await h.token(A);
    const t = await h.ticket(token, {});
    const first = h.connect();
    open.push(first);
    await first.auth(t.data.ticket);
    await first.ready();
    const second = h.connect();
    open.push(second);
    await second.auth(t.data.ticket);
    await second.waitFor('close', () => second.closed);
    expect(second.closed!.code).toBe(4002);
    expect(second.controls).toEqual([]);
    first.close();
  });

  it('refuses a socket from another origin', async () => {
    const term = h.connect('https://evil.example.org');
    await expect(term.opened).rejects.toThrow(/403/);
  });

  it('closes only the socket of a frame that breaks the protocol; the service and its shells go on', async () => {
    // No error listener on the socket: the first of these ended the whole process (the all-in-one: the portal).
    const { term, token } = await shell(A);
    const frames: [string | Buffer, number][] = [
      ['x'.repeat(300 * 1024), 1009],
      [Buffer.from([0x7b, 0xff, 0xfe, 0x7d]), 1007],
    ];
    for (const [data, code] of frames) {
      const bad = h.connect();
      await bad.opened;
      bad.ws.send(data, { binary: false });
      await bad.waitFor(`the close of ${code}`, () => bad.closed);
      expect(bad.closed!.code).toBe(code);
    }
    expect((await h.call(token, 'GET', '/sothisai/api/eshell/action/sessions')).code).toBe('0');
    expect(Number(await run(term, 'echo $((20+1))'))).toBe(21);
    term.close();
  });

  it('attaching again replays the scroll-back; a closed socket ends the session after the detach time', async () => {
    const { term, sessionId, token } = await shell(A);
    await run(term, 'echo scroll-$((6*7))');
    term.close();
    await term.waitFor('close', () => term.closed);
    const again = await h.ticket(token, { sessionId });
    expect(again.code).toBe('0');
    const t2 = h.connect();
    open.push(t2);
    await t2.auth(again.data.ticket);
    await t2.ready();
    expect(t2.beforeReady).toContain('scroll-42');
    // The same shell: its history is there.
    expect(Number(await run(t2, 'echo $$'))).toBeGreaterThan(0);
    t2.close();
    await t2.waitFor('close', () => t2.closed);
    // ESHELL_DETACH_S=1 here.
    await t2.waitFor('the session to end', () => !h.deps.sessions.get(sessionId), 5000);
    expect((await h.ticket(token, { sessionId })).code).toBe('ESHELL_NO_SESSION');
  });

  it('a logout ends the running shell, with the reason', async () => {
    const token = await h.token(A, { sid: 'sid-logout' });
    const { term } = await shell(A, {}, token);
    await h.revocations.endSessions(['sid-logout']);
    const end = await term.ended();
    expect(end).toMatchObject({ reason: 'revoked' });
    // And its token opens nothing any more.
    expect((await h.ticket(token, {})).code).toBe('401');
  });

  it('limits the sessions of a user', async () => {
    const token = await h.token(B);
    const sessions = () =>
      h.deps.sessions.listOf({
        sub: h.deps.sessions.all().find((s) => s.owner.cun === B)?.owner.sub ?? '',
        cun: B,
      });
    // lisi's sessions of the tests before end after the detach time (1 s).
    await noSessionsOf(B);
    expect(sessions()).toEqual([]);
    const opened = [];
    for (let i = 0; i < 3; i++) opened.push(await shell(B, {}, token));
    expect((await h.ticket(token, {})).code).toBe('ESHELL_SESSION_LIMIT');
    // Closing a tab ends its session at once: room for a new one.
    const first = opened[0]!;
    const closed = await h.call(token, 'POST', '/sothisai/api/eshell/action/close', {
      sessionId: first.sessionId,
    });
    expect(closed.code).toBe('0');
    expect(await first.term.ended()).toMatchObject({ reason: 'closed' });
    expect((await h.ticket(token, {})).code).toBe('0');
    for (const o of opened) o.term.close();
  });

  it("counts the limit over the service's instances, and a burst on both never passes it", async () => {
    // A second instance of the same cluster's service (the same portal keys, the same store of open shells: Redis
    // when scaled out). lisi may have 3 in all.
    const h2 = await eshellHarness({
      dir: path.join(dir, 'second'),
      caKey,
      nodes: [{ address: `127.0.0.1:${sshd.port}`, hostKey: sshd.hostKey }],
      homes,
      env: { ESHELL_DETACH_S: '1', ESHELL_MAX_SESSIONS_PER_USER: '3' },
      sameServiceAs: { keys: h.keys, openKv: h.openKv },
    });
    try {
      const token = await h.token(B);
      await new Promise((r) => setTimeout(r, 1200)); // the sessions of the tests before end after 1 s detached
      const first = [await shell(B, {}, token), await shell(B, {}, token)];
      // Two on the first instance: the second instance gives one more, then refuses.
      const t = await h2.ticket(token, {});
      expect(t.code).toBe('0');
      const third = h2.connect();
      open.push(third);
      await third.auth(t.data.ticket);
      await third.ready();
      expect((await h2.ticket(token, {})).code).toBe('ESHELL_SESSION_LIMIT');
      expect((await h.ticket(token, {})).code).toBe('ESHELL_SESSION_LIMIT');
      for (const s of first) s.term.close();
      third.close();
      await new Promise((r) => setTimeout(r, 1500)); // detached past 1 s: ended, their places given back
      // Eight tickets at once on both instances, then eight sockets at once: at most 3 shells start.
      const tickets = await Promise.all(
        Array.from({ length: 8 }, (_, i) => (i % 2 ? h2 : h).ticket(token, {})),
      );
      const terms = tickets.map((tk, i) => {
        const term = (i % 2 ? h2 : h).connect();
        open.push(term);
        return { term, tk };
      });
      const outcomes = await Promise.all(
        terms.map(async ({ term, tk }) => {
          if (tk.code !== '0') return 'refused';
          await term.auth(tk.data.ticket);
          return term.waitFor('ready or refused', () =>
            term.controls.some((c) => c.t === 'ready')
              ? 'ready'
              : term.closed || term.controls.some((c) => c.t === 'end')
                ? 'refused'
                : undefined,
          );
        }),
      );
      expect(outcomes.filter((o) => o === 'ready').length).toBeLessThanOrEqual(3);
      expect(outcomes.filter((o) => o === 'ready').length).toBeGreaterThanOrEqual(1);
      const live = [...h.deps.sessions.all(), ...h2.deps.sessions.all()].filter(
        (s) => !s.ended && s.owner.cun === B,
      );
      expect(live.length).toBeLessThanOrEqual(3);
      for (const { term } of terms) term.close();
    } finally {
      await h2.close();
    }
  });

  it('ends a shell whose account is disabled, and ends every shell when the service stops, saying so', async () => {
    // A second service on the same sshd: idle after 1 s, the portal's rights of the moment asked every 0.2 s.
    let disabled = false;
    const h2 = await eshellHarness({
      dir: path.join(dir, 'second'),
      caKey,
      nodes: [{ address: `127.0.0.1:${sshd.port}`, hostKey: sshd.hostKey }],
      homes,
      env: { ESHELL_IDLE_S: '1' },
      ownerRights: async (sub) => ({
        cun: sub === '100' ? A : B,
        home: '',
        paths: [],
        st: disabled ? 'Disable' : 'Normal',
        exp_acct: null,
      }),
    });
    const openOn = async (user: string) => {
      const t = await h2.ticket(await h2.token(user), {});
      const term = h2.connect();
      open.push(term);
      await term.auth(t.data.ticket);
      await term.ready();
      return term;
    };
    // Idle: no input and no output for 1 s.
    const idle = await openOn(A);
    expect(await idle.ended()).toMatchObject({ reason: 'idle' });
    // The account disabled on the portal: the open shell ends.
    const a = await openOn(A);
    disabled = true;
    expect(await a.ended()).toMatchObject({ reason: 'rights', message: 'The account is disabled' });
    disabled = false;
    // The service stops: the page is told, and the socket closes.
    const b = await openOn(A);
    await h2.close();
    expect(await b.ended()).toMatchObject({ reason: 'shutdown' });
    await b.waitFor('close', () => b.closed);
  });
});
