// `npm run build:web` (run by `npm install` through `prepare`): bundles the explorer with esbuild
// into web/dist, which the API serves at `/` (api/http/static.ts). The entry's hashed file and the
// chunks it imports statically are the first load; the chart and the markdown renderer are chunks
// loaded when a page needs them. Every file gets gzip and brotli copies for the server to send,
// and the first load's compressed size is printed and held under FIRST_LOAD_BUDGET_BYTES.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { basename, join, relative } from "node:path";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import { build, type Metafile } from "esbuild";

const WEB = import.meta.dirname;
export const DIST = join(WEB, "dist");
const ASSETS = join(DIST, "assets");

/** The limit on the first load's compressed script. */
export const FIRST_LOAD_BUDGET_BYTES = 200 * 1024;

export type BuiltFile = { file: string; bytes: number; gzip: number; brotli: number };
export type BuildReport = {
  /** Script the page loads before it renders anything: the entry and its static imports. */
  firstLoad: BuiltFile[];
  firstLoadGzip: number;
  firstLoadBrotli: number;
  /** Chunks loaded on demand (the chart, the markdown renderer). */
  lazy: BuiltFile[];
  style: BuiltFile;
};

const FAVICON =
  "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 16 16'%3E%3Cpath d='M1 13 6 7l3 3 6-7' fill='none' stroke='%232563eb' stroke-width='2'/%3E%3C/svg%3E";

function compress(path: string): BuiltFile {
  const body = readFileSync(path);
  const gzip = gzipSync(body, { level: 9 });
  const brotli = brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } });
  writeFileSync(`${path}.gz`, gzip);
  writeFileSync(`${path}.br`, brotli);
  return { file: basename(path), bytes: body.length, gzip: gzip.length, brotli: brotli.length };
}

/** The entry's output and every chunk it imports statically, transitively. */
function firstLoadFiles(metafile: Metafile, entry: string): string[] {
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const imported of metafile.outputs[file]?.imports ?? [])
      if (imported.kind === "import-statement" && !imported.external) visit(imported.path);
  };
  visit(entry);
  return [...seen];
}

export async function buildExplorer(options: { quiet?: boolean } = {}): Promise<BuildReport> {
  rmSync(DIST, { recursive: true, force: true });
  mkdirSync(ASSETS, { recursive: true });
  const result = await build({
    absWorkingDir: WEB,
    entryPoints: { main: join(WEB, "src/main.ts") },
    outdir: ASSETS,
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "browser",
    target: ["es2022", "chrome110", "firefox110", "safari16"],
    minify: true,
    legalComments: "none",
    entryNames: "[name]-[hash]",
    chunkNames: "chunk-[hash]",
    assetNames: "[name]-[hash]",
    metafile: true,
    logLevel: options.quiet ? "silent" : "warning",
  });
  const outputs = Object.entries(result.metafile.outputs);
  const entry = outputs.find(([, output]) => output.entryPoint === "src/main.ts")?.[0];
  if (!entry) throw new Error("esbuild produced no output for src/main.ts");
  const cssFile = result.metafile.outputs[entry]!.cssBundle;
  if (!cssFile) throw new Error("esbuild produced no stylesheet for src/main.ts");
  const first = firstLoadFiles(result.metafile, entry);
  const url = (file: string) => `/assets/${basename(file)}`;

  const html = readFileSync(join(WEB, "index.html"), "utf8")
    .replace("%SCRIPT%", url(entry))
    .replace("%STYLE%", url(cssFile))
    .replace("%FAVICON%", FAVICON)
    .replace(
      "%PRELOADS%",
      first
        .filter((file) => file !== entry)
        .map((file) => `<link rel="modulepreload" href="${url(file)}">`)
        .join("\n    "),
    );
  writeFileSync(join(DIST, "index.html"), html);

  const built = new Map(
    outputs.map(([file]) => [file, compress(join(WEB, file))] as const).filter(([file]) => !file.endsWith(".map")),
  );
  const firstLoad = first.map((file) => built.get(file)!);
  const report: BuildReport = {
    firstLoad,
    firstLoadGzip: firstLoad.reduce((sum, file) => sum + file.gzip, 0),
    firstLoadBrotli: firstLoad.reduce((sum, file) => sum + file.brotli, 0),
    lazy: [...built].filter(([file]) => file.endsWith(".js") && !first.includes(file)).map(([, file]) => file),
    style: built.get(cssFile)!,
  };
  if (!options.quiet) printReport(report);
  return report;
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

export function printReport(report: BuildReport) {
  const row = (label: string, file: BuiltFile) =>
    `  ${label.padEnd(11)}${file.file.padEnd(28)}${kb(file.bytes).padStart(10)}${kb(file.gzip).padStart(10)}${kb(file.brotli).padStart(10)}`;
  console.log(`explorer built into ${relative(process.cwd(), DIST) || "."}`);
  console.log(
    `  ${"".padEnd(11)}${"file".padEnd(28)}${"raw".padStart(10)}${"gzip".padStart(10)}${"brotli".padStart(10)}`,
  );
  for (const file of report.firstLoad) console.log(row("first load", file));
  for (const file of report.lazy) console.log(row("on demand", file));
  console.log(row("style", report.style));
  console.log(
    `  first load of script: ${kb(report.firstLoadGzip)} gzip, ${kb(report.firstLoadBrotli)} brotli (budget ${kb(FIRST_LOAD_BUDGET_BYTES)} compressed)`,
  );
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const report = await buildExplorer();
  if (report.firstLoadGzip > FIRST_LOAD_BUDGET_BYTES) {
    console.error(`the first load's script is over budget: ${kb(report.firstLoadGzip)} gzip`);
    process.exit(1);
  }
}
