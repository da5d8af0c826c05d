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
// wrappers (Int32, Long, Double, Decimal128, ...) give exactly the BSON types of the bytes, with
// two values held as an application holds them (applicationValue below):
//  * a BSON Binary Vector (binary subtype 9) of float32 or int8 elements is a Float32Array or
//    Int8Array: encode builds its Binary with Binary.fromFloat32Array / fromInt8Array, decode
//    turns the Binary that deserialize returns into the typed array with toFloat32Array /
//    toInt8Array (packed_bit vectors stay Binary values: their padding has no typed array);
//  * an array whose elements are all non-integral finite doubles is a plain Array of numbers,
//    which js-bson writes as doubles (deserialize returns such arrays already).
// Before timing, the script checks that encode reproduces the bytes exactly and that decode yields
// the same values; on any mismatch it prints why to stderr and exits 1 without timing anything.
// Prints one JSON object on stdout: per operation the median nanoseconds per call over the timed
// repetitions and their median absolute deviation as a percentage of the median.
// --clock cpu (the default) times with the process's CPU time (process.cpuUsage, user + system, so
// V8's helper threads count too), which a busy shared machine disturbs far less than wall time;
// --clock wall uses process.hrtime.

const fs = require('node:fs');
const path = require('node:path');
const { BSON, EJSON, Binary, Double } = require('bson');
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

// The typed array an application holds for a float32 or int8 Binary Vector, with the js-bson
// calls that convert it; null for any other value.
const VECTOR_KINDS = [
  { dtype: Binary.VECTOR_TYPE.Float32, toTyped: (b) => b.toFloat32Array(),
    fromTyped: (a) => Binary.fromFloat32Array(a), typed: Float32Array },
  { dtype: Binary.VECTOR_TYPE.Int8, toTyped: (b) => b.toInt8Array(),
    fromTyped: (a) => Binary.fromInt8Array(a), typed: Int8Array },
];
function vectorKind(value) {
  if (!(value instanceof Binary) || value.sub_type !== Binary.SUBTYPE_VECTOR) return null;
  return VECTOR_KINDS.find((k) => value.buffer[0] === k.dtype) ?? null;
}

function isPlainDoubleArray(value) {
  return Array.isArray(value) && value.length > 0 && value.every((e) => e instanceof Double &&
    Number.isFinite(e.value) && !Number.isInteger(e.value));
}

// The value of `typed` (EJSON.parse's, canonical) as an application holds it: typed arrays for
// vectors, plain numbers in arrays of doubles (see the top of the file). Collects each vector's
// place (the path of its container and its key or index) and kind into `vectors`, outermost
// first.
function applicationValue(typed, vectors, path = []) {
  const kind = vectorKind(typed);
  if (kind !== null) return kind.toTyped(typed);
  if (isPlainDoubleArray(typed)) return typed.map((e) => e.value);
  const isArray = Array.isArray(typed);
  // Documents are plain objects; everything else (BSON wrappers, Date, RegExp) is a value.
  if (!isArray && (typed === null || Object.getPrototypeOf(typed) !== Object.prototype)) {
    return typed;
  }
  const out = isArray ? [] : {};
  for (const [key, value] of Object.entries(typed)) {
    const at = isArray ? Number(key) : key;
    const inner = vectorKind(value);
    if (inner !== null) vectors.push({ path, key: at, kind: inner });
    out[at] = applicationValue(value, vectors, [...path, at]);
  }
  return out;
}

// Sets every vector of `document` to `convert(kind, value)`: in place (decode: deserialize's
// result is new), or in copies of the containers on the way (encode: the application value stays
// as it is).
function withVectors(document, vectors, convert, copy) {
  if (vectors.length === 0) return document;
  const clone = (v) => (Array.isArray(v) ? [...v] : { ...v });
  const top = copy ? clone(document) : document;
  for (const { path, key, kind } of vectors) {
    let container = top;
    for (const step of path) {
      if (copy) container[step] = clone(container[step]);
      container = container[step];
    }
    container[key] = convert(kind, container[key]);
  }
  return top;
}

// The two timed operations on a case: the application value to bytes and back.
function makeOperations(bytes, typed) {
  const vectors = [];
  const application = applicationValue(typed, vectors);
  const toBinary = (kind, array) => kind.fromTyped(array);
  const toTyped = (kind, binary) => kind.toTyped(binary);
  return {
    application,
    vectors,
    encode: () => BSON.serialize(withVectors(application, vectors, toBinary, true)),
    decode: vectors.length === 0 ? () => BSON.deserialize(bytes)
      : () => withVectors(BSON.deserialize(bytes), vectors, toTyped, false),
  };
}

function sameTypedArray(a, b) {
  return a.constructor === b.constructor &&
    Buffer.compare(Buffer.from(a.buffer, a.byteOffset, a.byteLength),
      Buffer.from(b.buffer, b.byteOffset, b.byteLength)) === 0;
}

// Both directions must agree with the case before any timing: a fast wrong answer is no result.
function checkCase(caseName, bytes, expected, operations) {
  const fromApplication = operations.encode();
  if (Buffer.compare(Buffer.from(fromApplication), bytes) !== 0) {
    const at = firstDifference(fromApplication, bytes);
    fail(caseName, `BSON.serialize of the application value differs from the case bytes: ` +
      `${fromApplication.length} vs ${bytes.length} bytes, first difference at byte offset ${at}`);
  }
  // Decode's typed arrays hold the case's elements, bit for bit.
  const decoded = operations.decode();
  for (const { path, key } of operations.vectors) {
    const got = [...path, key].reduce((v, step) => v[step], decoded);
    const want = [...path, key].reduce((v, step) => v[step], operations.application);
    if (!sameTypedArray(got, want)) {
      fail(caseName, `decode's vector at ${[...path, key].join('.')} differs from the case's`);
    }
  }
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
  const operations = makeOperations(bytes, expected);
  checkCase(caseName, bytes, expected, operations);
  now = clocks[options.clock];

  const results = {
    decode: measure(operations.decode, options.minTime, options.repetitions, options.warmup),
    encode: measure(operations.encode, options.minTime, options.repetitions, options.warmup),
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
