/** File-system helpers shared by the store, the dataset and the CLI. */
import fs from 'node:fs';
import path from 'node:path';

const codeOf = (err: unknown): string => String((err as NodeJS.ErrnoException).code ?? 'error');

/** A system error (code, syscall, path) whose message names the folder asked for: the CLI prints it as one line. */
function cannotCreate(dir: string, code: string, detail: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`cannot create the folder ${dir}: ${detail}`), { code, syscall: 'mkdir', path: dir });
}

/**
 * `mkdir -p` that always ends: creates each missing folder of `dir` in turn. Node 20's
 * `mkdirSync(dir, {recursive: true})` loops for ever when a parent exists but refuses to hold the child with
 * ENOENT (under /proc), so a bad SVC_STORE_URL hung start-up. Throws a system error (code, syscall 'mkdir')
 * whose message names `dir` and the reason.
 */
export function makeDirs(dir: string): void {
  const missing: string[] = [];
  for (let d = path.resolve(dir); ; ) {
    let stat: fs.Stats | undefined;
    try {
      stat = fs.statSync(d);
    } catch (err) {
      const code = codeOf(err);
      if (code !== 'ENOENT' && code !== 'ENOTDIR') throw cannotCreate(dir, code, `${code} on ${d}`);
    }
    if (stat) {
      if (!stat.isDirectory()) throw cannotCreate(dir, 'ENOTDIR', `${d} is not a folder`);
      break;
    }
    missing.push(d);
    const up = path.dirname(d);
    if (up === d) break;
    d = up;
  }
  for (const d of missing.reverse()) {
    try {
      fs.mkdirSync(d);
    } catch (err) {
      // another process may have made it in the meantime
      if (codeOf(err) === 'EEXIST' && fs.statSync(d).isDirectory()) continue;
      throw cannotCreate(dir, codeOf(err), `${codeOf(err)} on ${d}`);
    }
  }
}
