// test-mcp-sdk.mjs — triage-mcp driven by a client nobody here wrote: the official
// MCP TypeScript SDK (@modelcontextprotocol/sdk, pinned in package-lock.json),
// against a real triage-server --local in a private runtime folder. The SDK spawns
// triage-mcp over stdio, negotiates, lists the tools (and checks every result
// against its outputSchema itself); the test plays the person through the client
// REST API on the server's socket. Prints TAP.
//
// Copyright 2026 The Triage authors
// SPDX-License-Identifier: GPL-3.0-or-later

import { spawn } from 'node:child_process';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';
import assert from 'node:assert/strict';

const dist = join(process.env.MCP_SDK_DIR, 'node_modules', '@modelcontextprotocol', 'sdk', 'dist', 'esm');
const { Client } = await import(pathToFileURL(join(dist, 'client', 'index.js')));
const { StdioClientTransport } = await import(pathToFileURL(join(dist, 'client', 'stdio.js')));

const WAIT_MS = 20000;

/* A private world: runtime folder, database and a local server in it. */
const root = mkdtempSync(join(tmpdir(), 'triage-mcp-sdk-'));
const runtime = join(root, 'runtime');
mkdirSync(runtime, { mode: 0o700 });
const socketPath = join(runtime, 'triage', 'triage.sock');
const env = { ...process.env, XDG_RUNTIME_DIR: runtime, XDG_DATA_HOME: join(root, 'data'), HOME: root };

const server = spawn(process.env.TRIAGE_SERVER,
  ['--local', '--database', join(root, 'server.db'), '--print-address'],
  { env, stdio: ['ignore', 'pipe', 'inherit'] });
await new Promise((resolve, reject) => {
  server.stdout.once('data', (line) => String(line).startsWith('listening on')
    ? resolve() : reject(new Error(`triage-server said ${line}`)));
  server.once('exit', (code) => reject(new Error(`triage-server exited ${code}`)));
});

/* One request to a server at @where (http.request's socketPath, or host and port);
 * its status and parsed answer. */
function httpJson (where, method, path, body, headers = {}) {
  return new Promise((resolve, reject) => {
    const data = body === undefined ? undefined : JSON.stringify(body);
    const req = http.request({ ...where, method, path, headers: { ...headers, ...(data ? { 'Content-Type': 'application/json' } : {}) } },
      (res) => {
        let text = '';
        res.on('data', (chunk) => { text += chunk; });
        res.on('end', () => resolve({ status: res.statusCode, body: text ? JSON.parse(text) : null }));
      });
    req.on('error', reject);
    req.end(data);
  });
}

function rest (method, path, body) {
  return httpJson({ socketPath }, method, path, body);
}

async function waitFor (what, predicate) {
  const end = Date.now() + WAIT_MS;
  for (;;) {
    const value = await predicate();
    if (value) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/* The person: the pending request with this title, as the inbox lists it. */
async function pending (title) {
  return waitFor(`“${title}” in the inbox`, async () => {
    const { body } = await rest('GET', '/api/v1/client/notifications?status=pending');
    return body.notifications.find((n) => n.context.title === title);
  });
}

async function answer (title, actionId, data) {
  const n = await pending(title);
  const { status, body } = await rest('POST', '/api/v1/client/respond',
    { notification_id: n.id, action_id: actionId, response_data: data });
  assert.equal(status, 200, JSON.stringify(body));
  return n;
}

async function statusOf (id) {
  return (await rest('GET', `/api/v1/client/notifications/${id}`)).body.status;
}

const transport = new StdioClientTransport({
  command: process.env.TRIAGE_MCP,
  args: ['--progress-interval', '1'],
  env,
  stderr: 'inherit',
});
const client = new Client({ name: 'SDK Agent', version: '1.0.0' });

const tests = [];
const test = (name, fn) => tests.push([name, fn]);

test('initialize negotiates the newest version', async () => {
  await client.connect(transport);
  assert.equal(client.getServerVersion().name, 'triage-mcp');
  assert.ok(client.getServerCapabilities().tools);
  assert.match(client.getInstructions(), /Triage/);
  await client.ping();
});

test('tools/list: three tools, each with input and output schemas', async () => {
  const { tools } = await client.listTools();
  assert.deepEqual(tools.map((t) => t.name), ['request_approval', 'ask_human', 'ask_choice']);
  for (const tool of tools) {
    assert.equal(tool.inputSchema.type, 'object');
    assert.equal(tool.outputSchema.type, 'object');
    assert.ok(tool.description.length > 40);
  }
});

test('request_approval: approved, with progress keeping a short timeout alive', async () => {
  const progress = [];
  const call = client.callTool(
    { name: 'request_approval', arguments: { title: 'Deploy 2.1 to production?', description: 'CI is green', flags: ['irreversible'], details: '--- a/x\n+++ b/x\n', details_type: 'text/x-diff', project: 'shop' } },
    undefined,
    // Progress comes every second; the timeout leaves a loaded machine three
    // seconds of slack between two of them.
    { timeout: 4000, resetTimeoutOnProgress: true, onprogress: (p) => progress.push(p) });
  const n = await pending('Deploy 2.1 to production?');
  assert.equal(n.service.name, 'SDK Agent');
  assert.equal(n.context.project, 'shop');
  assert.deepEqual(n.actions[0].flags, ['irreversible']);
  assert.equal(n.context.attachments[0].type, 'text/x-diff');
  // Longer than the client's timeout: only progress keeps the call alive.
  await waitFor('six progress notifications', () => progress.length >= 6);
  await answer('Deploy 2.1 to production?', 'approve', null);
  const result = await call;
  assert.equal(result.isError, undefined);
  assert.equal(result.structuredContent.approved, true);
  assert.equal(result.structuredContent.outcome, 'answered');
  assert.equal(result.structuredContent.responder.type, 'human');
  assert.match(result.content[0].text, /approved/);
  assert.deepEqual(JSON.parse(result.content[1].text), result.structuredContent);
});

test('request_approval: denied', async () => {
  const call = client.callTool({ name: 'request_approval', arguments: { title: 'Drop the cache?' } });
  await answer('Drop the cache?', 'deny', null);
  const result = await call;
  assert.equal(result.structuredContent.approved, false);
  assert.match(result.content[0].text, /denied/);
});

const types = [
  ['simple', {}, null],
  ['binary', { true_label: 'Ship', false_label: 'Hold' }, false],
  ['choice', { options: [{ value: 'eu', label: 'Europe' }, { value: 'us', label: 'America' }] }, 'us'],
  ['multi_choice', { options: [{ value: 'a', label: 'A' }, { value: 'b', label: 'B' }, { value: 'c', label: 'C' }], constraints: { min_selections: 1, max_selections: 2 } }, ['a', 'c']],
  ['text', { constraints: { max_length: 100, placeholder: 'Why?' } }, 'Because it is Friday'],
  ['number', { constraints: { min: 0, max: 10, step: 0.5, unit: 'GB' } }, 2.5],
  ['scale', { constraints: { min: 1, max: 5, min_label: 'bad', max_label: 'good' } }, 4],
];
for (const [type, extra, given] of types) {
  test(`ask_human: ${type}`, async () => {
    const question = `A ${type} question?`;
    const call = client.callTool({ name: 'ask_human', arguments: { question, response_type: type, ...extra } });
    const n = await answer(question, 'answer', given);
    assert.equal(n.actions[0].response_type, type);
    const result = await call;
    assert.equal(result.structuredContent.response_type, type);
    assert.deepEqual(result.structuredContent.answer, given);
    assert.equal(result.structuredContent.notification_id, n.id);
  });
}

test('ask_choice: several, with descriptions', async () => {
  const call = client.callTool({ name: 'ask_choice', arguments: { question: 'Which regions?', multiple: true, min_selections: 1, options: [{ id: 'eu-west', label: 'Europe West', description: 'Dublin' }, { id: 'us-east', label: 'US East' }, { id: 'ap-south', label: 'Asia' }] } });
  const n = await answer('Which regions?', 'choose', ['eu-west', 'ap-south']);
  assert.equal(n.actions[0].response_type, 'multi_choice');
  assert.match(n.context.description, /Dublin/);
  const result = await call;
  assert.deepEqual(result.structuredContent.chosen, ['eu-west', 'ap-south']);
});

test('ask_choice: exactly one', async () => {
  const call = client.callTool({ name: 'ask_choice', arguments: { question: 'Which branch?', options: [{ id: 'main', label: 'main' }, { id: 'dev', label: 'dev' }] } });
  await answer('Which branch?', 'choose', 'dev');
  assert.deepEqual((await call).structuredContent.chosen, ['dev']);
});

test('invalid arguments: a tool error naming the field', async () => {
  const result = await client.callTool({ name: 'ask_choice', arguments: { question: 'Dupes?', options: [{ id: 'a', label: 'A' }, { id: 'a', label: 'Again' }] } });
  assert.equal(result.isError, true);
  assert.match(result.content[0].text, /options\[1\]\.id/);
  await assert.rejects(client.callTool({ name: 'no_such_tool', arguments: {} }), /Unknown tool/);
});

test('arguments past the line bound: the call is refused at once, not left to time out', async () => {
  // The SDK writes the id after the params; an error with id null answered nothing it waited for.
  await assert.rejects(
    client.callTool({ name: 'request_approval', arguments: { title: 'Huge', details: 'x'.repeat(5 * 1024 * 1024) } },
      undefined, { timeout: WAIT_MS }),
    (error) => error.code === -32600 && /longer than 4096 KiB/.test(error.message));
  await client.ping();
});

test('expiry: a result that says so', async () => {
  const result = await client.callTool({ name: 'request_approval', arguments: { title: 'Quick?', deadline: '1s' } });
  assert.equal(result.structuredContent.outcome, 'expired');
  assert.equal(result.structuredContent.approved, false);
  assert.equal(result.structuredContent.responder, null);
});

test('cancellation withdraws the request', async () => {
  const controller = new AbortController();
  const call = client.callTool({ name: 'request_approval', arguments: { title: 'Never mind?' } }, undefined, { signal: controller.signal });
  const n = await pending('Never mind?');
  controller.abort('the user pressed stop');
  await assert.rejects(call);
  await waitFor('the request to be withdrawn', async () => (await statusOf(n.id)) === 'invalidated');
});

test('a call the client times out is cancelled, and its request withdrawn', async () => {
  // What a user's client does when the person takes longer than its timeout (the
  // SDK's default is 60 s): it sends notifications/cancelled and stops waiting.
  const call = client.callTool({ name: 'ask_human', arguments: { question: 'Too slow?', response_type: 'text' } }, undefined, { timeout: 1500 });
  call.catch(() => {});
  const n = await pending('Too slow?');
  await assert.rejects(call, /timed out/);
  await waitFor('the request to be withdrawn', async () => (await statusOf(n.id)) === 'invalidated');
});

test('closing the client withdraws what still waits', async () => {
  const call = client.callTool({ name: 'ask_human', arguments: { question: 'Still there?', response_type: 'text' } });
  call.catch(() => {});
  const n = await pending('Still there?');
  await client.close();
  await waitFor('the request to be withdrawn', async () => (await statusOf(n.id)) === 'invalidated');
});

/* A server whose accept is slow (tests/mcp/slow-accept.py, in front of a real one at
 * @upstream): the lines it prints, each awaited in turn. */
function slowServer (listen, upstream) {
  const proc = spawn('python3', [join(dirname(fileURLToPath(import.meta.url)), 'slow-accept.py'),
    listen, upstream], { stdio: ['pipe', 'pipe', 'inherit'] });
  const said = [];
  let heard = () => {};
  createInterface({ input: proc.stdout }).on('line', (line) => { said.push(line); heard(); });
  const line = (want) => new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`slow-accept.py did not say “${want}”: ${said}`)), WAIT_MS);
    heard = () => {
      const found = said.find((l) => l === want || l.startsWith(`${want} `));
      if (found !== undefined) { clearTimeout(timer); resolve(found); }
    };
    heard();
  });
  return { proc, said, line };
}

/* A call cancelled while its POST has not reached the server, which then accepts the
 * connections: nobody waits for the answer, so nothing may be left waiting there.
 * @connect (the slow server's first line) gives triage-mcp's arguments and environment;
 * @requests lists what the server holds, whose statuses for @title are to be @want. */
async function cancelWhileOpening (slow, title, connect, requests, want) {
  const [args, extraEnv] = connect(await slow.line('listening'));
  const agent = new Client({ name: 'Cancelling Agent', version: '1.0.0' });
  const agentTransport = new StdioClientTransport({
    command: process.env.TRIAGE_MCP, args, env: { ...env, ...extraEnv }, stderr: 'inherit',
  });
  await agent.connect(agentTransport);
  const pid = agentTransport.pid;
  const controller = new AbortController();
  const call = agent.callTool({ name: 'request_approval', arguments: { title } }, undefined,
    { signal: controller.signal });
  call.catch(() => {});
  await slow.line('pending');
  controller.abort('the user pressed stop');
  await assert.rejects(call);
  await agent.ping();   // the cancel read before the server accepts anything
  slow.proc.stdin.write('accept\n');
  await slow.line('accepted 1');
  await agent.close();
  await waitFor('triage-mcp to exit', () => {
    try { process.kill(pid, 0); return false; } catch { return true; }
  });
  // Every connection it made has ended: what the server got, it got.
  const accepted = slow.said.filter((l) => l.startsWith('accepted ')).length;
  for (let i = 1; i <= accepted; i++) await slow.line(`closed ${i}`);
  slow.proc.stdin.end();
  const left = (await requests()).filter((n) => n.context.title === title);
  assert.deepEqual(left.map((n) => n.status), want,
    `on the server: ${JSON.stringify(left.map((n) => [n.id, n.status]))}`);
}

test('a call cancelled while its POST waits, unread, for the server to accept: nothing left waiting', async () => {
  // The POST's connection sat in the backlog of the server's socket, the request written
  // whole and none of it read, when the client cancels: the request reaches the server
  // only after the cancel (as from a server busy, or stopped for a moment). It must be
  // withdrawn there.
  const listen = join(root, 'slow.sock');
  await cancelWhileOpening(slowServer(listen, socketPath), 'Asked while the server does not accept',
    () => [['--socket', listen], {}],
    async () => (await rest('GET', '/api/v1/client/notifications')).body.notifications,
    ['invalidated']);
});

/* A team server on TCP (an administrator's token of its own), its API called as @token. */
async function teamServer () {
  const adminToken = 'admin-token-of-the-sdk-test';
  const tokenFile = join(root, 'admin-token');
  writeFileSync(tokenFile, adminToken, { mode: 0o600 });
  const proc = spawn(process.env.TRIAGE_SERVER,
    ['--listen', '127.0.0.1:0', '--database', join(root, 'team.db'), '--admin-token-file', tokenFile,
      '--print-address', '--no-limits'], { env, stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise((resolve, reject) => {
    proc.stdout.once('data', (line) => {
      const match = /127\.0\.0\.1:(\d+)/.exec(String(line));
      match ? resolve(Number(match[1])) : reject(new Error(`triage-server said ${line}`));
    });
    proc.once('exit', (code) => reject(new Error(`triage-server exited ${code}`)));
  });
  const call = async (token, method, path, body) =>
    (await httpJson({ host: '127.0.0.1', port }, method, path, body, { Authorization: `Bearer ${token}` })).body;
  const userToken = (await call(adminToken, 'POST', '/api/v1/admin/users', { id: 'alice' })).token;
  const key = (await call(adminToken, 'POST', '/api/v1/services',
    { name: 'Agents', description: 'Agents', recipients: ['alice'] })).api_key;
  return { proc, port, key, list: async () => (await call(userToken, 'GET', '/api/v1/client/notifications')).notifications };
}

test('a call cancelled while its POST\'s connection is still opening: nothing posted', async () => {
  // The server's backlog full, the POST's connection is still opening (its SYN dropped,
  // sent again once there is room) when the client cancels: the request never went out,
  // so nothing is posted at all. The withdrawal used to post it first, to withdraw it:
  // a question never asked, in the person's history (and a bubble, for a moment).
  const team = await teamServer();
  try {
    await cancelWhileOpening(slowServer('tcp', `127.0.0.1:${team.port}`),
      'Asked while the connection opens',
      (listening) => [['--server', `http://127.0.0.1:${listening.split(' ')[1]}`], { TRIAGE_API_KEY: team.key }],
      team.list, []);
  } finally {
    team.proc.kill('SIGTERM');
    await new Promise((resolve) => team.proc.once('exit', resolve));
  }
});

/* A client of an earlier revision, as the 2024 SDKs and many editor plugins still are:
 * the pinned SDK's own client, its initialize asking for @version. Such a client
 * disconnects when the server answers a version it does not speak. */
class VersionTransport {
  constructor (inner, version) {
    this.inner = inner;
    this.version = version;
    this.agreed = undefined;
  }

  async start () {
    this.inner.onmessage = (message) => {
      if (message.id === this.initializeId && message.result) this.agreed = message.result.protocolVersion;
      this.onmessage?.(message);
    };
    this.inner.onerror = (error) => this.onerror?.(error);
    this.inner.onclose = () => this.onclose?.();
    return this.inner.start();
  }

  send (message, options) {
    if (message.method === 'initialize') {
      message = { ...message, params: { ...message.params, protocolVersion: this.version } };
      this.initializeId = message.id;
    }
    return this.inner.send(message, options);
  }

  close () {
    return this.inner.close();
  }
}

const firstTransport = new VersionTransport(new StdioClientTransport({
  command: process.env.TRIAGE_MCP, env, stderr: 'inherit',
}), '2024-11-05');
const firstClient = new Client({ name: 'Old Agent', version: '0.9.0' });

test('MCP 2024-11-05: agreed, and tools as that revision has them', async () => {
  await firstClient.connect(firstTransport);
  assert.equal(firstTransport.agreed, '2024-11-05');
  assert.deepEqual(Object.keys(firstClient.getServerVersion()).sort(), ['name', 'version']);
  const { tools } = await firstClient.listTools();
  assert.deepEqual(tools.map((t) => t.name), ['request_approval', 'ask_human', 'ask_choice']);
  for (const tool of tools)
    assert.deepEqual(Object.keys(tool).sort(), ['description', 'inputSchema', 'name']);
});

test('MCP 2024-11-05: the answer as text, invalid arguments a protocol error', async () => {
  const call = firstClient.callTool({ name: 'request_approval', arguments: { title: 'Old agent asks' } });
  const n = await answer('Old agent asks', 'approve', null);
  assert.equal(n.service.name, 'Old Agent');
  const result = await call;
  assert.deepEqual(Object.keys(result), ['content']);
  assert.match(result.content[0].text, /approved/);
  assert.equal(JSON.parse(result.content[1].text).approved, true);
  await assert.rejects(firstClient.callTool({ name: 'ask_human', arguments: { question: 'No type' } }),
    (error) => error.code === -32602 && /response_type/.test(error.message));
  await firstClient.close();
});

/* The two revisions between: each agreed as asked, ping answered, results with their
 * structured content, invalid arguments a protocol error (both list them so). */
for (const version of ['2025-06-18', '2025-03-26']) {
  test(`MCP ${version}: agreed, ping, an answer, invalid arguments a protocol error`, async () => {
    const transport = new VersionTransport(new StdioClientTransport({
      command: process.env.TRIAGE_MCP, env, stderr: 'inherit',
    }), version);
    const agent = new Client({ name: `Agent ${version}`, version: '1.0.0' });
    await agent.connect(transport);
    assert.equal(transport.agreed, version);
    assert.deepEqual(await agent.ping(), {});
    const call = agent.callTool({ name: 'request_approval', arguments: { title: `Asked in ${version}` } });
    await answer(`Asked in ${version}`, 'approve', null);
    assert.equal((await call).structuredContent.approved, true);
    await assert.rejects(agent.callTool({ name: 'ask_human', arguments: { question: 'No type' } }),
      (error) => error.code === -32602 && /response_type/.test(error.message));
    await agent.close();
  });
}

console.log(`1..${tests.length}`);
let failed = 0;
for (const [index, [name, fn]] of tests.entries()) {
  try {
    await fn();
    console.log(`ok ${index + 1} ${name}`);
  } catch (error) {
    failed++;
    console.log(`not ok ${index + 1} ${name}`);
    for (const line of String(error?.stack ?? error).split('\n')) console.log(`# ${line}`);
  }
}
await client.close().catch(() => {});
server.kill('SIGTERM');
await new Promise((resolve) => server.once('exit', resolve));
rmSync(root, { recursive: true, force: true });
process.exit(failed ? 1 : 0);
