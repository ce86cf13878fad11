/** Prompt-injection markers and payloads shaped like tool calls, found in upstream text. */

const SNIPPET_CHARS = 80;

interface MarkerPattern {
  kind: "injection" | "tool_call_shape";
  label: string;
  re: RegExp;
}

const S = String.raw`\s{1,20}`;
const Q = String.raw`\\{0,3}"`; // a quote, possibly escaped (JSON inside a JSON string)
const NAME_KEY = String.raw`${Q}(?:name|tool|tool_name|toolName|function)${Q}\s{0,10}:\s{0,10}${Q}[^"\\\n]{1,200}${Q}`;
const ARGS_KEY = String.raw`${Q}(?:arguments|input|parameters|args)${Q}\s{0,10}:`;
const re = (source: string) => new RegExp(source, "gi");

// Every quantifier is bounded and every pattern starts at a literal, so each match attempt does
// constant work; bounded scans (`[^<>]{0,200}`, `[^{}]{0,2000}`) exclude their own start
// character, so consecutive attempts never rescan the same span.
export const MARKER_PATTERNS: readonly MarkerPattern[] = [
  {
    kind: "injection",
    label: "ignore-instructions",
    re: re(
      String.raw`\b(?:ignore|disregard|forget|override|bypass)${S}(?:(?:all|any|every|of|the|these|those|my|your)${S}){0,3}` +
        `(?:previous|prior|earlier|above|preceding|foregoing|former|original|old|system|developer|safety|all|any|your)${S}` +
        `(?:(?:the|of|your|my|system|developer|safety|user)${S}){0,2}` +
        String.raw`(?:instructions?|prompts?|messages?|directions?|directives?|rules|context|guidelines|guidance|commands?|constraints|polic(?:y|ies)|guardrails)\b`,
    ),
  },
  {
    kind: "injection",
    label: "ignore-above",
    re: re(
      String.raw`\b(?:ignore|disregard|forget)${S}(?:(?:everything|anything|all|the|text|content|that|what|whatever|is|was|said|written|you\s{1,5}(?:were|have\s{1,5}been)\s{1,5}told)${S}){0,3}(?:above|before)\b`,
    ),
  },
  {
    kind: "injection",
    label: "role-override",
    re: re(
      String.raw`\byou(?:${S}are|'re|’re)${S}(?:now${S}(?:a|an|the|in|my|acting|operating|playing|free|unrestricted|jailbroken|dan|developer)\b|no${S}longer${S}(?:bound|restricted|limited|required|an?\b))`,
    ),
  },
  {
    kind: "injection",
    label: "system-prompt",
    re: re(
      String.raw`\bsystem[\s_-]{0,3}prompt\b|\bdeveloper${S}mode\b|\bnew${S}(?:system${S})?instructions?\s{0,3}:`,
    ),
  },
  {
    kind: "injection",
    label: "role-token",
    re: re(
      String.raw`<\|[a-z_]{2,30}\|>|\[\/?INST\]|<<\/?SYS>>|<\/?(?:system|assistant|developer|instructions?|system[_-]prompt|im_start|im_end)(?:\s[^<>]{0,100})?>`,
    ),
  },
  {
    kind: "injection",
    label: "conceal-from-user",
    re: re(
      String.raw`\b(?:do${S}not|don't|don’t|never)${S}(?:tell|inform|mention|reveal|show|alert|notify)${S}(?:(?:this|it|anything)${S}){0,2}(?:to${S})?(?:the${S})?user\b`,
    ),
  },
  {
    kind: "tool_call_shape",
    label: "tool-call-tag",
    re: re(
      String.raw`<\/?(?:tool_call|tool_calls|tool_use|tool_result|function_call|function_calls|function_results|invoke|antml:[a-z_]{1,30})\b[^<>]{0,200}>`,
    ),
  },
  {
    kind: "tool_call_shape",
    label: "tool-call-json",
    re: re(
      `(?:\\{\\s{0,10})?${NAME_KEY}\\s{0,10},\\s{0,10}${ARGS_KEY}(?:\\s{0,10}(?:\\{[^{}]{0,2000}\\}|${Q}[^"\\\\]{0,2000}${Q})(?:\\s{0,10}\\})?)?`,
    ),
  },
  {
    kind: "tool_call_shape",
    label: "tool-call-json",
    re: re(
      `(?:\\{\\s{0,10})?${ARGS_KEY}\\s{0,10}\\{[^{}]{0,2000}\\}\\s{0,10},\\s{0,10}${NAME_KEY}(?:\\s{0,10}\\})?`,
    ),
  },
  {
    kind: "tool_call_shape",
    label: "tool-call-json",
    re: re(
      String.raw`${Q}tool_calls${Q}\s{0,10}:\s{0,10}\[|${Q}type${Q}\s{0,10}:\s{0,10}${Q}(?:tool_use|function_call)${Q}`,
    ),
  },
];

export function snippet(text: string): string {
  const s = text
    .slice(0, SNIPPET_CHARS * 2)
    .replace(/\s+/g, " ")
    .trim();
  return s.length > SNIPPET_CHARS ? `${s.slice(0, SNIPPET_CHARS)}…` : s;
}
