'use strict';
// Round trips under the fact-preservation contract: decode(encode(x)) is x
// in every form, numbers exact where the caller asks for it, strings and key
// order as given, look-alikes of pith's own tables kept as they are.

const test = require('node:test');
const assert = require('node:assert/strict');
const { pith, ordered } = require('./support.js');

const { encode, decode, ExactNumber } = pith;
const FORMATS = ['auto', 'pith', 'toon', 'toon3', 'hoisted', 'hoisted-compact', 'table', 'json'];

/** decode(encode(v)) in every form, keys in order. */
function roundTrips(v, decodeOptions = {}) {
  for (const format of FORMATS) {
    const text = encode(v, { format });
    assert.deepStrictEqual(ordered(decode(text, decodeOptions)), ordered(v), `${format}: ${text}`);
  }
}

test('integers beyond 2^53 cross as BigInt, both ways', () => {
  const ints = [2n ** 53n + 1n, -(2n ** 64n), 10n ** 40n + 7n, 123456789012345678901234567890n];
  const v = { ints, rows: ints.map((n, i) => ({ i, n })) };
  roundTrips(v, { bigint: true });
  assert.match(encode(v, { format: 'toon' }), /ints\[4\]: 9007199254740993,-18446744073709551616,/);
  assert.match(encode(v, { format: 'json' }), /"ints":\[9007199254740993,-18446744073709551616,10000000000000000000000000000000000000007,123456789012345678901234567890\]/);
  // Without the option they are the nearest doubles; safe integers stay numbers.
  const plain = decode('a: 9007199254740993\nb: 12', {});
  assert.equal(plain.a, 9007199254740992);
  const big = decode('a: 9007199254740993\nb: 12', { bigint: true });
  assert.equal(big.a, 9007199254740993n);
  assert.equal(big.b, 12);
  assert.equal(typeof big.b, 'number');
});

test('a whole number written with an exponent is a BigInt too', () => {
  assert.equal(decode('n: 1e+30', { bigint: true }).n, 10n ** 30n);
  assert.equal(decode('[1e21]', { bigint: true })[0], 10n ** 21n);
  assert.equal(decode('n: -12345678901234567891', { bigint: true }).n, -12345678901234567891n);
});

test('an integer too long for a BigInt is an ExactNumber, never Infinity', () => {
  // A few characters spell an integer of a million digits or a billion:
  // as a BigInt it would cost seconds and gigabytes, as the nearest double
  // it would be an infinity. Its exact text crosses instead.
  for (const options of [{ bigint: true }, { bigint: true, exact: true }]) {
    for (const [text, exact] of [
      ['1e1000000', '1e+1000000'],
      ['-1e999999999', '-1e+999999999'],
      ['n: 1.5e+2000000', '1.5e+2000000'],
    ]) {
      const v = decode(text, options);
      const n = typeof v === 'object' && !(v instanceof ExactNumber) ? v.n : v;
      assert.ok(n instanceof ExactNumber, `${text}: ${String(n)}`);
      assert.equal(n.text, exact);
      assert.equal(encode(n), exact);
    }
  }
  // The BigInts of one text hold 100,000 digits and 8 a byte of the text in
  // all, so a short text of such numbers costs milliseconds: the first
  // 1e99999 is a BigInt, the rest are exact decimals.
  const many = `[${Array(1000).fill('1e99999').join(',')}]`;
  const started = process.hrtime.bigint();
  const back = decode(many, { bigint: true });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  assert.equal(back[0], 10n ** 99999n);
  assert.ok(back.slice(1).every((x) => x instanceof ExactNumber && x.text === '1e+99999'));
  assert.ok(ms < 2000, `${many.length} bytes took ${ms} ms`);
  // Integers written out in full are BigInts however long.
  const digits = '9'.repeat(300000);
  assert.equal(decode(`[${digits}, ${digits}]`, { bigint: true })[1], BigInt(digits));
});

test('exact decimals keep every digit', () => {
  const texts = ['0.1000000000000000055511', '123456789012345678901234567890.5', '1E+400', '-1e-400', '3.14159265358979323846264338327950288'];
  // Decoded numbers are spelled as pith writes them: digits or a mantissa and an exponent.
  const canonical = ['0.1000000000000000055511', '1.234567890123456789012345678905e+29', '1e+400', '-1e-400', '3.14159265358979323846264338327950288'];
  const v = { xs: texts.map((t) => new ExactNumber(t)) };
  for (const format of FORMATS) {
    const back = decode(encode(v, { format }), { exact: true });
    assert.deepEqual(back.xs.map((x) => x.text), canonical, format);
    assert.ok(back.xs.every((x) => x instanceof ExactNumber), format);
  }
  // A number a double holds exactly stays a number under { exact: true }.
  const d = decode('a: 0.5\nb: 0.1\nc: 0.10000000000000001', { exact: true });
  assert.equal(d.a, 0.5);
  assert.equal(d.b, 0.1);
  assert.ok(d.c instanceof ExactNumber && d.c.text === '0.10000000000000001');
  assert.equal(Number(d.c), 0.1);
  // Without it, the nearest double.
  assert.equal(decode('x: 0.1000000000000000055511').x, 0.1);
});

test('an ExactNumber\'s JSON is exact with JSON.rawJSON; encode writes exact JSON on every Node', () => {
  const text = '0.1000000000000000055511151231257827';
  const v = { x: decode(text, { exact: true }) };
  assert.ok(v.x instanceof ExactNumber);
  // Node 20 has no JSON.rawJSON: JSON.stringify writes the nearest double,
  // as index.d.ts says, and encode's json form is the exact text.
  const stringified = typeof JSON.rawJSON === 'function' ? `{"x":${text}}` : '{"x":0.1}';
  assert.equal(JSON.stringify(v), stringified);
  assert.equal(encode(v, { format: 'json' }), `{"x":${text}}`);
});

test('ExactNumber refuses text that is no number pith keeps', () => {
  for (const bad of ['abc', '01', '1.', '.5', '+1', '1e', 'NaN', '1e99999999999', '']) {
    assert.throws(() => new ExactNumber(bad), RangeError, bad);
  }
  assert.equal(new ExactNumber('-0.50').text, '-0.50');
});

test('doubles are written as their shortest decimals and read back as the same doubles', () => {
  let s = 0x2545f491;
  const rand = () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 2 ** 32;
  };
  const xs = [0.1, 0.2 + 0.1, 956.02, 1e21, 1e-7, 5e-324, 1.7976931348623157e308, -2.5, 2 ** 53, -(2 ** 53) - 2];
  for (let i = 0; i < 3000; i++) {
    xs.push(Math.round(rand() * 1e6) / 100);
    xs.push((rand() - 0.5) * 10 ** Math.floor(rand() * 40 - 20));
    const buf = new Float64Array(new Uint32Array([(rand() * 2 ** 32) >>> 0, (rand() * 2 ** 32) >>> 0]).buffer);
    if (Number.isFinite(buf[0])) xs.push(buf[0]);
  }
  // pith's JSON spells whole numbers out in digits; JSON.parse reads the same doubles.
  const json = JSON.parse(encode(xs, { format: 'json' }));
  for (let i = 0; i < xs.length; i++) assert.ok(Object.is(json[i], xs[i]), `json: ${xs[i]} became ${json[i]}`);
  for (const format of FORMATS) {
    const back = decode(encode(xs, { format }));
    assert.equal(back.length, xs.length);
    for (let i = 0; i < xs.length; i++) assert.ok(Object.is(back[i], xs[i]), `${format}: ${xs[i]} became ${back[i]}`);
  }
  // -0 is 0, as JSON.stringify writes it.
  assert.ok(Object.is(decode(encode({ z: -0 })).z, 0));
});

test('unicode strings and keys cross unchanged', () => {
  const strings = [
    'Chloé', '日本語のテキスト', '😀 emoji 👩‍👩‍👧', 'e\u0301 combining', '\u0000\u0001\u001f control', 'tab\tnew\nline\r',
    '"quoted" \\ back', '\u2028\u2029', '\uFEFFbom', 'a'.repeat(40) + 'é', 'ünïcödé key value that is long enough to cross as a long string',
  ];
  const v = { strings, keyed: Object.fromEntries(strings.map((s, i) => [s, i])), rows: strings.map((s, i) => ({ s, i })) };
  roundTrips(v);
  // Each length of UTF-8 at its edges, and pairs at a string's end, in
  // strings on either side of the length the walk hands to Buffer.
  const edges = ['\u007f', '\u0080', '\u07ff', '\u0800', '\ud7ff', '\ue000', '\uffff', '\u{10000}', '\u{10ffff}', '😀'];
  const around = [];
  for (const e of edges) {
    for (const n of [0, 1, 30, 31, 32, 33, 40]) around.push('a'.repeat(n) + e, e + 'b'.repeat(n), e.repeat(n + 1));
  }
  roundTrips({ around, keys: Object.fromEntries(around.map((s, i) => [s, i])) });
  // The decoder takes UTF-8 bytes too.
  const text = encode(v);
  assert.deepStrictEqual(ordered(decode(Buffer.from(text))), ordered(v));
  assert.deepStrictEqual(ordered(decode(new TextEncoder().encode(text))), ordered(v));
});

test('key order is kept, in objects and in the rows of tables', () => {
  const v = {
    zeta: 1,
    alpha: { y: 1, b: 2, a: 3 },
    mid: [1, 2],
    rows: Array.from({ length: 12 }, (_, i) => ({ z: i, a: `n${i}`, m: i % 2 === 0 })),
  };
  roundTrips(v);
  const back = decode(encode(v));
  assert.deepEqual(Object.keys(back), ['zeta', 'alpha', 'mid', 'rows']);
  assert.deepEqual(Object.keys(back.rows[11]), ['z', 'a', 'm']);
  // JavaScript itself puts integer-like keys first; pith keeps what JavaScript gives it.
  assert.deepEqual(Object.keys(decode(encode({ b: 1, 2: 2, a: 3 }))), ['2', 'b', 'a']);
});

test('look-alikes of tables, wrappers and literals are kept as they are', () => {
  const values = [
    { cols: ['a'], dict: {}, rows: [[1]] },
    { cols: ['a', 'b'], dict: { a: ['x'] }, rows: [[0, 1]], absent: {} },
    { items: [{ a: 1 }], items_encoding: { json_columns: [] } },
    { items: [['[1]']], items_encoding: { json_columns: ['0'] } },
    { $pith: 'toon', value: [1, 2] },
    { $pith: 'table', value: { cols: ['a'], dict: {}, rows: [[1]] } },
    ['true', 'false', 'null', '1', '-1', '1e5', '-', '', ' ', '[1]', '{}', 'a: b', '%pith', '#', '- x', '"q"'],
    { '': 1, ' ': 2, 'a b': 3, 'a.b': 4, '[0]': 5, '-': 6, '#': 7, '%pith': 8, 'x:y': 9 },
    [[], {}, [[]], [{}], { a: [] }, { a: {} }],
    [{ a: 1 }, { a: 1, b: 2 }, { b: 2 }, 5, 'x', [1]],
    '%pith\nrows[1]{a}:\n1',
    'plain string',
    42,
    null,
  ];
  for (const v of values) roundTrips(v);
});

test('a __proto__ key is an own member, both ways', () => {
  const v = JSON.parse('{"__proto__": {"x": 1}, "rows": [{"__proto__": 1, "b": 2}, {"__proto__": 3, "b": 4}]}');
  for (const format of FORMATS) {
    const back = decode(encode(v, { format }));
    assert.ok(Object.hasOwn(back, '__proto__'), format);
    assert.equal(Object.getPrototypeOf(back), Object.prototype, format);
    assert.deepEqual(back.__proto__, { x: 1 });
    assert.equal(back.rows[1].__proto__, 3);
    assert.equal(encode(back, { format: 'json' }), JSON.stringify(v));
  }
  // Many rows of that shape take the literal path of the decoder.
  const rows = Array.from({ length: 20 }, (_, i) => JSON.parse(`{"__proto__": ${i}, "b": ${i}}`));
  const back = decode(encode(rows));
  assert.ok(back.every((r, i) => Object.hasOwn(r, '__proto__') && r.__proto__ === i && r.b === i));
});

test('values are taken as JSON.stringify takes them', () => {
  class Point {
    constructor() {
      this.x = 1;
      this.y = 2;
    }
  }
  const v = {
    date: new Date(0),
    undef: undefined,
    fn() {},
    sym: Symbol('s'),
    nan: NaN,
    inf: -Infinity,
    arr: [undefined, () => 1, Symbol('t'), NaN],
    boxed: [new Number(5), new String('s'), new Boolean(false), Object(7n)],
    point: new Point(),
    custom: { toJSON: (key) => `key was ${key}` },
    nested: { toJSON: () => ({ deep: [1, { toJSON: () => 'inner' }] }) },
    typed: new Uint8Array([1, 2]),
    map: new Map([[1, 2]]),
  };
  // JSON.stringify refuses a BigInt, boxed or not; pith writes its digits.
  assert.equal(encode(v, { format: 'json' }), JSON.stringify({ ...v, boxed: [5, 's', false, 7] }));
  // A toJSON that gives undefined leaves the member out, and nulls an item.
  assert.equal(encode({ a: { toJSON: () => undefined }, b: 1 }, { format: 'json' }), '{"b":1}');
  assert.equal(encode([{ toJSON: () => undefined }], { format: 'json' }), '[null]');
  // A getter runs once.
  let reads = 0;
  const o = {
    get g() {
      reads++;
      return reads;
    },
  };
  assert.equal(encode(o, { format: 'json' }), '{"g":1}');
  assert.equal(reads, 1);
  assert.equal(encode({ n: 5n }, { format: 'json' }), '{"n":5}');
});

test('a toJSON method may call encode itself', () => {
  const inner = { toJSON: () => encode({ a: [1, 2, 3] }, { format: 'toon' }) };
  const v = { list: Array.from({ length: 3 }, () => inner), n: 1 };
  assert.equal(decode(encode(v)).list[2], 'a[3]: 1,2,3');
});

test('large values cross in both directions', () => {
  const rows = Array.from({ length: 20000 }, (_, i) => ({
    id: i,
    name: `name ${i} ${'é'.repeat(i % 3)}`,
    price: i / 100,
    ok: i % 2 === 0,
    tags: i % 5 === 0 ? [] : ['a', 'b'],
    big: BigInt(i + 1) * 10n ** 20n,
  }));
  for (const format of ['auto', 'toon', 'json']) {
    const back = decode(encode({ rows }, { format }), { bigint: true });
    assert.deepStrictEqual(ordered(back.rows), ordered(rows), format);
  }
  const long = 'x'.repeat(1 << 20) + '😀';
  assert.equal(decode(encode({ long })).long, long);
});

test('nesting up to 256 levels is written; deeper and cyclic values are refused with their path', () => {
  let v = 1;
  for (let i = 0; i < 255; i++) v = [v];
  assert.deepEqual(decode(encode({ v }, { format: 'json' })), { v });
  let deep = 1;
  for (let i = 0; i < 300; i++) deep = { d: deep };
  assert.throws(() => encode(deep), (e) => e instanceof pith.EncodeError && /deeper than 256/.test(e.message) && e.path.startsWith('d.d.d'));
  const cyclic = { a: [{ b: 1 }] };
  cyclic.a[0].self = cyclic;
  assert.throws(() => encode(cyclic), (e) => e instanceof pith.EncodeError && e.path === 'a[0].self' && /circular/.test(e.message));
});

/** A random JSON value (with BigInts), in a few levels. */
function randomValue(next, depth = 0) {
  const kinds = depth > 3 ? 6 : 9;
  const pick = (xs) => xs[Math.floor(next() * xs.length)];
  switch (Math.floor(next() * kinds)) {
    case 0:
      return null;
    case 1:
      return next() < 0.5;
    case 2:
      return Math.floor((next() - 0.5) * 2e6);
    case 3:
      return (next() - 0.5) * 10 ** Math.floor(next() * 40 - 20);
    case 4:
      return BigInt(Math.floor(next() * 1e9)) * 10n ** 20n;
    case 5:
      return pick(['', 'a', 'x y', 'null', '1', '-1.5', 'é', '🎉', 'a,b', 'k: v', '\n', '[2]', ' pad', '-', 'a|b', 't\tb']);
    case 6:
      return Array.from({ length: Math.floor(next() * 5) }, () => randomValue(next, depth + 1));
    case 7: {
      const o = {};
      for (let i = Math.floor(next() * 5); i > 0; i--) o[pick(['a', 'b', 'x y', 'id', ''] ) + i] = randomValue(next, depth + 1);
      return o;
    }
    default: {
      const keys = ['id', 'name', 'tags', 'meta', 'n'].filter(() => next() < 0.6);
      return Array.from({ length: 1 + Math.floor(next() * 5) }, () => {
        const row = {};
        for (const k of keys) if (next() < 0.9) row[k] = randomValue(next, depth + 2);
        return row;
      });
    }
  }
}

test('format toon written from the walk is what the library writes from the value', () => {
  // A member whose toJSON gives undefined is left out, and sends the whole
  // value through JSON text and the library's value: the same value.
  const viaLibrary = (v) => ({ ...v, left: { toJSON: () => undefined } });
  let seed = 7;
  const next = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  for (let i = 0; i < 400; i++) {
    const v = { v: randomValue(next), rows: Array.from({ length: 3 }, () => ({ a: randomValue(next, 3), b: 1 })) };
    for (const delimiter of [',', '\t', '|']) {
      const options = { format: 'toon', delimiter, indent: 1 + (i % 3) };
      assert.equal(encode(v, options), encode(viaLibrary(v), options));
    }
  }
});

test('a double that two shortest decimals read back as is written as JSON.stringify writes it', () => {
  const doubles = [255908966064453.125, -943238624648691.25, 0.1 + 0.2];
  assert.equal(encode(doubles, { format: 'json' }), JSON.stringify(doubles));
  assert.equal(encode({ d: doubles }, { format: 'toon' }), `d[3]: ${doubles.join(',')}`);
});
