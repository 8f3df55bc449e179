// Reference token ids for tests/tokens.rs and benches/tokens.rs.
//
// The reference is the npm package `tiktoken` (pinned by the caller): the
// WebAssembly build of tiktoken's own Rust core, with its regex engine, so
// its ids are tiktoken's by construction. Its bundled cl100k_base pattern is
// the one tiktoken used before 0.7; tiktoken 0.7 and later (0.14 today) use
// the pattern below, which differs from the old one only for white space at
// the very end of a text, so it is passed explicitly. The o200k_base pattern
// is bundled as tiktoken declares it.
//
// Usage (MODULES is a node_modules folder holding the packages):
//   node ref-tokens.mjs ids MODULES DIR ENCODING
//       for every DIR/*.txt, writes DIR/<name>.txt.<ENCODING>.ids: the ids of
//       encode_ordinary as little-endian u32 (ENCODING: o200k or cl100k)
//   node ref-tokens.mjs compact DIR
//       for every DIR/*.raw.txt (a JSON document), writes DIR/*.compact.txt:
//       JSON.stringify(JSON.parse(text))
//   node ref-tokens.mjs toon MODULES IN.json OUT.toon
//       encodes IN with @toon-format/toon's default options

import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";

const PATTERNS = {
  cl100k:
    String.raw`'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+| ?[^\s\p{L}\p{N}]++[\r\n]*+|\s++$|\s*[\r\n]|\s+(?!\S)|\s`,
  o200k: null,
};

const FILES = { o200k: "o200k_base.json", cl100k: "cl100k_base.json" };

function fail(message) {
  process.stderr.write(`ref-tokens: ${message}\n`);
  process.exit(2);
}

function requireFrom(modules) {
  return createRequire(path.join(path.resolve(modules), "_resolve_from_here.js"));
}

function ids(modules, dir, encoding) {
  if (!(encoding in FILES)) fail(`unknown encoding ${encoding}`);
  const require = requireFrom(modules);
  const { Tiktoken } = require("tiktoken/lite");
  const data = require(`tiktoken/encoders/${FILES[encoding]}`);
  const pattern = PATTERNS[encoding] ?? data.pat_str;
  const enc = new Tiktoken(data.bpe_ranks, {}, pattern);
  const names = fs.readdirSync(dir).filter((n) => n.endsWith(".txt")).sort();
  for (const name of names) {
    const text = fs.readFileSync(path.join(dir, name), "utf8");
    const tokens = enc.encode_ordinary(text);
    const out = Buffer.alloc(tokens.length * 4);
    for (let i = 0; i < tokens.length; i++) out.writeUInt32LE(tokens[i], i * 4);
    fs.writeFileSync(path.join(dir, `${name}.${encoding}.ids`), out);
  }
  enc.free();
  process.stdout.write(`${names.length} texts encoded with ${encoding}\n`);
}

function compact(dir) {
  const names = fs.readdirSync(dir).filter((n) => n.endsWith(".raw.txt")).sort();
  for (const name of names) {
    const value = JSON.parse(fs.readFileSync(path.join(dir, name), "utf8"));
    const out = name.replace(/\.raw\.txt$/, ".compact.txt");
    fs.writeFileSync(path.join(dir, out), JSON.stringify(value));
  }
  process.stdout.write(`${names.length} documents compacted\n`);
}

async function toon(modules, input, output) {
  const require = requireFrom(modules);
  const entry = require.resolve("@toon-format/toon");
  const { encode } = await import(pathToFileURL(entry).href);
  const value = JSON.parse(fs.readFileSync(input, "utf8"));
  fs.writeFileSync(output, encode(value));
}

const [command, ...args] = process.argv.slice(2);
if (command === "ids" && args.length === 3) ids(...args);
else if (command === "compact" && args.length === 1) compact(...args);
else if (command === "toon" && args.length === 3) await toon(...args);
else fail("usage: ids MODULES DIR ENCODING | compact DIR | toon MODULES IN OUT");
