'use strict';
// Errors are Error subclasses that say where: DecodeError with the line and
// column the CLI reports, EncodeError with the JSON path, RangeError and
// TypeError naming the option.

const test = require('node:test');
const assert = require('node:assert/strict');
const { pith, run } = require('./support.js');

const { decode, encode, DecodeError, EncodeError, BudgetExceededError } = pith;

/** The error `f` throws (failing when it throws none). */
function thrown(f) {
  try {
    f();
  } catch (e) {
    return e;
  }
  return assert.fail('expected an error');
}

/** The CLI's message for decoding `input`: "line L, column C: …", without the snippet. */
function cliMessage(input, args = []) {
  const out = run(['decode', '-', ...args], Buffer.from(input));
  assert.equal(out.status, 1, `the CLI refuses ${JSON.stringify(input)}`);
  const first = out.stderr.toString().split('\n')[0];
  assert.match(first, /^pith: -: /);
  return first.slice('pith: -: '.length);
}

const BAD = [
  ['a: 1\nb c', 2, 1],
  ['a:\n  b: 1\n   c: 2', 3, 4],
  ['rows[3]: 1,2', 1, null],
  ['rows[2]{a,b}:\n  1,2\n  3', 3, null],
  ['ü: "open', 1, null],
  ['日本: 1\n日本: 2', 2, null],
  ['{"a":1,}', 1, 8],
  ['{"a":1,"a":2}', 1, null],
  ['[1, 2', 1, null],
  ['{"a": 1e999999999999}', 1, null],
  ['%pith\nrows[2]{a}:\n1', 2, null],
  ['%pith\n&x: 1\na: *y', 3, null],
  ['a: "\\q"', 1, null],
];

test('a DecodeError carries the line and column the CLI reports', () => {
  for (const [input, line, column] of BAD) {
    const caught = thrown(() => decode(input));
    assert.ok(caught instanceof DecodeError, `${JSON.stringify(input)}: ${caught}`);
    assert.ok(caught instanceof SyntaxError && caught instanceof Error);
    assert.equal(caught.name, 'DecodeError');
    assert.equal(caught.line, line, JSON.stringify(input));
    if (column !== null) assert.equal(caught.column, column, JSON.stringify(input));
    assert.ok(Number.isInteger(caught.column) && caught.column >= 1);
    assert.equal(caught.message, cliMessage(input), JSON.stringify(input));
    assert.equal(typeof caught.code, 'string');
  }
});

test('columns count characters, not bytes or UTF-16 units', () => {
  const toon = thrown(() => decode('key: 😀é\n😀😀 x'));
  assert.equal(toon.line, 2);
  assert.equal(toon.message, cliMessage('key: 😀é\n😀😀 x'));
  const json = thrown(() => decode('{"a": "😀😀", x}'));
  assert.deepEqual([json.line, json.column], [1, 13]);
  assert.equal(json.message, cliMessage('{"a": "😀😀", x}'));
});

test('lenient decoding reads what strict refuses', () => {
  assert.throws(() => decode('rows[3]: 1,2'), DecodeError);
  assert.equal(cliMessage('rows[3]: 1,2').startsWith('line 1'), true);
  assert.deepEqual(decode('rows[3]: 1,2', { lenient: true }), { rows: [1, 2] });
});

test('text that is no UTF-8, and strings with lone surrogates, are refused with their place', () => {
  const bytes = Buffer.from([0x61, 0x3a, 0x20, 0xff, 0x0a]);
  assert.throws(() => decode(bytes), (e) => e instanceof DecodeError && e.line === 1 && e.column === 4);
  assert.throws(
    () => decode('a: 1\nb: x\uD800y'),
    (e) => e instanceof DecodeError && e.line === 2 && e.column === 5 && e.code === 'LoneSurrogate',
  );
  assert.throws(() => decode(42), TypeError);
});

test('an EncodeError names the JSON path of what pith cannot write', () => {
  const cases = [
    [{ rows: [{ ok: 1 }, { name: 'bad \uDC00' }] }, 'rows[1].name', /lone surrogate/],
    [{ 'odd key': ['\uD83D'] }, '["odd key"][0]', /lone surrogate/],
    [undefined, '$', /no JSON form/],
    [() => 1, '$', /no JSON form/],
  ];
  for (const [value, path, message] of cases) {
    assert.throws(
      () => encode(value),
      (e) => e instanceof EncodeError && e instanceof TypeError && e.path === path && message.test(e.message) && e.message.startsWith(`at ${path}: `),
      path,
    );
  }
  // A key with a lone surrogate too.
  assert.throws(() => encode({ ['k\uD800']: 1 }), (e) => e instanceof EncodeError && /lone surrogate/.test(e.message));
  // Halves alone at a string's end, before another character, in the wrong
  // order, and in strings short and long.
  for (const bad of ['x\uD83D', '\uD83Dx', '\uD83D\uE000', '\uDE00\uD83D', 'é\uD83D😀', 'y'.repeat(40) + '\uD83D', '\uDE00' + 'é'.repeat(40)]) {
    for (const value of [{ a: [1, { b: bad }] }, { a: [1, { [bad]: 1 }] }]) {
      assert.throws(() => encode(value, { format: 'toon' }), (e) => e instanceof EncodeError && /lone surrogate/.test(e.message), JSON.stringify(bad));
    }
  }
  assert.throws(() => encode({ a: [1, { b: 'x\uD83D' }] }), (e) => e.path === 'a[1].b');
  // Two lone halves next to each other are two errors, not one character.
  assert.throws(() => encode(['\uD83D', '\uDE00']), (e) => e instanceof EncodeError && e.path === '[0]');
  assert.throws(() => encode({ a: '\uD83D', b: '\uDE00' }), (e) => e instanceof EncodeError && e.path === 'a');
});

test('options out of range are RangeErrors, of the wrong type TypeErrors, each naming the option', () => {
  const value = { a: [1, 2] };
  const range = [
    [{ format: 'yaml' }, /^format: unknown format "yaml"/],
    [{ tokenizer: 'gpt2' }, /^tokenizer: /],
    [{ minReadability: 0 }, /^minReadability: expected a readability score from 1 to 5, found 0/],
    [{ indent: 0 }, /^indent: /],
    [{ delimiter: ';' }, /^delimiter: /],
    [{ budget: -1 }, /^budget: /],
    [{ cursor: 'c0-1-00000000' }, /^cursor: a cursor needs a budget/],
    [{ budget: 100, cursor: 'nonsense' }, /^cursor: /],
  ];
  for (const [options, message] of range) {
    assert.throws(() => encode(value, options), (e) => e instanceof RangeError && message.test(e.message), JSON.stringify(options));
  }
  const types = [{ format: 1 }, { indent: '2' }, { minReadability: 2.5 }, { budget: 1.5 }, { budget: {} }];
  for (const options of types) assert.throws(() => encode(value, options), TypeError, JSON.stringify(options));
  assert.throws(() => encode(value, null), TypeError);
  assert.throws(() => decode('a: 1', null), TypeError);
  assert.throws(() => pith.countTokens('x', 'p50k'), RangeError);
  assert.throws(() => pith.countTokens(5), TypeError);
  assert.throws(() => pith.countTokens('\uD800'), TypeError);
});

test('an unknown option, or a value of the wrong type, is a TypeError naming it', () => {
  const { fit, measure } = pith;
  const value = { a: [1, 2] };
  const unknown = [
    [() => encode(value, { fromat: 'json' }), 'fromat', 'format', 'encode'],
    [() => encode(value, { min_readability: 5 }), 'min_readability', 'minReadability', 'encode'],
    [() => encode(value, { Indent: 4 }), 'Indent', 'indent', 'encode'],
    [() => fit(value, 100, { delimeter: '|' }), 'delimeter', 'delimiter', 'fit'],
    [() => decode('12345678901234567890123', { bigInt: true }), 'bigInt', 'bigint', 'decode'],
    [() => decode('a: 1', { strict: false }), 'strict', null, 'decode'],
    [() => measure(value, { tokeniser: 'cl100k' }), 'tokeniser', 'tokenizer', 'measure'],
  ];
  for (const [call, name, near, what] of unknown) {
    assert.throws(
      call,
      (e) =>
        e instanceof TypeError &&
        e.message.startsWith(`options: unknown option "${name}"${near ? `, did you mean "${near}"?` : ''} (${what} takes `),
      name,
    );
  }
  // fit's budget is its argument, never an option beside it.
  assert.throws(() => fit(value, 100, { budget: 5 }), (e) => e instanceof TypeError && /^options: fit takes its budget as its second argument/.test(e.message));
  // Flags are true or false: anything else would be taken by truthiness.
  for (const name of ['lenient', 'bigint', 'exact']) {
    for (const [v, found] of [['yes', '"yes"'], [1, '1'], [0, '0'], [null, 'null'], ['false', '"false"']]) {
      assert.throws(
        () => decode('a: 1', { [name]: v }),
        (e) => e instanceof TypeError && e.message === `${name}: expected true or false, found ${found}`,
        `${name}: ${found}`,
      );
    }
  }
  assert.throws(() => measure(value, { tokenizer: 5 }), (e) => e instanceof TypeError && /^tokenizer: /.test(e.message));
  // Options are an object or undefined: null, arrays and strings are refused with a message.
  for (const [call, what] of [
    [(o) => encode(value, o), 'encode'],
    [(o) => fit(value, 100, o), 'fit'],
    [(o) => decode('a: 1', o), 'decode'],
    [(o) => measure(value, o), 'measure'],
  ]) {
    for (const [options, found] of [[null, 'null'], [['json'], 'an array'], ['json', '"json"'], [true, 'true']]) {
      assert.throws(
        () => call(options),
        (e) => e instanceof TypeError && e.message === `options: expected an object of options for ${what}, or undefined, found ${found}`,
        `${what}: ${found}`,
      );
    }
  }
  // undefined, for the options or any one of them, is no options.
  assert.equal(encode(value, undefined), encode(value));
  assert.equal(encode(value, { format: undefined, budget: undefined }), encode(value));
  assert.deepEqual(decode('a: 1', { bigint: undefined, lenient: false }), { a: 1 });
  assert.equal(measure(value, undefined).tokenizer, 'o200k');
  assert.equal(fit(value, 'unbounded', undefined).text, encode(value));
});

test('a budget no output fits is a BudgetExceededError with the notice', () => {
  const rows = Array.from({ length: 50 }, (_, i) => ({ id: i, name: `item ${i}` }));
  const out = run(['encode', '-', '--budget', '5'], Buffer.from(JSON.stringify({ rows })));
  assert.equal(out.status, 3);
  assert.throws(
    () => encode({ rows }, { budget: 5 }),
    (e) =>
      e instanceof BudgetExceededError &&
      e instanceof RangeError &&
      e.notice === out.stdout.toString() &&
      e.budget === 5 &&
      e.minimum > 5 &&
      e.unbounded > e.minimum &&
      e.tokenizer === 'o200k' &&
      e.collections === 1 &&
      e.rows === 50,
  );
  assert.throws(() => pith.fit({ rows }, 5), BudgetExceededError);
});
