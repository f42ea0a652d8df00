#!/usr/bin/env bash
# A fresh ext4 file system with a journal (mkfs's defaults, as on most servers) for a bench's files, on a loop image:
#   sudo bench/fresh-ext4.sh [GiB]   -> mounts it at /mnt/bench-ext4 and prints the TMPDIR to run a bench with
#   sudo bench/fresh-ext4.sh --remove
# Why: this VM's root is an ext4 *without* a journal, where creating files in the minutes after many were removed
# scans past every inode just freed (the kernel's `recently_deleted`, only checked without a journal): a small-file
# figure then depends on what was deleted before it. PERFORMANCE.md, "Small files and this VM's disk".
set -euo pipefail
MNT=/mnt/bench-ext4
IMG=/var/tmp/bench-ext4.img
if [ "${1:-}" = "--remove" ]; then
  umount "$MNT" 2>/dev/null || true
  rm -f "$IMG"
  exit 0
fi
GIB="${1:-40}"
umount "$MNT" 2>/dev/null || true
truncate -s "${GIB}G" "$IMG"
mkfs.ext4 -q -F "$IMG"
mkdir -p "$MNT"
mount -o loop "$IMG" "$MNT"
chmod 1777 "$MNT"
echo "TMPDIR=$MNT"
