// `npm run bench [-- part ...]`: each part prints one table. Parts: indexer, api, journal, writes, stream, research, soak.
import { benchApi } from "./api";
import { benchIndexer } from "./indexer";
import { benchJournal } from "./journal";
import { benchResearch } from "./research";
import { benchSoak } from "./soak";
import { benchStream } from "./stream";
import { benchWrites } from "./writes";

const PARTS: Record<string, () => Promise<void>> = {
  indexer: benchIndexer,
  api: benchApi,
  journal: benchJournal,
  writes: benchWrites,
  stream: benchStream,
  research: benchResearch,
  soak: benchSoak,
};

// Every load here comes from one address: the API processes the benches start (which inherit this
// environment) measure the service, not its read limit per address.
process.env.READ_LIMIT ??= "off";

const wanted = process.argv.slice(2).filter((arg) => !arg.startsWith("-"));
for (const name of wanted.length > 0 ? wanted : Object.keys(PARTS)) {
  const part = PARTS[name];
  if (!part) throw new Error(`unknown benchmark part "${name}"; parts: ${Object.keys(PARTS).join(", ")}`);
  await part();
}
