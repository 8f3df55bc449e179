// Reference TOON encoder driver for tests/differential.rs.
//
// Usage: node ref-encode.mjs <package-dir> <delimiter: comma|tab|pipe> <indent>
//
// Reads one JSON document per line on stdin and writes, for each, one line on
// stdout: the reference encoder's TOON output as a JSON string, or
// {"error": message} when the reference refuses the document.

import { createInterface } from 'node:readline'
import { pathToFileURL } from 'node:url'
import { join } from 'node:path'

const [packageDir, delimiterName, indentText] = process.argv.slice(2)
const delimiters = { comma: ',', tab: '\t', pipe: '|' }
const delimiter = delimiters[delimiterName]
const indent = Number(indentText)
if (!packageDir || delimiter === undefined || !Number.isInteger(indent) || indent < 1) {
  console.error('usage: node ref-encode.mjs <package-dir> <comma|tab|pipe> <indent>')
  process.exit(2)
}

const toon = await import(pathToFileURL(join(packageDir, 'dist', 'index.mjs')).href)

const lines = createInterface({ input: process.stdin, crlfDelay: Infinity })
const out = []
let pending = 0
for await (const line of lines) {
  let result
  try {
    result = JSON.stringify(toon.encode(JSON.parse(line), { indent, delimiter }))
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
