import { afterAll, describe, expect, test } from "bun:test";
import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { helperCommand } from "../../src/kota/helper-process.ts";
import { binaryFile, platformName, platformPackage } from "../../src/platforms.ts";
import { cleanupTempDirs, tempDir } from "./fixture-repo.ts";

afterAll(cleanupTempDirs);

function executable(path: string): string {
  mkdirSync(join(path, ".."), { recursive: true });
  writeFileSync(path, "#!/bin/sh\n");
  chmodSync(path, 0o755);
  return path;
}

/** An npm install of the extension (`pi install npm:pi-sidecar`): the bundles, and this platform's binary package beside them. */
function npmLayout(): { extension: string; binary: string } {
  const modules = join(tempDir("kota-npm-"), "node_modules");
  const extension = join(modules, "pi-sidecar", "dist", "extension");
  mkdirSync(extension, { recursive: true });
  writeFileSync(join(modules, "pi-sidecar", "package.json"), '{"name":"pi-sidecar"}\n');
  const name = platformName()!;
  const pkg = join(modules, platformPackage(name));
  mkdirSync(pkg, { recursive: true });
  writeFileSync(join(pkg, "package.json"), JSON.stringify({ name: platformPackage(name) }));
  return { extension, binary: executable(join(pkg, "bin", binaryFile(name))) };
}

describe("which program runs the parser and KotaDB's watchdog", () => {
  test("the compiled binary runs itself in the helper role", () => {
    expect(helperCommand("kota-parser", "/$bunfs/root", "/opt/pi-sidecar")).toEqual({
      command: "/opt/pi-sidecar",
      args: [],
      env: { PI_SIDECAR_HELPER: "kota-parser" },
    });
  });

  test("from the sources: Bun with helper-entry.ts", () => {
    const dir = join(import.meta.dir, "../../src/kota");
    expect(helperCommand("kotadb-watchdog", dir, "/usr/bin/bun")).toEqual({
      command: "/usr/bin/bun",
      args: [join(dir, "helper-entry.ts")],
      env: { PI_SIDECAR_HELPER: "kotadb-watchdog" },
    });
  });

  test.skipIf(!platformName())("an extension npm installed: this platform's pi-sidecar package, never pi's own runtime", () => {
    const { extension, binary } = npmLayout();
    expect(helperCommand("kota-parser", extension, "/usr/bin/bun")).toEqual({
      command: binary,
      args: [],
      env: { PI_SIDECAR_HELPER: "kota-parser" },
    });
  });

  test("an emulator's wrapper runs each helper (qemu-user without binfmt_misc)", () => {
    expect(helperCommand("kota-parser", "/$bunfs/root", "/opt/pi-sidecar", " qemu-aarch64-static  -L /usr/aarch64-linux-gnu ")).toEqual({
      command: "qemu-aarch64-static",
      args: ["-L", "/usr/aarch64-linux-gnu", "/opt/pi-sidecar"],
      env: { PI_SIDECAR_HELPER: "kota-parser" },
    });
  });

  test("an extension `install pi` wrote: the command it recorded wins; a stale record falls through", () => {
    const extension = tempDir("kota-ext-");
    const recorded = executable(join(tempDir("kota-bin-"), "pi-sidecar"));
    writeFileSync(join(extension, "install.json"), JSON.stringify({ command: [recorded] }));
    expect(helperCommand("kota-parser", extension, "/usr/bin/bun").command).toBe(recorded);
    writeFileSync(join(extension, "install.json"), JSON.stringify({ command: [join(extension, "gone")] }));
    expect(helperCommand("kota-parser", extension, "/usr/bin/bun").command).toBe("pi-sidecar");
  });
});
