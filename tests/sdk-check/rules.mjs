// The model-API rules that the SDK types cannot express. Each rule is a small function taking a case
// ({name, api, headers, body, expect}) and a `report(rule, path, message)` callback; `path` is a JSON
// path into the case such as `body.tools[12].cache_control`. `checkRules(case)` runs the rules that
// apply to the case's api and returns the violations.

export const NAME_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;
const isObj = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);
const arr = (v) => (Array.isArray(v) ? v : []);
const key = (k) => (/^[A-Za-z_$][\w$]*$/.test(k) ? `.${k}` : `[${JSON.stringify(k)}]`);
const family = (api) => (api.startsWith('openai') ? 'openai' : 'anthropic');
const PROVIDERS = ['first-party', 'bedrock', 'vertex', 'foundry', 'kill-switch'];
const hasHeader = (c, name) =>
  Object.entries(c.headers ?? {}).some(([k, v]) => k.toLowerCase() === name && typeof v === 'string' && v !== '');

/** The provider a case renders for, from its name (`anthropic/demo/tst/discovered/bedrock/strict`). */
export function providerOf(name) {
  const parts = name.split('/');
  return PROVIDERS.find((p) => parts.includes(p)) ?? PROVIDERS.find((p) => name.includes(p)) ?? null;
}

// ---------------------------------------------------------------------------------------------------
// Tool names (every API).

/** The named tools of a request: {name, path, fixed}. `fixed` marks a name set by the tool's type
 *  (Anthropic server tools such as `tool_search_tool_bm25`), which the name pattern does not apply to. */
function namedTools(c) {
  const out = [];
  arr(c.body.tools).forEach((t, i) => {
    if (!isObj(t)) return;
    const p = `body.tools[${i}]`;
    if (family(c.api) === 'anthropic') {
      if (typeof t.name !== 'string') return;
      out.push({ name: t.name, path: `${p}.name`, fixed: t.type != null && t.type !== 'custom' });
    } else if (c.api === 'openai-chat') {
      const inner = t.type === 'custom' ? t.custom : t.function;
      if (isObj(inner) && typeof inner.name === 'string') out.push({ name: inner.name, path: `${p}.${t.type === 'custom' ? 'custom' : 'function'}.name` });
    } else if (['function', 'custom', 'namespace'].includes(t.type) && typeof t.name === 'string') {
      out.push({ name: t.name, path: `${p}.name` });
    }
  });
  return out;
}

/** Anthropic Messages ("tools[].name", `^[a-zA-Z0-9_-]{1,64}$`), OpenAI Chat Completions
 *  ("function.name": a-z, A-Z, 0-9, underscores and dashes, at most 64) and Responses: a function or
 *  custom tool's name matches the pattern; names are unique within one request. */
export function toolNames(c, report) {
  const seen = new Map();
  for (const { name, path, fixed } of namedTools(c)) {
    if (!fixed && !NAME_PATTERN.test(name)) report('tool-name', path, `tool name ${JSON.stringify(name)} does not match ${NAME_PATTERN.source}`);
    if (seen.has(name)) report('tool-name-unique', path, `tool name ${JSON.stringify(name)} is already used at ${seen.get(name)}`);
    else seen.set(name, path);
  }
}

/** OpenAI Chat Completions ("tools": "A max of 128 functions are supported"). */
export function chatMaxTools(c, report) {
  const n = arr(c.body.tools).length;
  if (n > 128) report('chat-max-tools', 'body.tools', `${n} tools; Chat Completions takes at most 128`);
}

// ---------------------------------------------------------------------------------------------------
// Anthropic Messages: tool search, deferred loading, prompt caching (the tool search tool and prompt
// caching guides of the Claude API docs).

const isDeferred = (t) => isObj(t) && t.defer_loading === true;
const isSearchTool = (t) => isObj(t) && typeof t.type === 'string' && /^tool_search_tool_(bm25|regex)/.test(t.type);

/** Anthropic tool search: at most 10,000 tools with `defer_loading: true`, and at least one tool is
 *  not deferred (the API rejects a request whose tools are all deferred). */
export function anthropicDeferredCount(c, report) {
  const tools = arr(c.body.tools);
  const deferred = tools.filter(isDeferred).length;
  if (deferred > 10000) report('anthropic-max-deferred', 'body.tools', `${deferred} deferred tools; at most 10,000`);
  if (deferred > 0 && deferred === tools.length) report('anthropic-all-deferred', 'body.tools', 'every tool has defer_loading: true; at least one must be loaded');
}

/** Anthropic tool search: a tool with `defer_loading: true` takes no `cache_control`, and the tool
 *  search tool itself (`tool_search_tool_bm25*` / `tool_search_tool_regex*`) is never deferred. */
export function anthropicDeferredTools(c, report) {
  arr(c.body.tools).forEach((t, i) => {
    if (!isDeferred(t)) return;
    if (t.cache_control != null) report('anthropic-cache-on-deferred', `body.tools[${i}].cache_control`, 'cache_control on a tool with defer_loading: true');
    if (isSearchTool(t)) report('anthropic-search-tool-deferred', `body.tools[${i}].defer_loading`, `the tool search tool ${t.type} must not be deferred`);
  });
}

/** Anthropic prompt caching: at most 4 cache breakpoints in a request, counting `cache_control` on
 *  tools, system blocks, message content blocks and the blocks inside a tool_result; the top-level
 *  `cache_control` (automatic caching) takes one of the four slots as well. */
export function anthropicCacheBreakpoints(c, report) {
  const found = [];
  const mark = (v, p) => { if (isObj(v) && v.cache_control != null) found.push(`${p}.cache_control`); };
  if (c.body.cache_control != null) found.push('body.cache_control');
  arr(c.body.tools).forEach((t, i) => mark(t, `body.tools[${i}]`));
  arr(c.body.system).forEach((b, i) => mark(b, `body.system[${i}]`));
  arr(c.body.messages).forEach((m, i) =>
    arr(m?.content).forEach((b, j) => {
      const p = `body.messages[${i}].content[${j}]`;
      mark(b, p);
      if (isObj(b) && b.type === 'tool_result') arr(b.content).forEach((x, k) => mark(x, `${p}.content[${k}]`));
    }));
  if (found.length > 4) report('anthropic-max-breakpoints', found[4], `${found.length} cache_control breakpoints (${found.join(', ')}); at most 4`);
}

/** Anthropic tool search (custom client-side search): a `tool_reference` block in a tool_result's
 *  content names a tool in `tools`, and a tool_result holding a tool_reference holds nothing else. */
export function anthropicToolReferences(c, report) {
  const names = new Set(arr(c.body.tools).map((t) => t?.name));
  arr(c.body.messages).forEach((m, i) =>
    arr(m?.content).forEach((b, j) => {
      if (!isObj(b) || b.type !== 'tool_result' || !Array.isArray(b.content)) return;
      const p = `body.messages[${i}].content[${j}].content`;
      const refs = b.content.filter((x) => x?.type === 'tool_reference');
      b.content.forEach((x, k) => {
        if (x?.type === 'tool_reference' && !names.has(x.tool_name)) report('anthropic-tool-reference-unknown', `${p}[${k}].tool_name`, `tool_reference names ${JSON.stringify(x.tool_name)}, which is not in tools`);
        if (refs.length > 0 && x?.type !== 'tool_reference') report('anthropic-tool-reference-mixed', `${p}[${k}]`, `a ${x?.type} block beside tool_reference blocks; such a tool_result holds only tool_reference blocks`);
      });
    }));
}

/** Anthropic on Bedrock, Vertex AI and Foundry: tool search (`defer_loading`) is a beta there and
 *  needs an `anthropic-beta` header; the first-party API has it generally available. */
export function anthropicDeferNeedsBeta(c, report) {
  const provider = providerOf(c.name);
  if (provider === null || provider === 'first-party' || provider === 'kill-switch') return;
  const i = arr(c.body.tools).findIndex(isDeferred);
  if (i >= 0 && !hasHeader(c, 'anthropic-beta')) report('anthropic-defer-needs-beta', `body.tools[${i}].defer_loading`, `defer_loading on ${provider} without an anthropic-beta header`);
}

/** toolreg's kill switch (cases named `.../kill-switch/...`): the request uses none of the newer
 *  tool fields (`defer_loading`, `strict`, `eager_input_streaming`) and sends no `anthropic-beta`. */
export function anthropicKillSwitch(c, report) {
  if (providerOf(c.name) !== 'kill-switch') return;
  arr(c.body.tools).forEach((t, i) => {
    for (const f of ['defer_loading', 'strict', 'eager_input_streaming']) {
      if (isObj(t) && f in t) report('anthropic-kill-switch', `body.tools[${i}].${f}`, `${f} with the kill switch on`);
    }
  });
  for (const k of Object.keys(c.headers ?? {})) {
    if (k.toLowerCase() === 'anthropic-beta') report('anthropic-kill-switch', `headers${key(k)}`, 'an anthropic-beta header with the kill switch on');
  }
}

// ---------------------------------------------------------------------------------------------------
// OpenAI Responses: tool search (the tool search guide of the OpenAI API docs).

/** Every function tool of a Responses request, top-level or inside a namespace: {tool, path}. */
function responsesFunctions(c) {
  const out = [];
  arr(c.body.tools).forEach((t, i) => {
    if (t?.type === 'function') out.push({ tool: t, path: `body.tools[${i}]` });
    if (t?.type === 'namespace') arr(t.tools).forEach((f, j) => f?.type === 'function' && out.push({ tool: f, path: `body.tools[${i}].tools[${j}]` }));
  });
  return out;
}

/** OpenAI Responses tool search: at most one `tool_search` tool; a function with
 *  `defer_loading: true` only beside one; a client-executed tool_search (`execution: "client"`)
 *  declares its search arguments as a JSON-schema object in `parameters`. */
export function responsesToolSearch(c, report) {
  const tools = arr(c.body.tools);
  const searches = tools.map((t, i) => [t, i]).filter(([t]) => t?.type === 'tool_search');
  if (searches.length > 1) report('responses-one-tool-search', `body.tools[${searches[1][1]}]`, `${searches.length} tool_search tools; at most one`);
  if (searches.length === 0) {
    for (const { tool, path } of responsesFunctions(c)) {
      if (tool.defer_loading === true) report('responses-defer-needs-search', `${path}.defer_loading`, `defer_loading on ${JSON.stringify(tool.name)} without a tool_search tool`);
    }
  }
  for (const [t, i] of searches) {
    if (t.execution === 'client' && !(isObj(t.parameters) && t.parameters.type === 'object')) {
      report('responses-client-search-parameters', `body.tools[${i}].parameters`, 'a client-executed tool_search needs parameters: a JSON schema of type "object"');
    }
  }
}

/** OpenAI Responses client tool search: a `tool_search_output` input item answers an earlier
 *  `tool_search_call` with the same `call_id`, and the tools it returns are well-formed function tools
 *  (type "function", a valid name, `parameters` a JSON schema of type "object"). */
export function responsesToolSearchOutputs(c, report) {
  const calls = new Set();
  arr(c.body.input).forEach((item, i) => {
    const p = `body.input[${i}]`;
    if (item?.type === 'tool_search_call' && typeof item.call_id === 'string') calls.add(item.call_id);
    if (item?.type !== 'tool_search_output') return;
    if (!calls.has(item.call_id)) report('responses-search-output-call-id', `${p}.call_id`, `tool_search_output call_id ${JSON.stringify(item.call_id)} answers no earlier tool_search_call`);
    arr(item.tools).forEach((t, j) => {
      const tp = `${p}.tools[${j}]`;
      if (t?.type !== 'function') return report('responses-search-output-tool', `${tp}.type`, `a returned tool of type ${JSON.stringify(t?.type)}; expected "function"`);
      if (typeof t.name !== 'string' || !NAME_PATTERN.test(t.name)) report('responses-search-output-tool', `${tp}.name`, `returned tool name ${JSON.stringify(t.name)} does not match ${NAME_PATTERN.source}`);
      if (!(isObj(t.parameters) && t.parameters.type === 'object')) report('responses-search-output-tool', `${tp}.parameters`, 'a returned function tool needs parameters: a JSON schema of type "object"');
    });
  });
}

// ---------------------------------------------------------------------------------------------------
// Strict schemas: OpenAI Structured Outputs ("supported schemas": additionalProperties: false and every
// property required) and Anthropic strict tool use ("JSON schema limitations": additionalProperties:
// false; no numeric or string-length constraints; minItems only 0 or 1; no maxItems).

/** The tools with `strict: true` and where their schema is: {schema, path}. */
function strictSchemas(c) {
  const out = [];
  arr(c.body.tools).forEach((t, i) => {
    const p = `body.tools[${i}]`;
    if (family(c.api) === 'anthropic' && t?.strict === true) out.push({ schema: t.input_schema, path: `${p}.input_schema` });
    if (c.api === 'openai-chat' && t?.function?.strict === true) out.push({ schema: t.function.parameters, path: `${p}.function.parameters` });
  });
  if (c.api === 'openai-responses') {
    for (const { tool, path } of responsesFunctions(c)) if (tool.strict === true) out.push({ schema: tool.parameters, path: `${path}.parameters` });
    arr(c.body.input).forEach((item, i) => item?.type === 'tool_search_output' && arr(item.tools).forEach((t, j) => {
      if (t?.strict === true) out.push({ schema: t.parameters, path: `body.input[${i}].tools[${j}].parameters` });
    }));
  }
  return out;
}

/** Calls visit(schema, path) for a schema and every subschema under properties, items, prefixItems,
 *  anyOf, allOf, oneOf, not, $defs and definitions. */
function walkSchema(schema, path, visit) {
  if (!isObj(schema)) return;
  visit(schema, path);
  for (const k of ['properties', '$defs', 'definitions']) {
    if (isObj(schema[k])) for (const [n, s] of Object.entries(schema[k])) walkSchema(s, `${path}.${k}${key(n)}`, visit);
  }
  for (const k of ['items', 'prefixItems', 'anyOf', 'allOf', 'oneOf', 'not']) {
    if (Array.isArray(schema[k])) schema[k].forEach((s, i) => walkSchema(s, `${path}.${k}[${i}]`, visit));
    else walkSchema(schema[k], `${path}.${k}`, visit);
  }
}

const ANTHROPIC_STRICT_UNSUPPORTED = ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf', 'minLength', 'maxLength', 'maxItems'];

/** Strict tools' schemas obey the rules of the API family: both want `additionalProperties: false`
 *  on every object schema; OpenAI wants every property listed in `required`; Anthropic rejects the
 *  numeric and length keywords and any minItems other than 0 or 1. `expect.strict_rules`, when the
 *  case gives it, names the family the renderer meant to follow (null: no tool is strict). */
export function strictSchemaRules(c, report) {
  const rules = family(c.api);
  const schemas = strictSchemas(c);
  const expected = c.expect?.strict_rules;
  if (expected === null && schemas.length > 0) report('strict-expect', schemas[0].path.replace(/\.[a-z_]+$/, '.strict'), 'the case expects no strict tools (expect.strict_rules: null)');
  if (typeof expected === 'string' && expected !== rules) report('strict-expect', 'expect.strict_rules', `the case expects ${expected} strict rules but ${c.api} follows the ${rules} ones`);
  for (const { schema, path } of schemas) {
    if (!isObj(schema)) { report('strict-additional-properties', path, 'a strict tool without an object schema'); continue; }
    walkSchema(schema, path, (s, p) => {
      const isObject = s.type === 'object' || (Array.isArray(s.type) && s.type.includes('object')) || isObj(s.properties);
      if (isObject && s.additionalProperties !== false) report('strict-additional-properties', `${p}.additionalProperties`, 'an object schema of a strict tool without additionalProperties: false');
      if (isObject && rules === 'openai') {
        const required = new Set(arr(s.required));
        const missing = Object.keys(isObj(s.properties) ? s.properties : {}).filter((n) => !required.has(n));
        if (missing.length) report('strict-required', `${p}.required`, `properties not in required: ${missing.join(', ')}`);
      }
      if (rules === 'anthropic') {
        for (const k of ANTHROPIC_STRICT_UNSUPPORTED) if (k in s) report('strict-keyword', `${p}${key(k)}`, `${k} is not supported in a strict Anthropic schema`);
        if ('minItems' in s && s.minItems !== 0 && s.minItems !== 1) report('strict-min-items', `${p}.minItems`, `minItems ${JSON.stringify(s.minItems)}; strict Anthropic schemas allow only 0 or 1`);
      }
    });
  }
}

// ---------------------------------------------------------------------------------------------------
// Conversations: what the types cannot say about a history.

const json = (v) => JSON.stringify(v);

/** Every call of an assistant turn is answered once, in order, by id: Anthropic in the next user
 *  message's `tool_result` blocks, which come before its other blocks; Chat Completions in the `tool`
 *  messages right after the assistant message; Responses by one `function_call_output` per
 *  `function_call`, after it, in the calls' order. */
export function answersInOrder(c, report) {
  if (family(c.api) === 'anthropic') {
    const messages = arr(c.body.messages);
    messages.forEach((m, i) => {
      if (!isObj(m) || m.role !== 'assistant') return;
      const ids = arr(m.content).filter((b) => isObj(b) && b.type === 'tool_use').map((b) => b.id);
      if (!ids.length) return;
      const next = messages[i + 1];
      const blocks = isObj(next) && next.role === 'user' ? arr(next.content) : [];
      const answered = blocks.filter((b) => isObj(b) && b.type === 'tool_result').map((b) => b.tool_use_id);
      if (json(answered) !== json(ids)) report('answers-in-order', `body.messages[${i + 1}]`, `calls ${ids.join(', ')} answered as ${answered.join(', ') || 'nothing'}`);
      const other = blocks.findIndex((b) => !(isObj(b) && b.type === 'tool_result'));
      if (other !== -1 && blocks.slice(other).some((b) => isObj(b) && b.type === 'tool_result')) report('answers-first', `body.messages[${i + 1}].content[${other}]`, 'a block before a tool_result block');
    });
  } else if (c.api === 'openai-chat') {
    const messages = arr(c.body.messages);
    messages.forEach((m, i) => {
      if (!isObj(m) || m.role !== 'assistant') return;
      const ids = arr(m.tool_calls).map((call) => call?.id);
      if (!ids.length) return;
      const answered = [];
      for (let j = i + 1; j < messages.length && messages[j]?.role === 'tool'; j++) answered.push(messages[j].tool_call_id);
      if (json(answered) !== json(ids)) report('answers-in-order', `body.messages[${i + 1}]`, `calls ${ids.join(', ')} answered as ${answered.join(', ') || 'nothing'}`);
    });
  } else {
    const items = arr(c.body.input);
    // Function calls (a client tool search's output is paired by responsesToolSearchOutputs).
    const isCall = (it) => isObj(it) && it.type === 'function_call';
    const isOutput = (it) => isObj(it) && it.type === 'function_call_output';
    const calls = items.map((it, i) => [it, i]).filter(([it]) => isCall(it));
    const outputs = items.map((it, i) => [it, i]).filter(([it]) => isOutput(it));
    for (const [call, at] of calls) {
      const answers = outputs.filter(([out]) => out.call_id === call.call_id);
      if (answers.length !== 1) report('answers-in-order', `body.input[${at}]`, `call ${call.call_id} answered ${answers.length} times`);
      else if (answers[0][1] < at) report('answers-in-order', `body.input[${answers[0][1]}]`, `call ${call.call_id} answered before it was made`);
    }
    const order = (list) => list.map(([it]) => it.call_id);
    const answeredOrder = order(outputs).filter((id) => order(calls).includes(id));
    if (json(answeredOrder) !== json(order(calls).filter((id) => answeredOrder.includes(id)))) report('answers-in-order', 'body.input', 'outputs not in the calls\' order');
  }
}

const TOOL_CHANGES_BETA = 'mid-conversation-tool-changes-2026-07-01';
const INLINE_TOOLS_BETA = 'inline-tools-2026-09-15';
const betaList = (c) => Object.entries(c.headers ?? {}).filter(([k]) => k.toLowerCase() === 'anthropic-beta').flatMap(([, v]) => String(v).split(',').map((b) => b.trim()));

/** Anthropic mid-conversation tool changes: `tool_addition` / `tool_removal` need their beta (an
 *  inline `tool_definition` the inline-tools beta too); a tool is added only when not offered, and
 *  removed only when offered (in `tools`, or added earlier and not removed since). */
export function anthropicToolChanges(c, report) {
  const offered = new Set(arr(c.body.tools).map((t) => t?.name).filter((n) => typeof n === 'string'));
  const betas = betaList(c);
  arr(c.body.messages).forEach((m, i) => {
    arr(m?.content).forEach((b, j) => {
      if (!isObj(b) || (b.type !== 'tool_addition' && b.type !== 'tool_removal')) return;
      const p = `body.messages[${i}].content[${j}]`;
      if (!betas.includes(TOOL_CHANGES_BETA)) report('tool-changes-beta', p, `${b.type} without the ${TOOL_CHANGES_BETA} beta`);
      const tool = isObj(b.tool) ? b.tool : {};
      if (b.type === 'tool_addition') {
        if (tool.type === 'tool_definition' && !betas.includes(INLINE_TOOLS_BETA)) report('tool-changes-beta', `${p}.tool`, `a tool_definition without the ${INLINE_TOOLS_BETA} beta`);
        const name = tool.type === 'tool_definition' ? tool.definition?.name : tool.name;
        if (offered.has(name)) report('tool-addition-offered', `${p}.tool`, `${name} is already offered`);
        offered.add(name);
      } else {
        if (!offered.has(tool.name)) report('tool-removal-unknown', `${p}.tool`, `${tool.name} is not offered`);
        offered.delete(tool.name);
      }
    });
  });
}

const RULES = {
  anthropic: [toolNames, anthropicDeferredCount, anthropicDeferredTools, anthropicCacheBreakpoints, anthropicToolReferences, anthropicDeferNeedsBeta, anthropicKillSwitch, strictSchemaRules, answersInOrder],
  'anthropic-beta': [toolNames, anthropicDeferredCount, anthropicDeferredTools, anthropicCacheBreakpoints, anthropicDeferNeedsBeta, strictSchemaRules, answersInOrder, anthropicToolChanges],
  'openai-chat': [toolNames, chatMaxTools, strictSchemaRules, answersInOrder],
  'openai-responses': [toolNames, responsesToolSearch, responsesToolSearchOutputs, strictSchemaRules, answersInOrder],
  // Responses are checked by their types only.
  'anthropic-response': [],
  'openai-chat-response': [],
  'openai-responses-response': [],
};

/** Runs every rule for the case's api; returns [{rule, path, message}]. */
export function checkRules(c) {
  const found = [];
  for (const rule of RULES[c.api]) rule(c, (id, path, message) => found.push({ rule: id, path, message }));
  return found;
}
