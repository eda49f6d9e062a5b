/**
 * The extensions of files an import can name that hold no code symbol. The list is Vite's: its
 * known asset types (images, media, fonts, other: `KNOWN_ASSET_TYPES` in vite/src/node/constants.ts)
 * and its stylesheet languages (`CSS_LANGS_RE`), plus JSON, WebAssembly and HTML, which a bundler
 * also loads by extension. Anything else with a dot in its last segment (`./user.service`,
 * `app.module`, `x.config`) may be a code file named without its extension, so it is not an asset.
 */
const ASSET_EXTENSIONS = new Set([
  // images
  "apng",
  "bmp",
  "png",
  "jpg",
  "jpeg",
  "jfif",
  "pjpeg",
  "pjp",
  "gif",
  "svg",
  "ico",
  "webp",
  "avif",
  "cur",
  "jxl",
  // media
  "mp4",
  "webm",
  "ogg",
  "mp3",
  "wav",
  "flac",
  "aac",
  "opus",
  "mov",
  "m4a",
  "vtt",
  // fonts
  "woff",
  "woff2",
  "eot",
  "ttf",
  "otf",
  // other
  "webmanifest",
  "pdf",
  "txt",
  // stylesheets
  "css",
  "less",
  "sass",
  "scss",
  "styl",
  "stylus",
  "pcss",
  "postcss",
  "sss",
  // data and markup a bundler loads by extension
  "json",
  "json5",
  "wasm",
  "html",
]);

/** Whether the path's last segment ends in an asset extension (case-insensitive; a `?query` is not part of it). */
export function isAssetPath(path: string): boolean {
  const name = path.slice(path.lastIndexOf("/") + 1).split("?")[0]!;
  const dot = name.lastIndexOf(".");
  return dot > 0 && ASSET_EXTENSIONS.has(name.slice(dot + 1).toLowerCase());
}
