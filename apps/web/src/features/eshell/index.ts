// The E-Shell feature's public face: where other features send the user to open a shell.

/** The shell page opening a new session of `clusterId` in `cwd` (E-File's "open a shell here"). */
export const shellHereLink = (clusterId: string, cwd: string) =>
  `/eshell?${new URLSearchParams({ cluster: clusterId, cwd }).toString()}`;
