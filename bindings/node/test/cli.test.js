'use strict';
// The package writes what the CLI writes, byte for byte, on every dataset
// file, reads what it reads, and counts what it counts.

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { pith, run, datasetFiles } = require('./support.js');

const FILES = datasetFiles();
const FORMATS = ['auto', 'pith', 'toon', 'toon3', 'hoisted', 'hoisted-compact', 'table', 'json'];
const name = (file) => `${path.basename(path.dirname(file))}/${path.basename(file)}`;

/** The file's value, every number exact (as the CLI reads it). */
function load(file) {
  return pith.decode(fs.readFileSync(file), { bigint: true, exact: true });
}

/** Whether JSON.parse reads every number of `v` exactly (no BigInt, no ExactNumber in it). */
function plain(v) {
  if (typeof v === 'bigint' || v instanceof pith.ExactNumber) return false;
  if (Array.isArray(v)) return v.every(plain);
  if (v !== null && typeof v === 'object') return Object.values(v).every(plain);
  return true;
}

function cliOut(args, input) {
  const out = run(args, input);
  assert.equal(out.status, 0, `pith ${args.join(' ')}: ${out.stderr}`);
  return out.stdout.toString('utf8');
}

test('every dataset is found', () => {
  assert.ok(FILES.length >= 30, `${FILES.length} files`);
});

for (const file of FILES) {
  test(`encode is byte-identical to the CLI: ${name(file)}`, () => {
    const text = fs.readFileSync(file, 'utf8');
    const exact = load(file);
    // As JavaScript reads the file too, where that keeps every number.
    const parsed = plain(exact) ? JSON.parse(text) : null;
    for (const format of FORMATS) {
      const want = cliOut(['encode', file, '--format', format]);
      assert.ok(pith.encode(exact, { format }) === want, `${format} (exact values)`);
      if (parsed !== null) assert.ok(pith.encode(parsed, { format }) === want, `${format} (JSON.parse)`);
    }
  });

  test(`decode reads back what the CLI reads: ${name(file)}`, () => {
    const exact = load(file);
    for (const format of ['auto', 'pith', 'toon', 'hoisted-compact', 'table']) {
      const text = pith.encode(exact, { format });
      const want = cliOut(['decode', '-'], Buffer.from(text));
      const got = pith.decode(text, { bigint: true, exact: true });
      assert.ok(pith.encode(got, { format: 'json' }) === want, format);
    }
  });

  test(`decode gives the doubles JSON.parse gives: ${name(file)}`, () => {
    const text = fs.readFileSync(file, 'utf8');
    const want = JSON.stringify(JSON.parse(text));
    const exact = load(file);
    for (const delimiter of [',', '\t', '|']) {
      const toon = pith.encode(exact, { format: 'toon', delimiter });
      assert.ok(JSON.stringify(pith.decode(toon)) === want, JSON.stringify(delimiter));
      assert.ok(JSON.stringify(pith.decode(Buffer.from(toon), { lenient: true })) === want, JSON.stringify(delimiter));
    }
  });

  test(`token counts equal the CLI's: ${name(file)}`, () => {
    const text = fs.readFileSync(file, 'utf8');
    const toon = pith.encode(load(file), { format: 'toon' });
    for (const tokenizer of ['o200k', 'cl100k', 'bytes4']) {
      for (const t of [text, toon]) {
        const out = cliOut(['tokens', '--tokenizer', tokenizer], Buffer.from(t));
        assert.equal(pith.countTokens(t, tokenizer), Number(out.split('\t')[0]), tokenizer);
      }
    }
  });
}

for (const file of FILES.filter((f) => fs.statSync(f).size < 1_000_000)) {
  test(`layout and readability options match the CLI: ${name(file)}`, () => {
    const value = load(file);
    for (const [delimiter, flag] of [
      ['\t', 'tab'],
      ['|', 'pipe'],
    ]) {
      const want = cliOut(['encode', file, '--format', 'toon', '--delimiter', flag, '--indent', '4']);
      assert.ok(pith.encode(value, { format: 'toon', delimiter, indent: 4 }) === want, flag);
    }
    assert.ok(pith.encode(value, { tokenizer: 'cl100k' }) === cliOut(['encode', file, '--tokenizer', 'cl100k']), 'cl100k');
    for (const floor of [1, 3, 5]) {
      for (const format of ['auto', 'pith']) {
        const want = cliOut(['encode', file, '--format', format, '--min-readability', String(floor)]);
        assert.ok(pith.encode(value, { format, minReadability: floor }) === want, `${format} ${floor}`);
      }
    }
  });
}

for (const file of FILES.filter((f) => fs.statSync(f).size < 200_000)) {
  test(`measure equals the CLI's: ${name(file)}`, () => {
    const want = JSON.parse(cliOut(['measure', '--json', file])).files[0];
    const got = pith.measure(load(file));
    assert.equal(got.tokenizer, 'o200k');
    assert.deepStrictEqual(got.forms, want.forms);
    assert.deepStrictEqual(got.auto, want.auto);
  });
}

/** `fit` writes what `pith encode --budget` writes, notice and all. */
function sameAsCli(file, value, budget, cursor) {
  const args = ['encode', file, '--budget', String(budget), ...(cursor ? ['--cursor', cursor] : [])];
  const out = run(args);
  if (out.status === 3) {
    assert.throws(
      () => pith.encode(value, { budget, cursor }),
      (e) => e instanceof pith.BudgetExceededError && e.notice === out.stdout.toString() && e.budget === budget && e.minimum > budget,
    );
    return null;
  }
  assert.equal(out.status, 0, out.stderr.toString());
  const fitted = pith.fit(value, budget, { cursor });
  assert.ok(fitted.text === out.stdout.toString(), `budget ${budget}`);
  assert.equal(fitted.tokens, pith.countTokens(fitted.text));
  assert.ok(fitted.tokens <= budget);
  assert.equal(pith.encode(value, { budget, cursor }), fitted.text);
  return fitted;
}

for (const file of FILES.filter((f) => fs.statSync(f).size > 20_000)) {
  test(`budgets and cursors match the CLI: ${name(file)}`, () => {
    const value = load(file);
    const fitted = sameAsCli(file, value, 400);
    if (fitted === null) return;
    assert.ok(fitted.collectionsCut > 0 && fitted.rowsOmitted > 0);
    // Follow the first cursor one page, as the CLI does.
    const doc = pith.decode(fitted.text);
    const receipts = Object.entries(doc).filter(([k, v]) => k.endsWith('_omitted') && v && typeof v.cursor === 'string');
    assert.ok(receipts.length > 0, 'a receipt with a cursor');
    const cursor = receipts[0][1].cursor;
    sameAsCli(file, value, 300, cursor);
    sameAsCli(file, value, 5000, cursor);
  });
}
