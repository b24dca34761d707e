// The `node` runner of bench/all.py: a module that `isu build --target wasm
// --emit js` wrote, run through its JavaScript loader in Node, with the
// benchmark interface of run_wasm and the LLVM executables:
//
//   node run_node.mjs NAME.mjs ARGS.json [--max-steps N] [--max-size N] [--max-memory N] [--repeat N]
//
// prints the result as JSON (ints as their digits, floats with a fraction);
// with `--repeat N` it calls the function N times on the one loaded module
// and prints the least time a call took, in nanoseconds, on standard error.
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";

const USAGE =
  "usage: node run_node.mjs NAME.mjs ARGS.json [--max-steps N] [--max-size N] [--max-memory N] [--repeat N]";

function fail(message) {
  process.stderr.write(`run_node: ${message}\n`);
  process.exit(1);
}

const files = [];
const limits = {};
let repeat = 0;
const argv = process.argv.slice(2);
for (let i = 0; i < argv.length; i++) {
  const a = argv[i];
  const count = () => {
    const n = argv[++i];
    if (n === undefined || !/^[0-9]+$/.test(n)) fail(`${a} takes a count\n${USAGE}`);
    return BigInt(n);
  };
  if (a === "--repeat") repeat = Number(count());
  else if (a === "--max-steps") limits.maxSteps = count();
  else if (a === "--max-size") limits.maxSize = count();
  else if (a === "--max-memory") limits.maxMemory = count();
  else if (a.startsWith("--")) fail(`unknown flag ${a}\n${USAGE}`);
  else files.push(a);
}
if (files.length !== 2) fail(USAGE);
const [loaderFile, argsFile] = files;

// The arguments: ints that a Number holds exactly are accepted as ints by the
// loader, so only larger ones cannot be given this way.
let args;
try {
  args = JSON.parse(readFileSync(argsFile, "utf8"), (_, v) => {
    if (typeof v === "number" && Number.isInteger(v) && !Number.isSafeInteger(v)) {
      throw new Error(`the int ${v} is beyond what a JSON number in JavaScript holds exactly`);
    }
    return v;
  });
} catch (e) {
  fail(`${argsFile}: ${e.message}`);
}

const { load, toJson: json } = await import(pathToFileURL(resolve(loaderFile)).href);
const f = await load(undefined, limits);
let best = Infinity;
let result;
for (let i = 0; i < Math.max(repeat, 1); i++) {
  const t = process.hrtime.bigint();
  try {
    result = f.run(args);
  } catch (e) {
    fail(e.code ? `${e.code} at ${e.step ?? "-"}` : String(e));
  }
  const ns = Number(process.hrtime.bigint() - t);
  if (ns < best) best = ns;
}
if (repeat > 0) process.stderr.write(`${best}\n`);
process.stdout.write(`${json(result)}\n`);
