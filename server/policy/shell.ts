/**
 * Reads a shell command the way the argument rules need it: split into simple
 * commands (at `;`, `&&`, `||`, `|`, `&`, newlines, parentheses, backticks
 * and `$(`), quotes removed, the scripts of `sh -c`, `bash -lc` and `eval`
 * read the same way, and a note of everything a shell could read differently
 * from this text (command substitution, `\$`, `` \` `` or a backslash-newline
 * inside double quotes, `$'...'`, here-documents).
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
  /** Constructs a shell could read differently from this text (refused under allowed patterns). */
  ambiguous: string[];
}

interface Frame {
  /** What closes the frame: end of text, `)` or a backtick. */
  close: "" | ")" | "`";
  words: string[];
  word: string;
  inWord: boolean;
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
  const out: ShellReading = { commands: [], ambiguous: [] };
  if (typeof input === "string") split(input, out, 0);
  else addCommand([...input], out, 0);
  return out;
}

function note(out: ShellReading, what: string): void {
  if (!out.ambiguous.includes(what)) out.ambiguous.push(what);
}

/** Records a simple command, and reads the script it hands to a shell or to eval. */
function addCommand(words: string[], out: ShellReading, depth: number): void {
  if (!words.length) return;
  if (out.commands.length >= MAX_COMMANDS) {
    throw new ShellParseError(`The command has more than ${MAX_COMMANDS} simple commands.`);
  }
  out.commands.push(words);
  for (let i = 0; i < words.length; i++) {
    const name = words[i].slice(words[i].lastIndexOf("/") + 1);
    if (name === "eval" && i + 1 < words.length) {
      split(words.slice(i + 1).join(" "), out, depth + 1);
      return;
    }
    if (!SHELLS.has(name)) continue;
    // `sh -c`, `bash -lc`, `bash -e -c`: the first operand after the option that holds `c` is the script.
    let j = i + 1;
    let script = false;
    while (j < words.length && /^-[A-Za-z]+$/.test(words[j])) {
      if (words[j].includes("c")) script = true;
      j++;
    }
    if (script && j < words.length) {
      split(words[j], out, depth + 1);
      return;
    }
  }
}

function split(text: string, out: ShellReading, depth: number): void {
  if (depth > MAX_DEPTH) throw new ShellParseError("The command nests too deeply to be read.");
  if (text.length > MAX_COMMAND_CHARS) {
    throw new ShellParseError(`The command is longer than ${MAX_COMMAND_CHARS} characters.`);
  }
  const stack: Frame[] = [{ close: "", words: [], word: "", inWord: false }];
  let top = stack[0];
  const endWord = () => {
    if (top.inWord) top.words.push(top.word);
    top.word = "";
    top.inWord = false;
  };
  const endCommand = () => {
    endWord();
    addCommand(top.words, out, depth);
    top.words = [];
  };
  const open = (close: ")" | "`") => {
    if (stack.length > MAX_DEPTH) throw new ShellParseError("The command nests too deeply.");
    top = { close, words: [], word: "", inWord: false };
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
    } else if (c === "\n" || c === ";" || c === "|") {
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
      // `<<<` is a here-string (one word of input); `<<` starts a here-document.
      const here = text[i + 2] === "<" ? "<<<" : "<<";
      if (here === "<<") note(out, "a here-document");
      top.word += here;
      top.inWord = true;
      i += here.length;
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
