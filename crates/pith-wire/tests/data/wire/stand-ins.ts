/**
 * STAND-INS — not part of the seed protocol.
 *
 * `wire-state-defs.ts` refers to five types it does not define: ModelInfo,
 * ThinkingLevel, Effort, ImageContent and AgentMessage. The definitions below
 * stand in for them so that the seed's definitions load and realistic
 * snapshots can be checked. They are plausible shapes written in the same
 * DSL, not the harness's real definitions.
 */
import { absentAs, doc, type WireDefs } from "./dsl";

// Shared by the message stand-ins below.
const TEXT_OR_IMAGE = "(TextContent | ImageContent)[]";

export const standInDefs = {
  // STAND-IN
  ThinkingLevel: "'off' | 'minimal' | 'low' | 'medium' | 'high' | 'xhigh'",
  // STAND-IN
  Effort: doc("'minimal' | 'low' | 'medium' | 'high' | 'xhigh'", "Reasoning effort of a thinking level other than off."),
  // STAND-IN
  ModelInfo: {
    provider: "string",
    id: "string",
    name: "string",
    "contextWindow?": "number.integer",
    "maxTokens?": "number.integer",
    reasoning: absentAs("boolean", false),
    input: absentAs("('text' | 'image')[]", ["text"]),
  },
  // STAND-IN
  TextContent: { type: "'text'", text: "string" },
  // STAND-IN
  ImageContent: { type: "'image'", data: doc("string", "Base64 image bytes."), mimeType: "string" },
  // STAND-IN
  ThinkingContent: { type: "'thinking'", thinking: "string" },
  // STAND-IN
  ToolCall: { type: "'toolCall'", id: "string", name: "string", arguments: "Record" },
  // STAND-IN
  UserMessage: {
    role: "'user'",
    content: `string | ${TEXT_OR_IMAGE}`,
    timestamp: "number.integer",
  },
  // STAND-IN
  AssistantMessage: {
    role: "'assistant'",
    content: "(TextContent | ThinkingContent | ToolCall)[]",
    provider: "string",
    model: "string",
    stopReason: "'stop' | 'length' | 'toolUse' | 'error' | 'aborted'",
    "errorMessage?": "string",
    timestamp: "number.integer",
  },
  // STAND-IN
  ToolResultMessage: {
    role: "'toolResult'",
    toolCallId: "string",
    toolName: "string",
    content: TEXT_OR_IMAGE,
    isError: absentAs("boolean", false),
    timestamp: "number.integer",
  },
  // STAND-IN
  AgentMessage: doc(
    "UserMessage | AssistantMessage | ToolResultMessage",
    "One transcript message, discriminated by `role`.",
  ),
} satisfies WireDefs;
