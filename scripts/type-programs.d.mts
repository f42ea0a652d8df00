// Types of type-programs.mjs for its test (typecheck.test.ts).
export const typePrograms: readonly string[];
