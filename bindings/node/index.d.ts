// Type declarations of @pith-format/pith.

/** A form `encode` writes; `toon3` is TOON spec 3.3. */
export type Format = 'auto' | 'pith' | 'toon' | 'toon3' | 'hoisted' | 'hoisted-compact' | 'table' | 'json';

/** `o200k` and `cl100k` count exactly as tiktoken does; `bytes4` is ceil(bytes / 4). */
export type Tokenizer = 'o200k' | 'cl100k' | 'bytes4' | 'o200k_base' | 'cl100k_base';

/** A value `encode` takes: what `JSON.stringify` writes, plus `BigInt` and
 * `ExactNumber`, written digit for digit. */
export type JsonValue =
  | null
  | boolean
  | number
  | bigint
  | string
  | ExactNumber
  | JsonValue[]
  | { [key: string]: JsonValue };

/** A value `decode` returns: `bigint` with `{ bigint: true }`, `ExactNumber`
 * with `{ exact: true }`, and with `{ bigint: true }` for an integer too
 * long for a `BigInt` (see `DecodeOptions.bigint`). */
export type Decoded = null | boolean | number | bigint | string | ExactNumber | Decoded[] | { [key: string]: Decoded };

/** Options of `encode` and `fit`. A name not listed here (`fromat`,
 * `min_readability`) is a TypeError, not ignored, and so is a value of the
 * wrong type; an option given as `undefined` takes its default. */
export interface EncodeOptions {
  /** The form to write (default `auto`: the cheapest that keeps every fact,
   * never more tokens than compact JSON). */
  format?: Format;
  /** What `auto` minimises and what a budget counts (default `o200k`). */
  tokenizer?: Tokenizer;
  /** The lowest readability score, 1 to 5, `auto` and `pith` may write (default 4). */
  minReadability?: number;
  /** The whole output within this many tokens, collections cut at row
   * boundaries with omission receipts; `unbounded` writes the plain text. */
  budget?: number | 'unbounded';
  /** Continues a cut collection: the `cursor` of an omission receipt (needs a budget). */
  cursor?: string;
  /** Spaces per indentation level (default 2). */
  indent?: number;
  /** The delimiter of TOON arrays and tables (default `,`). */
  delimiter?: ',' | '\t' | '|';
}

/** Options of `decode`. A name not listed here (`bigInt`) is a TypeError,
 * and so is a flag that is not `true`, `false` or `undefined` (`'yes'`, `1`). */
export interface DecodeOptions {
  /** Not strict: TOON's spec §14 violations (declared lengths, indentation)
   * are not errors, and table metadata pith never writes is read by the
   * seed's rules (as `pith decode --lenient`). */
  lenient?: boolean;
  /** Integers beyond ±(2^53 − 1) as `BigInt`. A few characters spell an
   * integer of a million digits (`1e+999999`), whose `BigInt` would cost
   * time and memory out of all proportion to the text: an integer of more
   * than 1,000,000 digits, or one that would take the `BigInt`s of the text
   * beyond 100,000 digits and 8 more for each byte of the text, is an
   * `ExactNumber` instead, exact all the same (never the nearest double,
   * an infinity). Integers written out in full always fit. */
  bigint?: boolean;
  /** Numbers a JavaScript number does not hold exactly as `ExactNumber`. */
  exact?: boolean;
}

/** An encoded text within a budget, and what fitting it did. */
export interface Fitted {
  text: string;
  /** Exact tokens of the text, receipts included. */
  tokens: number;
  /** Collections that show fewer rows than they have. */
  collectionsCut: number;
  /** Rows left out of them. */
  rowsOmitted: number;
}

/** Every form's size, as one file of `pith measure --json`. */
export interface Measurement {
  tokenizer: string;
  forms: Record<Exclude<Format, 'toon3'>, { bytes: number; tokens: number; readability: number }>;
  auto: { chose: string; syntax: 'pith' | 'toon' | 'json'; wrapped: boolean; tables: { path: string; form: string }[] };
}

/** Encodes a value as text, by default in the cheapest form that keeps every fact.
 *
 * Every function's `options` is an object or `undefined` (no options);
 * `null` and anything else is a TypeError, as is an unknown option.
 * @throws {EncodeError} for a value pith cannot write (a cycle, a lone surrogate, nesting beyond 256 levels), with its path
 * @throws {BudgetExceededError} when no output fits the budget
 * @throws {RangeError} for an option out of range, {TypeError} for an unknown option or one of the wrong type */
export function encode(value: unknown, options?: EncodeOptions): string;

/** Encodes within a token budget and reports what was cut. The budget is
 * the second argument only: `budget` among the options is a TypeError. */
export function fit(value: unknown, budget: number | 'unbounded', options?: Omit<EncodeOptions, 'budget'>): Fitted;

/** Decodes any text `encode` writes (and JSON, and TOON) back to a value.
 * @throws {DecodeError} with `line` and `column`
 * @throws {TypeError} for an unknown option or one of the wrong type */
export function decode(text: string | Uint8Array, options?: DecodeOptions): Decoded;

/** Counts the tokens of `text` exactly as tiktoken does (`o200k`, `cl100k`), or as ceil(bytes / 4) (`bytes4`). */
export function countTokens(text: string, tokenizer?: Tokenizer): number;

/** Every form's bytes, tokens and readability score for `value`, and what `auto` chose.
 * @throws {TypeError} for an unknown option or one of the wrong type */
export function measure(value: unknown, options?: { tokenizer?: Tokenizer }): Measurement;

/** A number kept to every digit. `Number(x)` is the nearest double; `x.text` the exact decimal.
 * `encode(value, { format: 'json' })` writes it digit for digit on every
 * Node.js; `JSON.stringify` does only where `JSON.rawJSON` exists (Node.js
 * 21 and later; see `toJSON`). */
export class ExactNumber {
  /** @throws {RangeError} for text that is no JSON number pith can keep */
  constructor(text: string);
  readonly text: string;
  toString(): string;
  valueOf(): number;
  /** For `JSON.stringify`: `JSON.rawJSON(text)`, every digit, where the
   * runtime has `JSON.rawJSON`; on Node.js 20, which has not, the nearest
   * double (`Number(x)`), which loses the digits a double does not hold:
   * use `encode(value, { format: 'json' })` for exact JSON text there. */
  toJSON(): unknown;
}

/** Text that pith cannot decode. */
export class DecodeError extends SyntaxError {
  /** 1-based line of the error, when it is in the text. */
  readonly line?: number;
  /** 1-based column, counting characters. */
  readonly column?: number;
  /** The JSON path of a malformed table in the value, when the error is there. */
  readonly path?: string;
  /** The library's name for the error (`Syntax`, `LoneSurrogate`, …). */
  readonly code?: string;
}

/** A value pith cannot encode. */
export class EncodeError extends TypeError {
  /** Its JSON path (`rows[2].price`, `$`). */
  readonly path?: string;
  readonly code?: string;
}

/** No output of the value fits the budget. */
export class BudgetExceededError extends RangeError {
  /** The `output_budget_exceeded` notice to show instead. */
  readonly notice: string;
  readonly budget: number;
  /** The smallest budget that works (every larger one works too). */
  readonly minimum: number;
  /** Tokens of the output without a budget. */
  readonly unbounded: number;
  readonly tokenizer: string;
  readonly collections: number;
  readonly rows: number;
}
