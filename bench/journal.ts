// The "journal" table: requests/s and p99 at 64 connections for the journal's public reads over
// 1,000 posts, beside the same queries sent straight to PostgreSQL with pg, as the database's limit.
// The feed goes through the read cache as the markets do; a single post does not (each read counts
// a view), so its row has no cache-off column.

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import pino from "pino";
import { createPool } from "../api/db/pool";
import { postQueries } from "../api/db/posts";
import { startStack } from "../scripts/stack";
import { startApi } from "../scripts/stack/api";
import { freePort } from "../scripts/stack/ports";
import { stopChild } from "../scripts/stack/processes";
import { queryLoop, READ_COLUMNS, readRow, warmedLoad } from "./readLoad";
import { printTable } from "./stats";

const CONNECTIONS = 64;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const POSTS = 1_000;
const TAGS = 10;
const AUTHORS = 20;

export async function benchJournal() {
  const dataDir = mkdtempSync(join(tmpdir(), "pm-bench-"));
  const stack = await startStack({
    dataDir,
    deploymentsDir: join(dataDir, "deployments"),
    databaseUrl: process.env.DATABASE_URL,
    blockTimeMs: 0,
    viewsSchema: `bench_views_${Date.now().toString(36)}`,
  });
  const run = Date.now().toString(36);
  const client = new pg.Client(stack.databaseUrl);
  await client.connect();
  try {
    console.error(`journal bench: seeding ${POSTS} posts...`);
    // Posts of a bench run of their own (a shared database may hold others), a minute apart, each
    // with a body of about 3,000 characters and two of ten tags.
    await client.query(
      `INSERT INTO api.post (author_id, author_is_agent, title, excerpt, body, tags, sources, published_at)
       SELECT 'bench-' || $1 || '-' || (i % $3), i % 5 = 0, 'Post number ' || i, repeat('An excerpt. ', 20),
              repeat('Some **markdown** with [a link](https://example.com/' || i || '). ', 60),
              ARRAY['tag-' || $1 || '-' || (i % $4), 'tag-' || $1 || '-' || ((i + 1) % $4)],
              jsonb_build_array(jsonb_build_object('title', 'Source', 'url', 'https://example.com/s', 'source', 'example.com')),
              now() - make_interval(mins => $2 - i)
         FROM generate_series(1, $2) AS i`,
      [run, POSTS, AUTHORS, TAGS],
    );
    const { rows } = await client.query(
      "SELECT id FROM api.post WHERE author_id LIKE 'bench-' || $1 || '-%' ORDER BY published_at DESC LIMIT 1",
      [run],
    );
    const postId = rows[0].id as string;
    const tag = `tag-${run}-3`;
    const author = `bench-${run}-7`;

    const pool = createPool({ databaseUrl: stack.databaseUrl, max: 20, logger: pino({ level: "silent" }) });
    const posts = postQueries(pool, stack.viewsSchema);
    // Every run's posts are in the feed; the other rows filter to this run's.
    const endpoints = [
      { name: "GET /api/blog (20 per page)", path: "/api/blog", raw: () => posts.list({ limit: 20, offset: 0 }) },
      {
        name: `GET /api/blog?tag= (${(POSTS * 2) / TAGS} posts)`,
        path: `/api/blog?tag=${tag}`,
        raw: () => posts.list({ tag, limit: 20, offset: 0 }),
      },
      {
        name: `GET /api/blog?author= (${POSTS / AUTHORS} posts)`,
        path: `/api/blog?author=${author}`,
        raw: () => posts.list({ author, limit: 20, offset: 0 }),
      },
      { name: "GET /api/blog/:id (counts a view)", path: `/api/blog/${postId}`, raw: () => posts.byId(postId) },
    ];

    const uncachedApi = await startApi({
      ...stack.apiOptions!,
      port: await freePort(),
      logFile: join(dataDir, "logs", "api-uncached.log"),
      env: { READ_CACHE_TTL_MS: "0" },
    });
    const rowsOut: string[][] = [];
    let tool = "";
    try {
      for (const endpoint of endpoints) {
        const served = await warmedLoad(`${stack.apiUrl}${endpoint.path}`, CONNECTIONS, SECONDS);
        const uncached = await warmedLoad(`${uncachedApi.url}${endpoint.path}`, CONNECTIONS, SECONDS);
        const raw = await queryLoop(endpoint.raw, CONNECTIONS, SECONDS);
        tool = served.tool;
        rowsOut.push(readRow(endpoint.name, served, uncached, raw));
      }
    } finally {
      await stopChild(uncachedApi.child);
      await pool.end();
    }
    printTable(
      `journal (${POSTS} posts, one API process, ${CONNECTIONS} connections via ${tool}, ${SECONDS} s each; targets: /api/blog >= 5,000 req/s with p99 <= 20 ms, every endpoint >= 0.5 of raw)`,
      READ_COLUMNS,
      rowsOut,
    );
  } finally {
    await client.end();
    await stack.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
