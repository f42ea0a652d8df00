/** The `code` of a failed system call (ENOENT, EXDEV…), undefined for other errors. */
export const errno = (e: unknown): string | undefined => (e as NodeJS.ErrnoException).code;
