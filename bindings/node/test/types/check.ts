// The package's declarations as a TypeScript user meets them: what must
// type-check does, and each `@ts-expect-error` line must be refused.
import {
  BudgetExceededError,
  DecodeError,
  EncodeError,
  ExactNumber,
  countTokens,
  decode,
  encode,
  fit,
  measure,
  type EncodeOptions,
} from '@pith-format/pith';
import { encoded, rewriteResult, toolResult, type CallToolResult } from '@pith-format/pith/mcp';

const options: EncodeOptions = { format: 'pith', minReadability: 5, delimiter: '\t', budget: 'unbounded' };
const text: string = encode({ a: [1, 2n, new ExactNumber('0.1')] }, options);
const value = decode(text, { bigint: true, exact: true, lenient: false });
const fitted = fit(value, 100, { tokenizer: 'cl100k', cursor: undefined });
const total: number = countTokens(fitted.text, 'o200k') + fitted.tokens + fitted.rowsOmitted + fitted.collectionsCut;
const m = measure(value, { tokenizer: 'bytes4' });
const chose: string = m.auto.chose;
const score: number = m.forms.pith.readability + m.forms['hoisted-compact'].tokens;
const exact: string = new ExactNumber('1e+400').text;

function where(e: unknown): string {
  if (e instanceof DecodeError) return `${e.line ?? '?'}:${e.column ?? '?'} ${e.code ?? ''}`;
  if (e instanceof EncodeError) return e.path ?? '$';
  if (e instanceof BudgetExceededError) return `${e.minimum} > ${e.budget}: ${e.notice}`;
  return String(e);
}

const result: CallToolResult = toolResult({ rows: [] }, { minSaving: 0, budget: 50, tokenizer: 'o200k' });
const rewritten: CallToolResult = rewriteResult(result);
const tool = encoded(async ({ n }: { n: number }) => ({ n }), { minSaving: 5 });
const called: CallToolResult | Promise<CallToolResult> = tool({ n: 1 });

// @ts-expect-error: no such format
encode(1, { format: 'yaml' });
// @ts-expect-error: a budget is a number of tokens or "unbounded"
encode(1, { budget: 'lots' });
// @ts-expect-error: decode takes text
decode(42);
// @ts-expect-error: no such tokenizer
countTokens('x', 'p50k');
// @ts-expect-error: no such option (refused at run time too)
encode(1, { fromat: 'json' });
// @ts-expect-error: a flag is true or false
decode('a: 1', { bigint: 'yes' });
// @ts-expect-error: a text's line is a number
const line: string = new DecodeError().line;

export const used = [total, chose, score, exact, where, rewritten, called, line];
