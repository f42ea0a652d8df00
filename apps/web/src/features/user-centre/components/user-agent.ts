/**
 * A client that is no browser names itself first, `name/version` ("curl/8.5.0", "python-requests/2.31.0",
 * "Go-http-client/1.1"): its name stands for the browser. "Mozilla/…" is every browser's first word and says nothing.
 */
function program(ua: string): string | null {
  const m = /^([A-Za-z][\w.-]{0,39})\/\S/.exec(ua);
  return m && m[1] !== 'Mozilla' ? m[1]! : null;
}

/**
 * A browser and system name for a session's User-Agent, as a person recognises it ("Edge on Windows"). Product names
 * are not translated; null parts when nothing is recognised (the page says "unknown" in the user's language); a
 * program's name without a system for scripts and command-line clients. Order
 * matters: Edge and Opera say "Chrome" too, Chrome says "Safari".
 */
export function describeAgent(ua: string): { browser: string | null; system: string | null } {
  const browser = /Edg(e|A|iOS)?\//.test(ua)
    ? 'Edge'
    : /OPR\/|Opera/.test(ua)
      ? 'Opera'
      : /Firefox\/|FxiOS\//.test(ua)
        ? 'Firefox'
        : /Chrom(e|ium)\/|CriOS\//.test(ua)
          ? 'Chrome'
          : /Safari\//.test(ua)
            ? 'Safari'
            : program(ua);
  const system = /Windows/.test(ua)
    ? 'Windows'
    : /Android/.test(ua)
      ? 'Android'
      : /iPhone|iPad|iPod/.test(ua)
        ? 'iOS'
        : /Mac OS X|Macintosh/.test(ua)
          ? 'macOS'
          : /CrOS/.test(ua)
            ? 'ChromeOS'
            : /Linux/.test(ua)
              ? 'Linux'
              : null;
  return { browser, system };
}
