import { Type, type TSchema } from 'typebox';

/**
 * Every JSON answer of portal and efile is `{ code, msg, data }` (DESIGN.md §6): `code` is the string "0" on
 * success, else one of the codes of `errors.ts`.
 */
export const Envelope = <T extends TSchema>(data: T) =>
  Type.Object({ code: Type.String(), msg: Type.String(), data });

/** The envelope of a failure: `data` is null, or carries details such as the fields that failed validation. */
export const ErrorEnvelope = Type.Object({
  code: Type.String(),
  msg: Type.String(),
  data: Type.Union([Type.Null(), Type.Unknown()]),
});
