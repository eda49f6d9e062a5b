// oxc-parser ships its visitor keys as plain JS without types; importing oxc-parser's entry instead
// would run its native-binding loader, which cannot find the addon inside a compiled binary.
declare module "oxc-parser/src-js/generated/visit/keys.js" {
  const keys: Readonly<Record<string, readonly string[]>>;
  export default keys;
}
