#!/usr/bin/env node
'use strict';
// Times js-bson on one case that bsongen_bench wrote (<case>.bson and <case>.json), for
// bench/compare.
//
//   node bench_case.js CASE.bson CASE.json [--min-time SECONDS] [--repetitions N]
//                      [--warmup SECONDS] [--clock cpu|wall]
//
// decode = BSON.deserialize(bytes) with default options (what an application calls);
// encode = BSON.serialize(object) where object = EJSON.parse(json, {relaxed: false}), whose typed
// wrappers (Int32, Long, Double, Decimal128, ...) give exactly the BSON types of the bytes.
// Before timing, the script checks that encode reproduces the bytes exactly and that decode yields
// the same values; on any mismatch it prints why to stderr and exits 1 without timing anything.
// Prints one JSON object on stdout: per operation the median nanoseconds per call over the timed
// repetitions and their median absolute deviation as a percentage of the median.
// --clock cpu (the default) times with the process's CPU time (process.cpuUsage, user + system, so
// V8's helper threads count too), which a busy shared machine disturbs far less than wall time;
// --clock wall uses process.hrtime.

const fs = require('node:fs');
const path = require('node:path');
const { BSON, EJSON } = require('bson');
// bson's package.json is outside its "exports", so read it from where require found the package.
const bsonVersion = JSON.parse(fs.readFileSync(
  path.join(path.dirname(require.resolve('bson')), '..', 'package.json'), 'utf8')).version;

function usage(message) {
  process.stderr.write(`bench_case.js: ${message}\n` +
    'usage: node bench_case.js CASE.bson CASE.json [--min-time SECONDS] [--repetitions N] ' +
    '[--warmup SECONDS] [--clock cpu|wall]\n');
  process.exit(2);
}

function parseArgs(argv) {
  const options = { minTime: 0.2, repetitions: 10, warmup: 0.5, clock: 'cpu', files: [] };
  for (let i = 0; i < argv.length; ++i) {
    const arg = argv[i];
    if (arg === '--clock') {
      if (i + 1 >= argv.length) usage('--clock needs a value');
      options.clock = argv[++i];
      if (options.clock !== 'cpu' && options.clock !== 'wall') usage('--clock is cpu or wall');
    } else if (arg === '--min-time' || arg === '--repetitions' || arg === '--warmup') {
      if (i + 1 >= argv.length) usage(`${arg} needs a value`);
      const value = Number(argv[++i]);
      if (!Number.isFinite(value) || value <= 0) usage(`${arg} must be a positive number`);
      if (arg === '--min-time') options.minTime = value;
      else if (arg === '--warmup') options.warmup = value;
      else options.repetitions = Math.max(1, Math.floor(value));
    } else if (arg.startsWith('--')) {
      usage(`unknown option ${arg}`);
    } else {
      options.files.push(arg);
    }
  }
  if (options.files.length !== 2) usage('expected CASE.bson and CASE.json');
  return options;
}

function fail(caseName, message) {
  process.stderr.write(`js-bson check failed for ${caseName}: ${message}\n`);
  process.exit(1);
}

function firstDifference(a, b) {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; ++i) if (a[i] !== b[i]) return i;
  return n;
}

function excerpt(text, at) {
  return JSON.stringify(text.slice(Math.max(0, at - 40), at + 40));
}

// Both directions must agree with the case before any timing: a fast wrong answer is no result.
function checkCase(caseName, bytes, expected) {
  const encoded = BSON.serialize(expected);
  if (Buffer.compare(Buffer.from(encoded), bytes) !== 0) {
    const at = firstDifference(encoded, bytes);
    fail(caseName, `BSON.serialize(EJSON.parse(json)) differs from the case bytes: ` +
      `${encoded.length} vs ${bytes.length} bytes, first difference at byte offset ${at}`);
  }
  const canonical = { relaxed: false };
  const want = EJSON.stringify(expected, canonical);
  // Type-exact: without promotion, int32/int64/double come back as Int32/Long/Double wrappers.
  const exact = EJSON.stringify(BSON.deserialize(bytes, { promoteValues: false }), canonical);
  if (exact !== want) {
    const at = firstDifference(exact, want);
    fail(caseName, `BSON.deserialize(bytes, {promoteValues: false}) differs from the EJSON at ` +
      `character ${at}: got ${excerpt(exact, at)}, want ${excerpt(want, at)}`);
  }
  // The timed call promotes numbers to JavaScript numbers, so its types are coarser by design;
  // its values must still match, which relaxed Extended JSON compares.
  const relaxed = { relaxed: true };
  const gotValues = EJSON.stringify(BSON.deserialize(bytes), relaxed);
  const wantValues = EJSON.stringify(expected, relaxed);
  if (gotValues !== wantValues) {
    const at = firstDifference(gotValues, wantValues);
    fail(caseName, `BSON.deserialize(bytes) values differ from the EJSON at character ${at}: ` +
      `got ${excerpt(gotValues, at)}, want ${excerpt(wantValues, at)}`);
  }
}

let sink = 0;  // consumes every result so no call can be dropped as dead code

// Nanoseconds elapsed on the chosen clock.
const clocks = {
  wall: () => Number(process.hrtime.bigint()),
  cpu: () => {
    const usage = process.cpuUsage();
    return (usage.user + usage.system) * 1000;
  },
};
let now = clocks.cpu;

function runBatch(operation, iterations) {
  const start = now();
  for (let i = 0; i < iterations; ++i) sink ^= operation() === null ? 1 : 0;
  return now() - start;
}

function median(sorted) {
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

// Runs the operation for `warmup` seconds first: V8 compiles hot code in tiers, and its optimizing
// tier reaches a function this large only after some hundred milliseconds of calls, so short
// batches alone would time the baseline tiers. Then doubles the batch until one takes minTime,
// runs one more untimed batch of that size, and times `repetitions` batches.
function measure(operation, minTime, repetitions, warmup) {
  const warmupEnd = now() + warmup * 1e9;
  while (now() < warmupEnd) runBatch(operation, 64);
  const targetNs = minTime * 1e9;
  let iterations = 1;
  for (;;) {
    const elapsed = runBatch(operation, iterations);
    if (elapsed >= targetNs || iterations >= 1 << 30) break;
    const scale = elapsed > 0 ? Math.min(10, Math.max(2, (targetNs * 1.2) / elapsed)) : 10;
    iterations = Math.ceil(iterations * scale);
  }
  runBatch(operation, iterations);
  const perCall = [];
  for (let r = 0; r < repetitions; ++r) perCall.push(runBatch(operation, iterations) / iterations);
  perCall.sort((a, b) => a - b);
  const mid = median(perCall);
  const deviations = perCall.map((x) => Math.abs(x - mid)).sort((a, b) => a - b);
  return {
    ns_per_op: mid,
    mad_percent: mid > 0 ? (100 * median(deviations)) / mid : 0,
    iterations,
    repetitions,
  };
}

function main() {
  const options = parseArgs(process.argv.slice(2));
  const [bsonPath, jsonPath] = options.files;
  const caseName = path.basename(bsonPath).replace(/\.bson$/, '');
  const bytes = fs.readFileSync(bsonPath);
  const expected = EJSON.parse(fs.readFileSync(jsonPath, 'utf8'), { relaxed: false });
  checkCase(caseName, bytes, expected);
  now = clocks[options.clock];

  const results = {
    decode: measure(() => BSON.deserialize(bytes), options.minTime, options.repetitions,
      options.warmup),
    encode: measure(() => BSON.serialize(expected), options.minTime, options.repetitions,
      options.warmup),
  };
  process.stdout.write(JSON.stringify({
    implementation: 'js-bson',
    version: `bson ${bsonVersion}, node ${process.version}`,
    case: caseName,
    bytes: bytes.length,
    clock: options.clock,
    results,
    sink,
  }) + '\n');
}

main();
