// Reference TOON encoder driver for tests/differential.rs.
//
// Usage: node ref-encode.mjs <package-dir> <delimiter: comma|tab|pipe> <indent> [fold[=N]]
//
// `fold` turns on safe key folding (spec 3.3), `fold=N` with a flatten depth of N.
//
// Reads one JSON document per line on stdin and writes, for each, one line on
// stdout: the reference encoder's TOON output as a JSON string, or
// {"error": message} when the reference refuses the document.

import { createInterface } from 'node:readline'
import { pathToFileURL } from 'node:url'
import { join } from 'node:path'

const [packageDir, delimiterName, indentText, foldText] = process.argv.slice(2)
const delimiters = { comma: ',', tab: '\t', pipe: '|' }
const delimiter = delimiters[delimiterName]
const indent = Number(indentText)
if (!packageDir || delimiter === undefined || !Number.isInteger(indent) || indent < 1) {
  console.error('usage: node ref-encode.mjs <package-dir> <comma|tab|pipe> <indent> [fold[=N]]')
  process.exit(2)
}
const options = { indent, delimiter }
if (foldText !== undefined) {
  const match = /^fold(?:=(\d+))?$/.exec(foldText)
  if (!match) {
    console.error(`unknown folding option ${JSON.stringify(foldText)}`)
    process.exit(2)
  }
  options.keyFolding = 'safe'
  options.flattenDepth = match[1] === undefined ? Infinity : Number(match[1])
}

const toon = await import(pathToFileURL(join(packageDir, 'dist', 'index.mjs')).href)

const lines = createInterface({ input: process.stdin, crlfDelay: Infinity })
const out = []
let pending = 0
for await (const line of lines) {
  let result
  try {
    result = JSON.stringify(toon.encode(JSON.parse(line), options))
  } catch (e) {
    result = JSON.stringify({ error: String(e && e.message || e) })
  }
  out.push(result)
  pending += result.length
  if (pending > 1 << 20) {
    process.stdout.write(out.join('\n') + '\n')
    out.length = 0
    pending = 0
  }
}
if (out.length > 0) process.stdout.write(out.join('\n') + '\n')
