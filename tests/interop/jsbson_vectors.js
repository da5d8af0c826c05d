// js-bson's side of tests/interop/jsbson_vector_interop_test.cpp (BSON Binary Vector, subtype 9).
//
//   node jsbson_vectors.js write DIR   writes DIR/<case>.bson ({v: Binary}) made with
//                                      Binary.fromFloat32Array / fromInt8Array / fromPackedBits,
//                                      and DIR/cases.json: each case's dtype, padding and elements
//                                      (float32 as their uint32 bit patterns, so -0 and NaN compare
//                                      exactly)
//   node jsbson_vectors.js read DIR    reads every DIR/*.bson and prints one JSON line per file:
//                                      {name, dtype, padding, elements} through toFloat32Array /
//                                      toInt8Array / toPackedBits, or {name, error}
//
// Exits 77 when the bson package cannot be loaded (the C++ test then skips).
'use strict';

const fs = require('fs');
const path = require('path');

let bson;
try {
  bson = require('bson');
} catch (e) {
  console.error(`bson package not found (${e.message})`);
  process.exit(77);
}
const { BSON, Binary } = bson;

const FLOAT32 = 0x27;
const INT8 = 0x03;
const PACKED_BIT = 0x10;

// `refused`: js-bson writes it, bsongen refuses it (nonzero ignored bits: the specification lets a
// driver keep them, bsongen does not).
const cases = [
  { name: 'float32_simple', dtype: FLOAT32, elements: [127, 7] },
  {
    name: 'float32_specials',
    dtype: FLOAT32,
    elements: [-Infinity, Infinity, -0, NaN, 1e-45, 3.4028234663852886e38, -7.7, 127.7],
  },
  { name: 'float32_empty', dtype: FLOAT32, elements: [] },
  { name: 'int8_range', dtype: INT8, elements: [-128, -1, 0, 1, 127] },
  { name: 'int8_empty', dtype: INT8, elements: [] },
  { name: 'packed_12_bits', dtype: PACKED_BIT, elements: [0xee, 0xe0], padding: 4 },
  { name: 'packed_full_bytes', dtype: PACKED_BIT, elements: [0x7f, 0x07], padding: 0 },
  { name: 'packed_one_bit', dtype: PACKED_BIT, elements: [0x80], padding: 7 },
  { name: 'packed_empty', dtype: PACKED_BIT, elements: [], padding: 0 },
  { name: 'packed_ignored_bits', dtype: PACKED_BIT, elements: [0xff], padding: 7, refused: true },
];

function float32Bits(f32) {
  return Array.from(new Uint32Array(f32.buffer, f32.byteOffset, f32.length));
}

function write(dir) {
  fs.mkdirSync(dir, { recursive: true });
  const described = [];
  for (const c of cases) {
    let bin;
    let elements;
    if (c.dtype === FLOAT32) {
      const f32 = new Float32Array(c.elements);
      bin = Binary.fromFloat32Array(f32);
      elements = float32Bits(f32);
    } else if (c.dtype === INT8) {
      bin = Binary.fromInt8Array(new Int8Array(c.elements));
      elements = c.elements;
    } else {
      bin = Binary.fromPackedBits(new Uint8Array(c.elements), c.padding);
      elements = c.elements;
    }
    fs.writeFileSync(path.join(dir, `${c.name}.bson`), BSON.serialize({ v: bin }));
    described.push({
      name: c.name,
      dtype: c.dtype,
      padding: c.padding ?? 0,
      elements,
      refused: c.refused ?? false,
    });
  }
  fs.writeFileSync(path.join(dir, 'cases.json'), JSON.stringify(described));
}

function read(dir) {
  for (const file of fs.readdirSync(dir).filter((f) => f.endsWith('.bson')).sort()) {
    const name = path.basename(file, '.bson');
    try {
      const bin = BSON.deserialize(fs.readFileSync(path.join(dir, file))).v;
      if (!(bin instanceof Binary) || bin.sub_type !== Binary.SUBTYPE_VECTOR) {
        throw new Error('v is not a subtype 9 binary');
      }
      const dtype = bin.buffer[0];
      const padding = bin.buffer[1];
      let elements;
      if (dtype === FLOAT32) elements = float32Bits(bin.toFloat32Array());
      else if (dtype === INT8) elements = Array.from(bin.toInt8Array());
      else elements = Array.from(bin.toPackedBits());
      console.log(JSON.stringify({ name, dtype, padding, elements }));
    } catch (e) {
      console.log(JSON.stringify({ name, error: String(e.message) }));
    }
  }
}

const [mode, dir] = process.argv.slice(2);
if (mode === 'write' && dir) write(dir);
else if (mode === 'read' && dir) read(dir);
else {
  console.error('usage: node jsbson_vectors.js write|read DIR');
  process.exit(2);
}
