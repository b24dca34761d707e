// The Isu extension: the language's highlighting and configuration come from
// package.json; everything else (diagnostics, fixes, formatting, hover,
// symbols, completion, the IO examples' code lens) is served by `isu lsp`,
// which this client starts.
'use strict';

const vscode = require('vscode');
const { LanguageClient, TransportKind } = require('vscode-languageclient/node');

let client;

function serverOptions() {
  const config = vscode.workspace.getConfiguration('isu.server');
  const command = config.get('path') || 'isu';
  const plugins = config.get('plugins');
  const args = plugins ? ['--plugins', plugins, 'lsp'] : ['lsp'];
  // TransportKind.stdio makes the client add `--stdio`, which `isu lsp` takes.
  return { command, args, transport: TransportKind.stdio };
}

async function start() {
  client = new LanguageClient(
    'isu',
    'Isu',
    serverOptions(),
    { documentSelector: [{ language: 'isu' }] },
  );
  await client.start();
}

async function activate(context) {
  context.subscriptions.push(
    vscode.workspace.onDidChangeConfiguration(async (event) => {
      if (event.affectsConfiguration('isu.server')) {
        if (client) {
          await client.stop();
        }
        await start();
      }
    }),
  );
  await start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
