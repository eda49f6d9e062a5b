/**
 * This process's own peak RSS in MB. Not process.resourceUsage().maxRSS: on Linux that keeps the
 * parent's high-water mark across fork and exec, so a child of a big benchmark process would
 * report the parent's memory. VmHWM in /proc/self/status belongs to this process's own memory map.
 */
import { readFileSync } from "node:fs";

export function peakRssMb(): number {
  try {
    const m = /^VmHWM:\s+(\d+)\s+kB/m.exec(readFileSync("/proc/self/status", "utf8"));
    if (m) return Math.round(Number(m[1]) / 1024);
  } catch {
    // not Linux: fall through
  }
  return Math.round(process.resourceUsage().maxRSS / 1024);
}
