'use strict';
// pith for Node.js: JSON for LLM agents in the fewest tokens, without losing
// a fact. The native module (pith.node, built from src/ with cargo when the
// package is installed) does the work; this file is the package's interface:
// it checks options, walks values into a tape on the way in, rebuilds
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
    // Without JSON.rawJSON (Node.js 20) toJSON cannot make JSON.stringify
    // write the digits as they are, and a string would change the number
    // into text: the nearest double it is. index.d.ts says so, and points
    // to encode(value, { format: 'json' }), which is exact everywhere.
    return Number(this.text);
  }
  [Symbol.for('nodejs.util.inspect.custom')]() {
    return `ExactNumber(${this.text})`;
  }
}

// ---------------------------------------------------------------------------
// Values in: a tape (see src/input.rs for its layout)

const ESCAPE = 2 ** 29 - 1;
const isRawJSON = typeof JSON.isRawJSON === 'function' ? JSON.isRawJSON : undefined;
// Thrown by the walk for what it leaves to writeJson: nesting deeper than
// MAX_DEPTH (a cycle, or a value too deep: writeJson says which, and where),
// and a member that toJSON leaves out.
const FALLBACK = Symbol('pith: left to writeJson');

// The walk's buffers, kept between calls (a call from a toJSON method
// inside a walk gets buffers of its own); one grown past KEPT_BYTES for a
// large value is let go after it.
const KEPT_BYTES = 1 << 26;
let sharedOps = new Uint32Array(1 << 12);
let sharedNums = new Float64Array(1 << 10);
let sharedBytes = Buffer.allocUnsafeSlow(1 << 14);
let walking = false;
// Strings longer than this (in UTF-16 units) are written to the tape by
// Buffer's UTF-8 writer; shorter ones, most of any value's, by the walk
// itself, which costs less than a call.
const LONG_STRING = 32;

/**
 * `value` as the tape src/input.rs reads: what `JSON.stringify(value)`
 * writes, with BigInt and ExactNumber digit for digit and numbers as the
 * doubles they are. Anything pith refuses (a cycle, nesting beyond
 * MAX_DEPTH, a lone surrogate, a root with no JSON form) is thrown by
 * writeJson, which names its path.
 */
function tapeOf(root) {
  const own = walking;
  walking = true;
  const w = own
    ? new Walk(new Uint32Array(64), new Float64Array(16), Buffer.allocUnsafeSlow(256))
    : new Walk(sharedOps, sharedNums, sharedBytes);
  let complete = false;
  try {
    complete = w.value(root, '', 0) && !w.lone;
  } catch (e) {
    if (e !== FALLBACK) throw e;
  } finally {
    walking = own;
    if (!own) {
      if (w.ops.byteLength <= KEPT_BYTES) sharedOps = w.ops;
      if (w.nums.byteLength <= KEPT_BYTES) sharedNums = w.nums;
      if (w.bytes.byteLength <= KEPT_BYTES) sharedBytes = w.bytes;
    }
  }
  if (!complete) {
    // writeJson throws for everything pith refuses; what it accepts (a
    // member whose toJSON leaves it out) it writes as JSON text.
    return textTape(writeJson(root));
  }
  return { ops: w.ops.subarray(0, w.no), nums: w.nums.subarray(0, w.nn), strs: w.bytes.subarray(0, w.nb) };
}

/**
 * One walk of a value into a tape. Its methods are the prototype's, made
 * once: V8 keeps their optimised code for as long as the functions live,
 * where functions made afresh by each call would lose it at every full
 * collection and be compiled again.
 */
class Walk {
  constructor(ops, nums, bytes) {
    this.ops = ops;
    this.nums = nums;
    // The strings, in UTF-8: the text src/input.rs reads.
    this.bytes = bytes;
    this.no = 0;
    this.nn = 0;
    this.nb = 0;
    // Whether a string held a lone surrogate, which UTF-8 cannot hold.
    this.lone = false;
    this.shapes = new Map();
    this.defined = 0;
    // The last object's keys and shape at each depth: the rows of a table
    // share their keys, so most objects match the one before.
    this.lastKeys = [];
    this.lastShape = [];
    // Each depth's members, read before they are written.
    this.scratch = [];
  }

  grow() {
    const bigger = new Uint32Array(this.ops.length * 2);
    bigger.set(this.ops);
    this.ops = bigger;
  }

  sized(tag, n) {
    if (this.no + 2 > this.ops.length) this.grow();
    if (n < ESCAPE) {
      this.ops[this.no++] = tag | (n << 3);
    } else {
      this.ops[this.no++] = tag | (ESCAPE << 3);
      this.ops[this.no++] = n;
    }
  }

  string(s) {
    const n = s.length;
    // At most 3 bytes a UTF-16 unit (a pair's 4 bytes are 2 units').
    if (this.nb + 3 * n > this.bytes.length) {
      const bigger = Buffer.allocUnsafeSlow(Math.max(this.bytes.length * 2, this.nb + 3 * n));
      bigger.set(this.bytes.subarray(0, this.nb));
      this.bytes = bigger;
    }
    if (n > LONG_STRING) {
      if (!s.isWellFormed()) this.lone = true;
      else this.nb += this.bytes.write(s, this.nb, 'utf8');
    } else {
      this.short(s, n);
    }
    this.sized(4, n);
  }

  /** Writes the UTF-8 of `s`, of `n` units. */
  short(s, n) {
    const b = this.bytes;
    let at = this.nb;
    for (let i = 0; i < n; i++) {
      const c = s.charCodeAt(i);
      if (c < 0x80) {
        b[at++] = c;
      } else if (c < 0x800) {
        b[at++] = 0xc0 | (c >> 6);
        b[at++] = 0x80 | (c & 0x3f);
      } else if (c < 0xd800 || c > 0xdfff) {
        b[at++] = 0xe0 | (c >> 12);
        b[at++] = 0x80 | ((c >> 6) & 0x3f);
        b[at++] = 0x80 | (c & 0x3f);
      } else {
        const d = i + 1 < n ? s.charCodeAt(i + 1) : 0;
        if (c > 0xdbff || d < 0xdc00 || d > 0xdfff) {
          this.lone = true;
          break;
        }
        const p = 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00);
        b[at++] = 0xf0 | (p >> 18);
        b[at++] = 0x80 | ((p >> 12) & 0x3f);
        b[at++] = 0x80 | ((p >> 6) & 0x3f);
        b[at++] = 0x80 | (p & 0x3f);
        i++;
      }
    }
    this.nb = at;
  }

  double(v) {
    if (this.nn === this.nums.length) {
      const bigger = new Float64Array(this.nums.length * 2);
      bigger.set(this.nums);
      this.nums = bigger;
    }
    this.nums[this.nn++] = v;
    if (this.no === this.ops.length) this.grow();
    this.ops[this.no++] = 3;
  }

  exact(text) {
    if (this.no === this.ops.length) this.grow();
    this.ops[this.no++] = 3 | (1 << 3);
    this.string(text);
  }

  /** The shape of keys `keys` (an object's, at `depth`): its number on the
   * tape (-1 until it is written) and how its members are read. */
  shape(keys, depth) {
    const last = this.lastKeys[depth];
    if (last !== undefined && last.length === keys.length) {
      let same = true;
      for (let i = 0; i < keys.length; i++) {
        if (keys[i] !== last[i]) {
          same = false;
          break;
        }
      }
      if (same) return this.lastShape[depth];
    }
    const name = JSON.stringify(keys);
    let s = this.shapes.get(name);
    if (s === undefined) {
      s = { id: -1, keys, name, uses: 0, read: undefined };
      this.shapes.set(name, s);
    }
    this.lastKeys[depth] = keys;
    this.lastShape[depth] = s;
    return s;
  }

  /** The shape's number, written with its keys the first time. */
  shapeId(s) {
    if (s.id < 0) {
      s.id = this.defined++;
      this.sized(5, s.keys.length);
      for (let i = 0; i < s.keys.length; i++) this.string(s.keys[i]);
    }
    return s.id;
  }

  raw(text) {
    // JSON.rawJSON holds the JSON text of a primitive.
    if (text === 'null') this.sized(0, 0);
    else if (text === 'true') this.sized(2, 0);
    else if (text === 'false') this.sized(1, 0);
    else if (text[0] === '"') this.string(JSON.parse(text));
    else this.exact(text);
  }

  /** Writes `v` (the member `key` of its parent: a string, or an array's
   * index) and returns true, or returns false for what JSON leaves out
   * (undefined, functions, symbols). */
  value(v, key, depth) {
    switch (typeof v) {
      case 'string':
        this.string(v);
        return true;
      case 'number':
        if (v - v === 0) this.double(v);
        else this.sized(0, 0); // NaN and the infinities, as JSON.stringify writes them
        return true;
      case 'boolean':
        this.sized(v ? 2 : 1, 0);
        return true;
      case 'object': {
        if (v === null) {
          this.sized(0, 0);
          return true;
        }
        // Plain objects and arrays without a toJSON, the most of any value,
        // need none of the checks below.
        // (An object whose constructor is Object is no ExactNumber, boxed
        // primitive or JSON.rawJSON value; one that only claims to be takes
        // this path too and is walked as what it is, an object.)
        if (v.toJSON === undefined) {
          if (Array.isArray(v)) return this.array(v, depth);
          if (v.constructor === Object) return this.object(v, depth);
        }
        break;
      }
      case 'bigint':
        break;
      default:
        return false;
    }
    return this.special(v, key, depth);
  }

  /** `value` for the rest: BigInt, ExactNumber, toJSON, boxed primitives,
   * JSON.rawJSON values and objects of other classes. */
  special(v, key, depth) {
    if (v instanceof ExactNumber) {
      this.exact(v.text);
      return true;
    }
    if (typeof v.toJSON === 'function') {
      v = v.toJSON(String(key));
      if (v instanceof ExactNumber) {
        this.exact(v.text);
        return true;
      }
      if (v === null || typeof v !== 'object') {
        if (typeof v === 'bigint') {
          this.exact(v.toString());
          return true;
        }
        return this.value(v, key, depth);
      }
    }
    if (typeof v === 'bigint') {
      this.exact(v.toString());
      return true;
    }
    if (Array.isArray(v)) return this.array(v, depth);
    if (isRawJSON !== undefined && isRawJSON(v)) {
      this.raw(v.rawJSON);
      return true;
    }
    if (v instanceof Number || v instanceof String || v instanceof Boolean || v instanceof BigInt) {
      return this.value(v.valueOf(), key, depth);
    }
    return this.object(v, depth);
  }

  array(v, depth) {
    if (depth >= MAX_DEPTH) throw FALLBACK;
    const n = v.length;
    this.sized(6, n);
    for (let i = 0; i < n; i++) {
      if (!this.value(v[i], i, depth + 1)) this.sized(0, 0);
    }
    return true;
  }

  object(v, depth) {
    if (depth >= MAX_DEPTH) throw FALLBACK;
    let s = this.shape(Object.keys(v), depth);
    // Each member read once (a getter runs once, as in JSON.stringify);
    // those JSON leaves out (undefined, functions, symbols) leave the keys.
    const vals = this.scratch[depth] || (this.scratch[depth] = []);
    if (s.read === undefined) s.read = readerOf(s.keys, s.name, ++s.uses);
    if (s.read) {
      s.read(v, vals);
    } else {
      for (let i = 0; i < s.keys.length; i++) vals[i] = v[s.keys[i]];
    }
    let n = s.keys.length;
    let left = 0;
    for (let i = 0; i < n; i++) {
      const t = typeof vals[i];
      if (t === 'undefined' || t === 'function' || t === 'symbol') left++;
    }
    if (left > 0) {
      const kept = [];
      let j = 0;
      for (let i = 0; i < n; i++) {
        const t = typeof vals[i];
        if (t !== 'undefined' && t !== 'function' && t !== 'symbol') {
          kept.push(s.keys[i]);
          vals[j++] = vals[i];
        }
      }
      s = this.shape(kept, depth);
      n = kept.length;
    }
    const keys = s.keys;
    this.sized(7, this.shapeId(s));
    for (let i = 0; i < n; i++) {
      if (!this.value(vals[i], keys[i], depth + 1)) {
        // A toJSON that gave undefined: JSON leaves the member out, after
        // its key was written. writeJson writes such a value.
        throw FALLBACK;
      }
    }
    return true;
  }
}

// A shape used this often, with at most this many keys, gets a reader of
// its own (see readerOf).
const READER_USES = 8;
const READER_KEYS = 64;

/** A function that reads the members `keys` (named `name`) of an object
 * into an array, with the keys as fixed property names, once the shape has
 * had `uses`; undefined before, null where there will be none. */
function readerOf(keys, name, uses) {
  if (keys.length > READER_KEYS) return null;
  // A JSON string is a JavaScript string literal.
  return keptFunction(`read ${name}`, uses >= READER_USES, 'o, a', () =>
    keys.map((k, i) => `a[${i}]=o[${JSON.stringify(k)}];`).join(''),
  );
}

// Functions made from source text (the walk's readers, the build's makers)
// are kept between calls, up to FUNCTIONS_KEPT of them, by what they do:
// V8 keeps what it compiled for a function, and what it learned of the
// objects the function reads or makes, only while that function lives, so
// one made afresh by each call would run cold after every full collection.
const FUNCTIONS_KEPT = 1024;
const keptFunctions = new Map();
let codeFromStrings = true;

/** The function `name` of parameters `params` and the body `body()` gives,
 * made once `ready` and kept; undefined before, null where code cannot be
 * made from strings. */
function keptFunction(name, ready, params, body) {
  const known = keptFunctions.get(name);
  if (known !== undefined) return known;
  if (!codeFromStrings) return null;
  if (!ready) return undefined;
  try {
    const made = new Function(params, body());
    if (keptFunctions.size >= FUNCTIONS_KEPT) keptFunctions.clear();
    keptFunctions.set(name, made);
    return made;
  } catch {
    codeFromStrings = false; // code generation from strings is turned off here
    return null;
  }
}

/** The tape of a JSON text, for the values the walk leaves to writeJson. */
function textTape(text) {
  return { json: text };
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

// The options each function takes. A name not among them is refused, not
// ignored: a misspelt option (`fromat`, Python's `min_readability`) would
// otherwise leave its default in force without a word.
const ENCODE_OPTIONS = ['format', 'tokenizer', 'minReadability', 'budget', 'cursor', 'indent', 'delimiter'];
// fit's budget is its second argument; one among the options too would be
// a second budget, and which one counts a guess.
const FIT_OPTIONS = ENCODE_OPTIONS.filter((name) => name !== 'budget');
const DECODE_OPTIONS = ['lenient', 'bigint', 'exact'];
const MEASURE_OPTIONS = ['tokenizer'];

/** `v` as a message shows what was found. */
function shown(v) {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  switch (typeof v) {
    case 'string':
      return JSON.stringify(v);
    case 'object':
      return 'an object';
    case 'function':
      return 'a function';
    case 'symbol':
      return 'a symbol';
    case 'bigint':
      return `${v}n`;
    default:
      return String(v);
  }
}

/** Edits (a character inserted, deleted, replaced, or two neighbours
 * swapped) that make `a` into `b`. */
function editDistance(a, b) {
  const d = [];
  for (let i = 0; i <= a.length; i++) {
    d.push([i]);
    for (let j = 1; j <= b.length; j++) {
      if (i === 0) {
        d[0].push(j);
        continue;
      }
      const replace = d[i - 1][j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1);
      let best = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, replace);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, d[i - 2][j - 2] + 1);
      d[i].push(best);
    }
  }
  return d[a.length][b.length];
}

/** The name of `known` that `name` most likely misspells, or undefined.
 * Case, `_` and `-` are ignored (`min_readability`, `bigInt`); beyond
 * them, one edit in a short name and two in a longer one are closer than
 * chance. */
function nearestName(name, known) {
  if (name.length > 64) return undefined;
  const plain = (s) => s.toLowerCase().replace(/[_-]/g, '');
  let nearest;
  let distance = Infinity;
  for (const k of known) {
    const d = editDistance(plain(name), plain(k));
    if (d < distance) {
      nearest = k;
      distance = d;
    }
  }
  return distance <= (name.length <= 4 ? 1 : 2) ? nearest : undefined;
}

/**
 * `options` checked as the options of `what` (a function's name, for
 * messages), whose names are `known`: undefined is none; null, what is no
 * plain object, and a name not known are TypeErrors (`hints` says more of
 * some names). The values are checked where they are read.
 */
function optionsOf(options, known, what, hints = {}) {
  if (options === undefined) return {};
  if (options === null || typeof options !== 'object' || Array.isArray(options)) {
    throw new TypeError(`options: expected an object of options for ${what}, or undefined, found ${shown(options)}`);
  }
  for (const name of Object.keys(options)) {
    if (known.includes(name)) continue;
    if (Object.hasOwn(hints, name)) throw new TypeError(`options: ${hints[name]}`);
    const near = nearestName(name, known);
    const guess = near === undefined ? '' : `, did you mean ${JSON.stringify(near)}?`;
    throw new TypeError(`options: unknown option ${JSON.stringify(name)}${guess} (${what} takes ${known.join(', ')})`);
  }
  return options;
}

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

/** A flag: true or false, and false when not given. Anything else is
 * refused, not taken by truthiness: `'no'` and `0` are no answers. */
function optionalBoolean(options, name) {
  const v = options[name];
  if (v === undefined) return false;
  if (typeof v !== 'boolean') throw new TypeError(`${name}: expected true or false, found ${shown(v)}`);
  return v;
}

/** The native module's options for encode (`what` is `encode`) or fit,
 * whose budget is `budget`. */
function encodeOptions(options, what, budget) {
  const o =
    what === 'fit'
      ? optionsOf(options, FIT_OPTIONS, what, { budget: 'fit takes its budget as its second argument, not as an option' })
      : optionsOf(options, ENCODE_OPTIONS, what);
  if (what !== 'fit') budget = o.budget;
  const out = {
    format: optionalString(o, 'format', 'auto'),
    tokenizer: optionalString(o, 'tokenizer', 'o200k'),
    minReadability: optionalInteger(o, 'minReadability', 4),
    cursor: optionalString(o, 'cursor', undefined),
    indent: optionalInteger(o, 'indent', 2),
    delimiter: optionalString(o, 'delimiter', ','),
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
function encode(value, options) {
  const opts = encodeOptions(options, 'encode');
  return unwrap(native.encode(tapeOf(value), opts, false), value).text;
}

/**
 * Encodes within a token budget and reports what was cut.
 * @param {unknown} value
 * @param {number | 'unbounded'} budget
 * @param {import('./index').EncodeOptions} [options]
 * @returns {import('./index').Fitted}
 */
function fit(value, budget, options) {
  if (budget === undefined) throw new TypeError('budget: expected a number of tokens or "unbounded"');
  const opts = encodeOptions(options, 'fit', budget);
  const out = unwrap(native.encode(tapeOf(value), opts, true), value);
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
function decode(text, options) {
  const o = optionsOf(options, DECODE_OPTIONS, 'decode');
  const lenient = optionalBoolean(o, 'lenient');
  const bigint = optionalBoolean(o, 'bigint');
  const exact = optionalBoolean(o, 'exact');
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
function measure(value, options) {
  const tokenizer = optionalString(optionsOf(options, MEASURE_OPTIONS, 'measure'), 'tokenizer', 'o200k');
  return JSON.parse(unwrap(native.measure(tapeOf(value), tokenizer), value));
}

// ---------------------------------------------------------------------------
// Values out: the tape (see src/tape.rs for its layout)

// Objects of a shape used this often, with at most this many keys, are built
// by a function with an object literal of their keys: V8 makes those far
// faster than objects grown one property at a time. Such functions are kept
// between calls (see keptFunction): the objects they make survive, and V8 learns to
// make them where long-lived objects go.
const LITERAL_USES = 8;
const LITERAL_KEYS = 64;
// Strings this short (in UTF-16 units) may repeat by number (src/tape.rs).
const SHORT = 12;

/** The function that makes an object of `keys` from the next values. */
function maker(keys, uses) {
  if (keys.length <= LITERAL_KEYS) {
    // A JSON string is a JavaScript string literal; `__proto__` as a
    // computed key defines a property, where a plain one would set the
    // prototype.
    const made = keptFunction(`make ${JSON.stringify(keys)}`, uses >= LITERAL_USES, 'next', () => {
      const members = keys.map((k) => `${k === '__proto__' ? '["__proto__"]' : JSON.stringify(k)}:next()`);
      return `return {${members.join(',')}};`;
    });
    if (made) return made;
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

// The tape being read, and where in it. A build runs no code of the
// caller's, so one set serves every call, and `next` is one function that
// the makers above call.
let ops;
let nums;
let text;
let wide;
let makers;
let shorts;
let repeats;
let kept = 0;
let oi = 0;
let ni = 0;
let tp = 0;
let wp = 0;

function payload(op) {
  const p = op >>> 3;
  return p === ESCAPE ? ops[oi++] : p;
}

function str(op) {
  switch (op & 7) {
    case 4: {
      const n = payload(op);
      const s = text.slice(tp, tp + n);
      tp += n;
      if (n <= SHORT && kept < repeats) shorts[kept++] = s;
      return s;
    }
    case 5:
      return shorts[payload(op)];
    default: {
      const n = ops[oi++];
      const s = wide.slice(wp, wp + n);
      wp += n;
      return s;
    }
  }
}

function next() {
  const op = ops[oi++];
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
      if (how === 3) return str(op);
      const digits = str(ops[oi++]);
      return how === 1 ? BigInt(digits) : new ExactNumber(digits, TRUSTED);
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
}

/** The value of a tape (see src/tape.rs for its layout). */
function build(t) {
  const { keys: keyText, keyLens, shapes } = t;
  const keys = new Array(keyLens.length);
  for (let i = 0, p = 0; i < keyLens.length; i++) {
    keys[i] = keyText.slice(p, p + keyLens[i]);
    p += keyLens[i];
  }
  const made = [];
  for (let s = 0; s < shapes.length; ) {
    const n = shapes[s];
    const ks = new Array(n);
    for (let j = 0; j < n; j++) ks[j] = keys[shapes[s + 2 + j]];
    made.push(maker(ks, shapes[s + 1]));
    s += 2 + n;
  }
  ({ ops, nums, text, wide, repeats } = t);
  makers = made;
  // The short strings of text, each made once (see src/tape.rs).
  shorts = new Array(repeats);
  kept = 0;
  oi = 0;
  ni = 0;
  tp = 0;
  wp = 0;
  try {
    return next();
  } finally {
    // The tape is not kept alive until the next call.
    ops = nums = text = wide = makers = shorts = undefined;
  }
}

/** For pith/mcp: a tool's text (a string) or return value (anything else)
 * as `pith mcp` would send it: `{ text, encoding, budget }`. */
function toolText(result, minSaving, budget, tokenizer) {
  if (typeof result === 'string') {
    // Node-API hands a string over as UTF-8 with each lone surrogate
    // replaced by U+FFFD, so the text sent would not be the tool's. Such a
    // text is refused, as encode refuses such a string in a value.
    if (!result.isWellFormed()) {
      const at = loneSurrogate(result);
      const p = position(result, at);
      const unit = result.charCodeAt(at).toString(16).toUpperCase();
      throw new EncodeError(
        `at $: the text holds a lone surrogate (U+${unit}) at line ${p.line}, column ${p.column}, ` +
          'which UTF-8 (and so pith) cannot hold',
        { path: '$', code: 'LoneSurrogate' },
      );
    }
    return unwrap(native.toolText(result, undefined, minSaving, budget, tokenizer));
  }
  return unwrap(native.toolText(undefined, tapeOf(result), minSaving, budget, tokenizer), result);
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
exports._toolText = toolText;
exports._tapeOf = tapeOf;
exports._optionsOf = optionsOf;
