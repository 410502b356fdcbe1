/**
 * Reads a shell command the way the argument rules need it: split into simple
 * commands (at `;`, `&&`, `||`, `|`, `&`, newlines, parentheses, backticks
 * and `$(`), quotes removed, and the scripts a shell is handed read the same
 * way: `sh -c`, `bash -lc`, options before `-c` (`-O extglob`, `+x`,
 * `--norc`, `--`), here-strings and here-documents fed to a shell, `eval`,
 * and a shell behind `env`, `exec`, `command`, `nice`, `timeout`, `xargs`,
 * `sudo` and the like. Each simple command keeps the text fed to it
 * (`<<<` or a here-document), so a patch given to `apply_patch <<'EOF'` is
 * read too. Everything a shell could read differently from this text is
 * noted: command substitution, variables, `$'...'`, `\$`, `` \` `` or a
 * backslash-newline inside double quotes, an expanding here-document, and a
 * shell whose script is not in the text (piped in, or a file).
 *
 * It reads text, not meaning: variables are not expanded, aliases not known.
 * Work is bounded: the text, the nesting and the number of commands.
 *
 * @module
 */

/** The largest command text read; longer is refused as unparseable. */
export const MAX_COMMAND_CHARS = 65_536;
const MAX_DEPTH = 16;
const MAX_COMMANDS = 1_000;
const SHELLS = new Set(["sh", "bash", "zsh", "dash", "ksh", "ash", "mksh", "fish"]);

/** A command the reader cannot split reliably (unbalanced quotes, too large, too deep). */
export class ShellParseError extends Error {
  override name = "ShellParseError";
}

/** What the reader found. */
export interface ShellReading {
  /** Every simple command, as its words with quotes removed. */
  commands: string[][];
  /** The text fed to each command by `<<<` or a here-document (same index), if any. */
  inputs: (string | undefined)[];
  /** Constructs a shell could read differently from this text (the rules refuse them). */
  ambiguous: string[];
}

/** The here-string or here-documents of the command being read. */
interface Feed {
  body?: string;
}

interface Frame {
  /** What closes the frame: end of text, `)` or a backtick. */
  close: "" | ")" | "`";
  words: string[];
  word: string;
  inWord: boolean;
  /** What the command being read is fed; the next word is a here-string's when `hereString`. */
  feed: Feed;
  hereString: boolean;
}

/** A pending here-document: its delimiter, whether tabs are stripped, whether it expands. */
interface HereDoc {
  delimiter: string;
  strip: boolean;
  quoted: boolean;
  feed: Feed;
}

/**
 * Commands that run the command after them, with their options that take an argument and the
 * operands they take before it (`timeout 5 rm`, `chroot /srv rm`).
 */
const WRAPPERS: Record<string, { args: string[]; operands?: number }> = {
  env: { args: ["-u", "-C", "--unset", "--chdir"] },
  exec: { args: ["-a"] },
  command: { args: [] },
  builtin: { args: [] },
  nohup: { args: [] },
  setsid: { args: [] },
  time: { args: ["-f", "-o"] },
  nice: { args: ["-n", "--adjustment"] },
  ionice: { args: ["-c", "-n", "-p"] },
  stdbuf: { args: ["-i", "-o", "-e"] },
  timeout: { args: ["-s", "-k", "--signal", "--kill-after"], operands: 1 },
  chroot: { args: [], operands: 1 },
  xargs: { args: ["-I", "-n", "-P", "-L", "-s", "-d", "-E", "-a", "--max-args", "--delimiter"] },
  sudo: { args: ["-u", "-g", "-h", "-p", "-C", "-D", "-r", "-t", "-U"] },
  doas: { args: ["-u", "-C"] },
};

/** The name a command word runs, whatever its path: `/bin/rm` and `./rm` run `rm`. */
export function commandName(word: string): string {
  return word.slice(word.lastIndexOf("/") + 1);
}

/** Index of the command a simple command runs: past assignments, wrappers and their options. */
export function commandStart(words: readonly string[]): number {
  let i = 0;
  for (;;) {
    while (i < words.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[i])) i++;
    const wrapper = i < words.length ? WRAPPERS[commandName(words[i])] : undefined;
    if (!wrapper) return i;
    i++;
    while (i < words.length && words[i].startsWith("-") && words[i] !== "-") {
      const option = words[i++];
      if (option === "--") break;
      if (wrapper.args.includes(option)) i++;
    }
    i += wrapper.operands ?? 0;
  }
}

/**
 * Where a shell's script is, from the words after the shell's name: the operand after `-c` (past
 * options like `-O extglob`, `+x`, `--norc` and `--`), standard input, or a file.
 */
function shellScript(words: readonly string[], from: number) {
  let j = from;
  let command = false;
  let stdin = false;
  while (j < words.length) {
    const w = words[j];
    if (w === "--" || w === "-") {
      j++;
      break;
    }
    if (/^--[A-Za-z-]+$/.test(w)) {
      j += w === "--rcfile" || w === "--init-file" ? 2 : 1;
    } else if (/^[-+][A-Za-z]+$/.test(w)) {
      if (w[0] === "-" && w.includes("c")) command = true;
      if (w[0] === "-" && w.includes("s")) stdin = true;
      // `-o pipefail`, `-O extglob`, `+O x`: each o or O takes the next word.
      j += 1 + [...w.slice(1)].filter((ch) => ch === "o" || ch === "O").length;
    } else break;
  }
  if (command) return { kind: "command" as const, script: words[j] };
  return { kind: stdin || j >= words.length ? "stdin" as const : "file" as const };
}

/**
 * Splits a command (a string or an argv list) into simple commands.
 * Throws `ShellParseError` when it cannot.
 *
 * @example
 * ```ts
 * readCommand("npm test && sudo rm -rf /").commands; // [["npm","test"],["sudo","rm","-rf","/"]]
 * ```
 */
export function readCommand(input: string | readonly string[]): ShellReading {
  const out: ShellReading = { commands: [], inputs: [], ambiguous: [] };
  if (typeof input === "string") split(input, out, 0);
  else addCommand([...input], undefined, out, 0);
  return out;
}

function note(out: ShellReading, what: string): void {
  if (!out.ambiguous.includes(what)) out.ambiguous.push(what);
}

/** Records a simple command, and reads the script it hands to a shell or to eval. */
function addCommand(
  words: string[],
  fed: string | undefined,
  out: ShellReading,
  depth: number,
): void {
  if (!words.length) return;
  if (out.commands.length >= MAX_COMMANDS) {
    throw new ShellParseError(`The command has more than ${MAX_COMMANDS} simple commands.`);
  }
  out.commands.push(words);
  out.inputs.push(fed);
  const at = commandStart(words);
  const name = at < words.length ? commandName(words[at]) : "";
  if (name === "eval") {
    if (at + 1 < words.length) split(words.slice(at + 1).join(" "), out, depth + 1);
    return;
  }
  if (SHELLS.has(name)) {
    const found = shellScript(words, at + 1);
    if (found.kind === "command") {
      if (found.script === undefined) note(out, "a shell's -c without a script");
      else split(found.script, out, depth + 1);
    } else if (found.kind === "stdin" && fed !== undefined) split(fed, out, depth + 1);
    else note(out, "a shell whose script is not in the command (piped in, or a file)");
    return;
  }
  // A shell further on (`ssh host bash -c '...'`): its -c script is read too.
  for (let i = at + 1; i < words.length; i++) {
    if (!SHELLS.has(commandName(words[i]))) continue;
    const found = shellScript(words, i + 1);
    if (found.kind === "command" && found.script !== undefined) {
      split(found.script, out, depth + 1);
      return;
    }
  }
}

function split(text: string, out: ShellReading, depth: number): void {
  if (depth > MAX_DEPTH) throw new ShellParseError("The command nests too deeply to be read.");
  if (text.length > MAX_COMMAND_CHARS) {
    throw new ShellParseError(`The command is longer than ${MAX_COMMAND_CHARS} characters.`);
  }
  const stack: Frame[] = [newFrame("")];
  let top = stack[0];
  // Commands are recorded once the text is read: a here-document's body comes after its command.
  const found: { words: string[]; feed: Feed }[] = [];
  const pending: HereDoc[] = [];
  const endWord = () => {
    if (top.inWord) {
      if (top.hereString) top.feed.body = top.word;
      else top.words.push(top.word);
    }
    top.hereString &&= !top.inWord;
    top.word = "";
    top.inWord = false;
  };
  const endCommand = () => {
    endWord();
    if (top.words.length) found.push({ words: top.words, feed: top.feed });
    top.words = [];
    top.feed = {};
  };
  const open = (close: ")" | "`") => {
    if (stack.length > MAX_DEPTH) throw new ShellParseError("The command nests too deeply.");
    top = newFrame(close);
    stack.push(top);
  };
  const shut = () => {
    endCommand();
    stack.pop();
    // The enclosing word, if any, continues after a substitution (its output is not known here).
    top = stack[stack.length - 1];
  };
  let i = 0;
  const n = text.length;
  while (i < n) {
    const c = text[i];
    const next = text[i + 1];
    if (c === " " || c === "\t") {
      endWord();
      i++;
    } else if (c === "\n") {
      endCommand();
      i = pending.length ? bodies(text, i + 1, pending, out) : i + 1;
    } else if (c === ";" || c === "|") {
      endCommand();
      i++;
    } else if (c === "&") {
      // `2>&1`, `<&3` and `&>file` are redirections, not separators.
      if (next === ">" || (top.inWord && /[<>]$/.test(top.word))) {
        top.word += c;
        top.inWord = true;
      } else endCommand();
      i++;
    } else if (c === "(") {
      endCommand();
      open(")");
      i++;
    } else if ((c === "<" || c === ">") && next === "(") {
      // Process substitution is a command of its own; the outer command keeps a placeholder-free word list.
      endWord();
      open(")");
      i += 2;
    } else if (c === "$" && next === "(") {
      note(out, "command substitution");
      open(")");
      i += 2;
    } else if (c === ")") {
      if (top.close !== ")") throw new ShellParseError("The command has an unmatched ).");
      shut();
      i++;
    } else if (c === "`") {
      if (top.close === "`") shut();
      else {
        note(out, "command substitution");
        open("`");
      }
      i++;
    } else if (c === "<" && next === "<") {
      // `<<<` is a here-string (the next word is the command's input); `<<` a here-document.
      endWord();
      if (text[i + 2] === "<") {
        top.hereString = true;
        i += 3;
      } else i = hereDocument(text, i + 2, top.feed, pending);
    } else if (c === "#" && !top.inWord) {
      while (i < n && text[i] !== "\n") i++;
    } else if (c === "\\") {
      if (i + 1 >= n) throw new ShellParseError("The command ends with a lone backslash.");
      if (next !== "\n") {
        top.word += next;
        top.inWord = true;
      }
      i += 2;
    } else if (c === "'" || (c === "$" && next === "'")) {
      i = singleQuoted(text, c === "$" ? i + 1 : i, c === "$", top, out);
    } else if (c === "$" && next !== undefined && /[A-Za-z0-9_{@*#?$!"-]/.test(next)) {
      note(out, "a variable or parameter expansion");
      top.word += c;
      top.inWord = true;
      i++;
    } else if (c === '"') {
      i = doubleQuoted(text, i, top, out, depth);
    } else {
      top.word += c;
      top.inWord = true;
      i++;
    }
  }
  if (stack.length > 1) {
    throw new ShellParseError(`The command has an unclosed ${top.close === ")" ? "(" : "`"}.`);
  }
  endCommand();
  if (pending.length) bodies(text, text.length, pending, out);
  for (const command of found) addCommand(command.words, command.feed.body, out, depth);
}

/** A frame of the reader: the text to its end, or inside `(...)` or backticks. */
function newFrame(close: Frame["close"]): Frame {
  return { close, words: [], word: "", inWord: false, feed: {}, hereString: false };
}

/** Reads the bodies of the pending here-documents from `from`; returns the index after them. */
function bodies(text: string, from: number, pending: HereDoc[], out: ShellReading): number {
  let at = from;
  for (const doc of pending.splice(0)) {
    const lines: string[] = [];
    while (at < text.length) {
      const newline = text.indexOf("\n", at);
      const end = newline < 0 ? text.length : newline;
      const line = doc.strip ? text.slice(at, end).replace(/^\t+/, "") : text.slice(at, end);
      at = end + 1;
      if (line === doc.delimiter) break;
      lines.push(line);
    }
    const body = lines.join("\n");
    if (!doc.quoted && /[$`\\]/.test(body)) note(out, "a here-document that expands");
    doc.feed.body = doc.feed.body === undefined ? body : `${doc.feed.body}\n${body}`;
  }
  return at;
}

/** Reads a here-document's operator after `<<` (`-`, then its delimiter word); returns the index after it. */
function hereDocument(text: string, from: number, feed: Feed, pending: HereDoc[]): number {
  let i = from;
  const strip = text[i] === "-";
  if (strip) i++;
  while (text[i] === " " || text[i] === "\t") i++;
  let delimiter = "";
  let quoted = false;
  while (i < text.length && !/[\s;&|<>()]/.test(text[i])) {
    const c = text[i];
    if (c === "'" || c === '"') {
      const end = text.indexOf(c, i + 1);
      if (end < 0) {
        throw new ShellParseError("The command has an unclosed quote in a here-document.");
      }
      delimiter += text.slice(i + 1, end);
      quoted = true;
      i = end + 1;
    } else if (c === "\\") {
      delimiter += text[i + 1] ?? "";
      quoted = true;
      i += 2;
    } else {
      delimiter += c;
      i++;
    }
  }
  if (!delimiter) throw new ShellParseError("A here-document has no delimiter.");
  pending.push({ delimiter, strip, quoted, feed });
  return i;
}

/** Reads '...' (or $'...', starting at its quote); returns the index after it. */
function singleQuoted(
  text: string,
  quote: number,
  ansi: boolean,
  top: Frame,
  out: ShellReading,
): number {
  if (ansi) note(out, "$'...' quoting");
  let i = quote + 1;
  while (i < text.length && text[i] !== "'") {
    // In $'...' a backslash escapes the next character, a quote included.
    if (ansi && text[i] === "\\") i++;
    i++;
  }
  if (i >= text.length) throw new ShellParseError("The command has an unclosed single quote.");
  top.word += text.slice(quote + 1, i);
  top.inWord = true;
  return i + 1;
}

/** Reads "..." starting at its quote; returns the index after it. */
function doubleQuoted(
  text: string,
  quote: number,
  top: Frame,
  out: ShellReading,
  depth: number,
): number {
  let i = quote + 1;
  top.inWord = true;
  while (i < text.length && text[i] !== '"') {
    const c = text[i];
    const next = text[i + 1];
    if (c === "\\" && i + 1 < text.length) {
      if (next === "$" || next === "`" || next === "\n") {
        note(out, "a backslash before $, ` or a newline inside double quotes");
      }
      top.word += next === '"' || next === "\\" || next === "$" || next === "`" ? next : c + next;
      i += 2;
    } else if (c === "$" && next !== undefined && /[A-Za-z0-9_{@*#?$!-]/.test(next)) {
      note(out, "a variable or parameter expansion");
      top.word += c;
      i++;
    } else if ((c === "$" && next === "(") || c === "`") {
      // The substituted command is read as a command of its own, and the text around it stays one word.
      note(out, "command substitution");
      const close = c === "`" ? "`" : ")";
      const start = c === "`" ? i + 1 : i + 2;
      const end = matching(text, start, close);
      split(text.slice(start, end), out, depth + 1);
      i = end + 1;
    } else {
      top.word += c;
      i++;
    }
  }
  if (i >= text.length) throw new ShellParseError("The command has an unclosed double quote.");
  return i + 1;
}

/** Index of the `)` or backtick closing a substitution that starts at `start`, skipping quotes. */
function matching(text: string, start: number, close: ")" | "`"): number {
  let level = 0;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (c === "\\") i++;
    else if (c === "'") {
      const end = text.indexOf("'", i + 1);
      if (end < 0) break;
      i = end;
    } else if (close === ")" && c === "(") level++;
    else if (c === close) {
      if (level === 0) return i;
      level--;
    }
  }
  throw new ShellParseError("The command has an unclosed substitution inside double quotes.");
}
