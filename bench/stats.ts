import { readFileSync } from "node:fs";

export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

export const median = (values: number[]) => percentile(values, 50);

/** Prints a titled table with aligned columns. */
export function printTable(title: string, header: string[], rows: (string | number)[][]) {
  const cells = [header, ...rows.map((row) => row.map(String))];
  const widths = header.map((_, i) => Math.max(...cells.map((row) => row[i]!.length)));
  const line = (row: string[]) => `| ${row.map((cell, i) => cell.padEnd(widths[i]!)).join(" | ")} |`;
  console.log(`\n${title}`);
  console.log(line(header));
  console.log(`|${widths.map((w) => "-".repeat(w + 2)).join("|")}|`);
  for (const row of cells.slice(1)) console.log(line(row));
}

/** A process and its descendants (the API runs under tsx's launcher). */
function processTree(pid: number): number[] {
  const children = readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim();
  return [pid, ...(children ? children.split(/\s+/).flatMap((child) => processTree(Number(child))) : [])];
}

/** Resident memory of a process tree, in KB. */
export const residentKb = (pid: number) =>
  processTree(pid).reduce(
    (kb, each) => kb + Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${each}/status`, "utf8"))?.[1] ?? 0),
    0,
  );

/** CPU time (user and system) of a process tree so far, in seconds. */
export const cpuSeconds = (pid: number) =>
  processTree(pid).reduce((seconds, each) => {
    const fields = readFileSync(`/proc/${each}/stat`, "utf8").split(") ")[1]!.split(" ");
    // utime and stime, fields 14 and 15 of stat, in clock ticks (100 per second on Linux)
    return seconds + (Number(fields[11]) + Number(fields[12])) / 100;
  }, 0);

/** Peak resident memory of a process in MB (Linux VmHWM). */
export async function peakMemoryMb(pid: number): Promise<number> {
  const { readFile } = await import("node:fs/promises");
  const status = await readFile(`/proc/${pid}/status`, "utf8");
  const kb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return Math.round(kb / 1024);
}
