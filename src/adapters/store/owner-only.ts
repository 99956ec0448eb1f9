import fs from 'node:fs/promises';
import path from 'node:path';

/**
 * Makes `dir` and everything under it owner-only (folders 0700, files 0600), for data directories
 * written before the process set its umask, or by a library that ignores it. Symbolic links are left
 * alone (chmod would follow them out of the folder).
 */
export async function restrictToOwner(dir: string): Promise<void> {
  await fs.chmod(dir, 0o700);
  for (const entry of await fs.readdir(dir, { withFileTypes: true, recursive: true })) {
    const full = path.join(entry.parentPath, entry.name);
    if (entry.isDirectory()) await fs.chmod(full, 0o700);
    else if (entry.isFile()) await fs.chmod(full, 0o600);
  }
}
