'use strict';
// pith for Node.js: JSON for LLM agents in the fewest tokens, without losing
// a fact. The native module (pith.node, built from src/ with cargo when the
// package is installed) does the work; this file is the package's interface:
// it checks options, turns values into JSON text on the way in, rebuilds
// values from the native module's tape on the way out, and throws the error
// classes below.

const native = require('./pith.node');

/** Nesting deeper than this is refused, as pith's readers and writers do. */
const MAX_DEPTH = 256;

// ---------------------------------------------------------------------------
// Errors

/** Text that pith cannot decode; `line` and `column` (1-based, columns count
 * characters) say where, or `path` for a malformed table in the value. */
class DecodeError extends SyntaxError {
  constructor(message, { line, column, path, code } = {}) {
    super(message);
    this.name = 'DecodeError';
    this.line = line;
    this.column = column;
    this.path = path;
    this.code = code;
  }
}

/** A value pith cannot encode; `path` is its JSON path (`rows[2].price`, `$`). */
class EncodeError extends TypeError {
  constructor(message, { path, code } = {}) {
    super(message);
    this.name = 'EncodeError';
    this.path = path;
    this.code = code;
  }
}

/** No output of the value fits the budget. `notice` is the explicit
 * `output_budget_exceeded` notice to show instead; `minimum` is the smallest
 * budget that works (every larger one works too). */
class BudgetExceededError extends RangeError {
  constructor(message, fields) {
    super(message);
    this.name = 'BudgetExceededError';
    this.notice = fields.notice;
    this.budget = fields.budget;
    this.minimum = fields.minimum;
    this.unbounded = fields.unbounded;
    this.tokenizer = fields.tokenizer;
    this.collections = fields.collections;
    this.rows = fields.rows;
  }
}

// The options as this package names them, for messages from the native side.
const OPTION_NAMES = { min_readability: 'minReadability', min_saving: 'minSaving' };

function thrown(problem) {
  const at = problem.path !== undefined && problem.path !== null ? `at ${problem.path}: ` : '';
  switch (problem.kind) {
    case 'argument': {
      const name = OPTION_NAMES[problem.argument] || problem.argument;
      return new RangeError(`${name}: ${problem.message}`);
    }
    case 'decode': {
      const where = problem.line ? `line ${problem.line}, column ${problem.column}: ` : at;
      return new DecodeError(where + problem.message, {
        line: problem.line ?? undefined,
        column: problem.column ?? undefined,
        path: problem.path ?? undefined,
        code: problem.code ?? undefined,
      });
    }
    case 'budget':
      return new BudgetExceededError(problem.message, problem);
    case 'cursor':
      return new RangeError(`cursor: ${problem.message}`);
    default:
      return new EncodeError(at + problem.message, {
        path: problem.path ?? undefined,
        code: problem.code ?? undefined,
      });
  }
}

// ---------------------------------------------------------------------------
// Exact decimals

const hasRawJSON = typeof JSON.rawJSON === 'function';
// Set while encode runs JSON.stringify: an ExactNumber then needs the
// writer below (without JSON.rawJSON, JSON.stringify cannot write its digits).
let encoding = false;
const NEEDS_WRITER = Symbol('pith: needs the exact writer');
const TRUSTED = Symbol('pith: text already checked');

/** A number kept to every digit: what `decode(text, { exact: true })` returns
 * for numbers a JavaScript number cannot hold exactly, and what `encode`
 * writes digit for digit. `Number(x)` gives the nearest double. */
class ExactNumber {
  constructor(text, trusted) {
    text = String(text);
    if (trusted !== TRUSTED) {
      const why = native.checkNumber(text);
      if (why !== null && why !== undefined) throw new RangeError(why);
    }
    this.text = text;
    Object.freeze(this);
  }
  toString() {
    return this.text;
  }
  valueOf() {
    return Number(this.text);
  }
  toJSON() {
    if (hasRawJSON) return JSON.rawJSON(this.text);
    if (encoding) throw NEEDS_WRITER;
    return Number(this.text);
  }
  [Symbol.for('nodejs.util.inspect.custom')]() {
    return `ExactNumber(${this.text})`;
  }
}

// ---------------------------------------------------------------------------
// Values in: JSON text

/** The JSON text of `value`, as `JSON.stringify` writes it, with `BigInt`s
 * and `ExactNumber`s written digit for digit. */
function jsonText(value) {
  let text;
  encoding = true;
  try {
    text = JSON.stringify(value);
  } catch (e) {
    // A BigInt, a cycle, or an ExactNumber without JSON.rawJSON: the writer
    // below knows them all. Anything else is the caller's own error.
    if (e !== NEEDS_WRITER && !(e instanceof TypeError)) throw e;
    text = undefined;
  } finally {
    encoding = false;
  }
  if (text === undefined) text = writeJson(value);
  return text;
}

function pathOf(steps) {
  let out = '';
  for (const step of steps) {
    if (typeof step === 'number') out += `[${step}]`;
    else if (/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(step)) out += out === '' ? step : `.${step}`;
    else out += `[${JSON.stringify(step)}]`;
  }
  return out === '' ? '$' : out;
}

/** `JSON.stringify(value)` written out step by step, for the values it
 * cannot write (BigInt, ExactNumber) and to name the path of what pith
 * refuses: circular references, lone surrogates, nesting beyond 256 levels. */
function writeJson(root) {
  const steps = [];
  const open = [];
  const fail = (message) => {
    const path = pathOf(steps);
    throw new EncodeError(`at ${path}: ${message}`, { path });
  };
  const string = (s) => {
    if (!s.isWellFormed()) fail('the string holds a lone surrogate, which UTF-8 (and so pith) cannot hold');
    return JSON.stringify(s);
  };
  const property = (key, value) => {
    if (value instanceof ExactNumber) return value.text;
    if (value !== null && (typeof value === 'object' || typeof value === 'bigint')) {
      if (typeof value.toJSON === 'function') value = value.toJSON(key);
    }
    if (value instanceof ExactNumber) return value.text;
    if (value !== null && typeof value === 'object') {
      if (value instanceof Number) value = Number(value);
      else if (value instanceof String) value = String(value);
      else if (value instanceof Boolean || value instanceof BigInt) value = value.valueOf();
    }
    switch (typeof value) {
      case 'string':
        return string(value);
      case 'number':
        return Number.isFinite(value) ? String(value) : 'null';
      case 'boolean':
        return value ? 'true' : 'false';
      case 'bigint':
        return value.toString();
      case 'object':
        if (value === null) return 'null';
        if (open.includes(value)) fail('circular reference: the value contains itself');
        if (open.length >= MAX_DEPTH) fail(`nesting deeper than ${MAX_DEPTH} levels: expected at most ${MAX_DEPTH}`);
        open.push(value);
        try {
          return Array.isArray(value) ? array(value) : object(value);
        } finally {
          open.pop();
        }
      default:
        return undefined;
    }
  };
  const array = (a) => {
    const parts = new Array(a.length);
    for (let i = 0; i < a.length; i++) {
      steps.push(i);
      const s = property(String(i), a[i]);
      steps.pop();
      parts[i] = s === undefined ? 'null' : s;
    }
    return `[${parts.join(',')}]`;
  };
  const object = (o) => {
    const parts = [];
    for (const k of Object.keys(o)) {
      steps.push(k);
      const s = property(k, o[k]);
      if (s !== undefined) parts.push(`${string(k)}:${s}`);
      steps.pop();
    }
    return `{${parts.join(',')}}`;
  };
  const text = property('', root);
  if (text === undefined) fail(`${typeof root === 'undefined' ? 'undefined' : `a ${typeof root}`} has no JSON form`);
  return text;
}

/** The native result, or the error it stands for. A `json` problem is one
 * in the JSON text of `value`: the writer names its path. */
function unwrap(result, value) {
  if (result === null || typeof result !== 'object' || typeof result.kind !== 'string') return result;
  if (result.kind === 'json' && arguments.length > 1) writeJson(value);
  throw thrown(result);
}

// ---------------------------------------------------------------------------
// Options

function optionalString(options, name, fallback) {
  const v = options[name];
  if (v === undefined) return fallback;
  if (typeof v !== 'string') throw new TypeError(`${name}: expected a string, found ${typeof v}`);
  return v;
}

function optionalInteger(options, name, fallback) {
  const v = options[name];
  if (v === undefined) return fallback;
  if (!Number.isSafeInteger(v)) throw new TypeError(`${name}: expected an integer, found ${String(v)}`);
  return v;
}

function encodeOptions(options, budget) {
  if (options === null || typeof options !== 'object') throw new TypeError('options: expected an object');
  const out = {
    format: optionalString(options, 'format', 'auto'),
    tokenizer: optionalString(options, 'tokenizer', 'o200k'),
    minReadability: optionalInteger(options, 'minReadability', 4),
    cursor: optionalString(options, 'cursor', undefined),
    indent: optionalInteger(options, 'indent', 2),
    delimiter: optionalString(options, 'delimiter', ','),
  };
  if (typeof budget === 'string') out.budgetName = budget;
  else if (budget !== undefined) {
    if (!Number.isSafeInteger(budget)) {
      throw new TypeError(`budget: expected a number of tokens or "unbounded", found ${String(budget)}`);
    }
    out.budget = budget;
  }
  return out;
}

// ---------------------------------------------------------------------------
// The functions

/**
 * Encodes a JSON value as text: by default the cheapest form that keeps
 * every fact (auto), never more tokens than compact JSON.
 * @param {unknown} value
 * @param {import('./index').EncodeOptions} [options]
 * @returns {string}
 */
function encode(value, options = {}) {
  const opts = encodeOptions(options, options && options.budget);
  const text = jsonText(value);
  return unwrap(native.encodeJson(text, opts, false), value).text;
}

/**
 * Encodes within a token budget and reports what was cut.
 * @param {unknown} value
 * @param {number | 'unbounded'} budget
 * @param {import('./index').EncodeOptions} [options]
 * @returns {import('./index').Fitted}
 */
function fit(value, budget, options = {}) {
  if (budget === undefined) throw new TypeError('budget: expected a number of tokens or "unbounded"');
  const opts = encodeOptions(options, budget);
  const text = jsonText(value);
  const out = unwrap(native.encodeJson(text, opts, true), value);
  return {
    text: out.text,
    tokens: out.tokens,
    collectionsCut: out.collectionsCut,
    rowsOmitted: out.rowsOmitted,
  };
}

/** The 1-based line and column (in characters) of UTF-16 index `at` of `s`. */
function position(s, at) {
  let line = 1;
  let start = 0;
  for (let i = s.indexOf('\n'); i !== -1 && i < at; i = s.indexOf('\n', i + 1)) {
    line++;
    start = i + 1;
  }
  return { line, column: [...s.slice(start, at)].length + 1 };
}

/** The UTF-16 index of the first lone surrogate in `s`. */
function loneSurrogate(s) {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) i++;
      else return i;
    } else if (c >= 0xdc00 && c <= 0xdfff) {
      return i;
    }
  }
  return -1;
}

/**
 * Decodes any text `encode` writes back to a value.
 * @param {string | Uint8Array} text
 * @param {import('./index').DecodeOptions} [options]
 * @returns {unknown}
 */
function decode(text, options = {}) {
  if (options === null || typeof options !== 'object') throw new TypeError('options: expected an object');
  const lenient = options.lenient === true;
  const bigint = options.bigint === true;
  const exact = options.exact === true;
  let input = text;
  if (typeof text === 'string') {
    if (!text.isWellFormed()) {
      const p = position(text, loneSurrogate(text));
      throw new DecodeError(
        `line ${p.line}, column ${p.column}: expected text, found a lone surrogate, which UTF-8 cannot hold`,
        { ...p, code: 'LoneSurrogate' },
      );
    }
  } else if (text instanceof Uint8Array) {
    input = Buffer.isBuffer(text) ? text : Buffer.from(text.buffer, text.byteOffset, text.byteLength);
  } else {
    throw new TypeError(`text: expected a string or a Uint8Array, found ${typeof text}`);
  }
  return build(unwrap(native.decodeTape(input, lenient, bigint, exact)));
}

/**
 * Counts the tokens of `text` exactly as tiktoken does (`o200k`, `cl100k`),
 * or estimates them as ceil(bytes / 4) (`bytes4`).
 * @param {string} text
 * @param {string} [tokenizer]
 * @returns {number}
 */
function countTokens(text, tokenizer = 'o200k') {
  if (typeof text !== 'string') throw new TypeError(`text: expected a string, found ${typeof text}`);
  if (!text.isWellFormed()) throw new TypeError('text: holds a lone surrogate, which has no UTF-8 and no tokens');
  return unwrap(native.countTokens(text, String(tokenizer)));
}

/**
 * Every form's bytes and tokens for `value`, and what auto chose (the entry
 * `pith measure --json` writes for a file, with the tokenizer).
 * @param {unknown} value
 * @param {{ tokenizer?: string }} [options]
 */
function measure(value, options = {}) {
  const tokenizer = optionalString(options, 'tokenizer', 'o200k');
  const text = jsonText(value);
  return JSON.parse(unwrap(native.measureJson(text, tokenizer), value));
}

// ---------------------------------------------------------------------------
// Values out: the tape (see src/tape.rs for its layout)

const ESCAPE = 2 ** 29 - 1;
// Objects of a shape used this often, with at most this many keys, are built
// by a function with an object literal of their keys: V8 makes those far
// faster than objects grown one property at a time.
const LITERAL_USES = 8;
const LITERAL_KEYS = 64;
let literals = true;

function maker(keys, uses) {
  if (literals && uses >= LITERAL_USES && keys.length <= LITERAL_KEYS) {
    // A JSON string is a JavaScript string literal; `__proto__` as a
    // computed key defines a property, where a plain one would set the
    // prototype.
    const members = keys.map((k) => `${k === '__proto__' ? '["__proto__"]' : JSON.stringify(k)}:next()`);
    try {
      return new Function('next', `return {${members.join(',')}};`);
    } catch {
      literals = false; // code generation from strings is turned off here
    }
  }
  return (next) => {
    const o = {};
    for (let j = 0; j < keys.length; j++) {
      const k = keys[j];
      if (k === '__proto__') {
        Object.defineProperty(o, k, { value: next(), writable: true, enumerable: true, configurable: true });
      } else {
        o[k] = next();
      }
    }
    return o;
  };
}

function build(t) {
  const { ops, nums, short, long, keys: keyText, keyLens, shapes } = t;
  const keys = new Array(keyLens.length);
  for (let i = 0, p = 0; i < keyLens.length; i++) {
    keys[i] = keyText.slice(p, p + keyLens[i]);
    p += keyLens[i];
  }
  const makers = [];
  for (let s = 0; s < shapes.length; ) {
    const n = shapes[s];
    const uses = shapes[s + 1];
    const ks = new Array(n);
    for (let j = 0; j < n; j++) ks[j] = keys[shapes[s + 2 + j]];
    makers.push(maker(ks, uses));
    s += 2 + n;
  }
  let i = 0;
  let ni = 0;
  let sp = 0;
  let lp = 0;
  const payload = (op) => {
    const p = op >>> 3;
    return p === ESCAPE ? ops[i++] : p;
  };
  const str = (op) => {
    const n = payload(op);
    if ((op & 7) === 4) {
      const s = short.slice(sp, sp + n);
      sp += n;
      return s;
    }
    const s = long.toString('utf8', lp, lp + n);
    lp += n;
    return s;
  };
  const next = () => {
    const op = ops[i++];
    switch (op & 7) {
      case 0:
        return null;
      case 1:
        return false;
      case 2:
        return true;
      case 3: {
        const how = op >>> 3;
        if (how === 0) return nums[ni++];
        const text = str(ops[i++]);
        return how === 1 ? BigInt(text) : new ExactNumber(text, TRUSTED);
      }
      case 4:
      case 5:
        return str(op);
      case 6: {
        const n = payload(op);
        const a = new Array(n);
        for (let j = 0; j < n; j++) a[j] = next();
        return a;
      }
      default:
        return makers[payload(op)](next);
    }
  };
  return next();
}

// Kept for pith/mcp.
function toolText(text, minSaving, budget, tokenizer) {
  return unwrap(native.toolText(text, minSaving, budget, tokenizer));
}

exports.encode = encode;
exports.decode = decode;
exports.fit = fit;
exports.countTokens = countTokens;
exports.measure = measure;
exports.ExactNumber = ExactNumber;
exports.DecodeError = DecodeError;
exports.EncodeError = EncodeError;
exports.BudgetExceededError = BudgetExceededError;
exports._jsonText = jsonText;
exports._toolText = toolText;
