/**
 * `DATA_DIR/regtest-rpc.url`: where the embedded regtest node of the running worker answers JSON-RPC (a random port
 * and a random key each start), readable by the owner only. It lets the operator's commands on the same machine
 * reach that node (`proofseal headers`, `proofseal verify --rpc-url "$(cat data/regtest-rpc.url)"`); written
 * when the node starts, removed when it stops. Regtest only: a configured BITCOIN_RPC_URL is never written here.
 */
import fs from 'node:fs/promises';
import path from 'node:path';

export const REGTEST_RPC_FILE = 'regtest-rpc.url';

const fileOf = (dataDir: string) => path.join(dataDir, REGTEST_RPC_FILE);

/** Writes the node's URL (mode 0600); the returned function removes the file if it still names this URL. */
export async function writeRegtestRpcFile(dataDir: string, url: string): Promise<() => Promise<void>> {
  const file = fileOf(dataDir);
  await fs.mkdir(dataDir, { recursive: true });
  await fs.writeFile(file, `${url}\n`, { mode: 0o600 });
  await fs.chmod(file, 0o600);
  return async () => {
    if ((await readRegtestRpcFile(dataDir)) === url) await fs.rm(file, { force: true });
  };
}

/** The URL a running embedded node wrote, or null when none runs from this DATA_DIR. */
export async function readRegtestRpcFile(dataDir: string): Promise<string | null> {
  try {
    const url = (await fs.readFile(fileOf(dataDir), 'utf8')).trim();
    return url === '' ? null : url;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}
