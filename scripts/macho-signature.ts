/**
 * Checks a macOS binary's embedded ad-hoc code signature without macOS: Apple Silicon kills an
 * executable whose pages do not match its signature before it runs a single instruction, and a
 * cross-compiled Bun binary is signed by Bun, not by `codesign`. Recomputes what the kernel and
 * `codesign --verify` compare: every code page's hash in the CodeDirectory, the hashes of the
 * blobs its special slots name, and that the signature covers the whole file before it. And signs
 * one ad hoc where Bun did not (its darwin-x64 output keeps the runtime's original signature, which
 * no longer matches the file). Layout from Apple's open-source cs_blobs.h (xnu) and mach-o/loader.h.
 */
import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";

const MH_MAGIC_64 = 0xfeedfacf;
const LC_SEGMENT_64 = 0x19;
const LC_CODE_SIGNATURE = 0x1d;
const CSMAGIC_EMBEDDED_SIGNATURE = 0xfade0cc0;
const CSMAGIC_CODEDIRECTORY = 0xfade0c02;
const CSSLOT_CODEDIRECTORY = 0;
/** Special slots whose blob can sit in the superblob: requirements (2), entitlements (5), DER entitlements (7). */
const BLOB_SLOTS = [2, 5, 7];

export type SignatureCheck = { ok: true; pages: number } | { ok: false; problem: string };

function hashOf(type: number, bytes: Uint8Array): Buffer {
  if (type === 2) return createHash("sha256").update(bytes).digest();
  if (type === 1) return createHash("sha1").update(bytes).digest();
  throw new Error(`hash type ${type} is not one this check knows`);
}

export function checkMachOSignature(path: string): SignatureCheck {
  const file = readFileSync(path);
  if (file.readUInt32LE(0) !== MH_MAGIC_64) return { ok: false, problem: "not a 64-bit Mach-O file" };
  const ncmds = file.readUInt32LE(16);
  let at = 32;
  let sig: { off: number; size: number } | null = null;
  for (let i = 0; i < ncmds; i++) {
    const cmd = file.readUInt32LE(at);
    if (cmd === LC_CODE_SIGNATURE) sig = { off: file.readUInt32LE(at + 8), size: file.readUInt32LE(at + 12) };
    at += file.readUInt32LE(at + 4);
  }
  if (!sig) return { ok: false, problem: "no LC_CODE_SIGNATURE: the binary is not signed at all" };
  if (sig.off + sig.size > file.length) return { ok: false, problem: "the signature runs past the end of the file" };
  if (file.length > sig.off + sig.size) {
    return { ok: false, problem: `${file.length - sig.off - sig.size} bytes after the signature (codesign --strict rejects them)` };
  }
  const blob = file.subarray(sig.off, sig.off + sig.size);
  if (blob.readUInt32BE(0) !== CSMAGIC_EMBEDDED_SIGNATURE)
    return { ok: false, problem: "the signature is not an embedded-signature superblob" };
  const blobs = new Map<number, Buffer>();
  for (let i = 0; i < blob.readUInt32BE(8); i++) {
    const type = blob.readUInt32BE(12 + i * 8);
    const offset = blob.readUInt32BE(16 + i * 8);
    blobs.set(type, blob.subarray(offset, offset + blob.readUInt32BE(offset + 4)));
  }
  const cd = blobs.get(CSSLOT_CODEDIRECTORY);
  if (!cd || cd.readUInt32BE(0) !== CSMAGIC_CODEDIRECTORY) return { ok: false, problem: "no CodeDirectory" };
  const hashOffset = cd.readUInt32BE(16);
  const nSpecial = cd.readUInt32BE(24);
  const nCode = cd.readUInt32BE(28);
  const codeLimit = cd.readUInt32BE(32);
  const hashSize = cd[36]!;
  const hashType = cd[37]!;
  const pageSize = 2 ** cd[39]!;
  if (codeLimit !== sig.off)
    return { ok: false, problem: `the signature covers ${codeLimit} bytes, but its own data starts at ${sig.off}` };
  if (nCode !== Math.ceil(codeLimit / pageSize)) return { ok: false, problem: `${nCode} code slots for ${codeLimit} bytes` };
  for (let i = 0; i < nCode; i++) {
    const page = file.subarray(i * pageSize, Math.min((i + 1) * pageSize, codeLimit));
    const want = cd.subarray(hashOffset + i * hashSize, hashOffset + (i + 1) * hashSize);
    if (!hashOf(hashType, page).equals(want)) return { ok: false, problem: `page ${i} of ${nCode} does not match its hash` };
  }
  for (const slot of BLOB_SLOTS) {
    const special = blobs.get(slot);
    if (!special || slot > nSpecial) continue;
    const want = cd.subarray(hashOffset - slot * hashSize, hashOffset - (slot - 1) * hashSize);
    if (!hashOf(hashType, special).equals(want)) return { ok: false, problem: `special slot -${slot} does not match its blob` };
  }
  return { ok: true, pages: nCode };
}

type Layout = { sigCmd: number; dataoff: number; linkedit: number; text: number };

function layout(file: Buffer): Layout {
  if (file.readUInt32LE(0) !== MH_MAGIC_64) throw new Error("not a 64-bit Mach-O file");
  const found: Partial<Layout> = {};
  let at = 32;
  for (let i = 0; i < file.readUInt32LE(16); i++) {
    const cmd = file.readUInt32LE(at);
    if (cmd === LC_CODE_SIGNATURE) Object.assign(found, { sigCmd: at, dataoff: file.readUInt32LE(at + 8) });
    if (cmd === LC_SEGMENT_64) {
      const name = file
        .subarray(at + 8, at + 24)
        .toString("latin1")
        .replace(/\0+$/, "");
      if (name === "__LINKEDIT") found.linkedit = at;
      if (name === "__TEXT") found.text = at;
    }
    at += file.readUInt32LE(at + 4);
  }
  if (found.sigCmd === undefined || found.linkedit === undefined || found.text === undefined) {
    throw new Error("no LC_CODE_SIGNATURE, __LINKEDIT or __TEXT to sign");
  }
  return found as Layout;
}

/**
 * Replaces the signature of the Mach-O executable at `path` with an ad-hoc, linker-style one (what
 * Bun writes for darwin-arm64: CodeDirectory 2.4, SHA-256 over 4 KiB pages, no requirements) that
 * covers every byte before it; grows __LINKEDIT when the new signature needs more room.
 */
export function adHocSign(path: string, identifier = "pi-sidecar"): void {
  const file = readFileSync(path);
  const l = layout(file);
  const pageSize = 4096;
  const nCode = Math.ceil(l.dataoff / pageSize);
  const ident = Buffer.from(`${identifier}\0`, "latin1");
  const hashOffset = 88 + ident.length;
  const cdLength = hashOffset + nCode * 32;
  const datasize = Math.ceil((20 + cdLength) / 16) * 16;
  const out = Buffer.alloc(l.dataoff + datasize);
  file.copy(out, 0, 0, l.dataoff);
  out.writeUInt32LE(datasize, l.sigCmd + 12);
  const linkeditOff = Number(out.readBigUInt64LE(l.linkedit + 40));
  const linkeditSize = l.dataoff + datasize - linkeditOff;
  out.writeBigUInt64LE(BigInt(linkeditSize), l.linkedit + 48);
  out.writeBigUInt64LE(BigInt(Math.ceil(linkeditSize / 16384) * 16384), l.linkedit + 32);
  const sb = out.subarray(l.dataoff);
  sb.writeUInt32BE(CSMAGIC_EMBEDDED_SIGNATURE, 0);
  sb.writeUInt32BE(20 + cdLength, 4);
  sb.writeUInt32BE(1, 8);
  sb.writeUInt32BE(CSSLOT_CODEDIRECTORY, 12);
  sb.writeUInt32BE(20, 16);
  const cd = sb.subarray(20);
  cd.writeUInt32BE(CSMAGIC_CODEDIRECTORY, 0);
  cd.writeUInt32BE(cdLength, 4);
  cd.writeUInt32BE(0x20400, 8); // version: execSeg fields
  cd.writeUInt32BE(0x20002, 12); // flags: adhoc | linker-signed
  cd.writeUInt32BE(hashOffset, 16);
  cd.writeUInt32BE(88, 20); // identOffset
  cd.writeUInt32BE(0, 24); // nSpecialSlots
  cd.writeUInt32BE(nCode, 28);
  cd.writeUInt32BE(l.dataoff, 32); // codeLimit
  cd[36] = 32; // hashSize
  cd[37] = 2; // hashType: SHA-256
  cd[38] = 0; // platform
  cd[39] = 12; // log2(pageSize)
  cd.writeBigUInt64BE(out.readBigUInt64LE(l.text + 40), 64); // execSegBase: __TEXT's file offset
  cd.writeBigUInt64BE(out.readBigUInt64LE(l.text + 48), 72); // execSegLimit: __TEXT's size
  cd.writeBigUInt64BE(1n, 80); // execSegFlags: main binary
  ident.copy(cd, 88);
  for (let i = 0; i < nCode; i++) {
    hashOf(2, out.subarray(i * pageSize, Math.min((i + 1) * pageSize, l.dataoff))).copy(cd, hashOffset + i * 32);
  }
  writeFileSync(path, out);
}
