// oxc-parser ships these modules as plain JS without types; importing oxc-parser's entry instead
// would run its native-binding loader, which cannot find the addon inside a compiled binary.
declare module "oxc-parser/src-js/generated/visit/keys.js" {
  const keys: Readonly<Record<string, readonly string[]>>;
  export default keys;
}

// Raw transfer (oxc-raw.ts): the layout of the transfer buffer, and the deserializers that read it.
declare module "oxc-parser/src-js/generated/constants.js" {
  export const ACTIVE_SIZE: number;
  export const BLOCK_SIZE: number;
  export const BUFFER_SIZE: number;
  export const DATA_POINTER_POS_32: number;
  export const IS_TS_FLAG_POS: number;
}
declare module "oxc-parser/src-js/generated/deserialize/js.js" {
  export function deserialize(buffer: Uint8Array, source: string, sourceStart: number, sourceLength: number): unknown;
}
declare module "oxc-parser/src-js/generated/deserialize/ts.js" {
  export function deserialize(buffer: Uint8Array, source: string, sourceStart: number, sourceLength: number): unknown;
}
