#!/usr/bin/python3
"""Writes schemas/combinations_1.yaml .. combinations_<n>.yaml: every leaf type of the schema
grammar wrapped in every container/wrapper shape up to depth 3 that the grammar accepts, for
combinations_test.cpp.

Several files rather than one, so the build compiles their generated sources side by side (as one
file, its source was the longest compile of the build: 80-100 s CPU in Release, ~4 min under
ASan+UBSan).
Each file is a run of consecutive structs (PART_STARTS), chosen for about equal compile cost. A
schema cannot name another file's types, so a file also defines the enums and leaf structs its
fields use (`fixed` and `texty` are in several files), each file in its own C++ namespace
`combo::part<k>`; the documents of a struct defined in several files are those of the first.

Deterministic (no randomness): the same script writes the same files, and
`make_combination_schema.py --check` (ctest `generator_combination_schema_test`) fails when a
checked-in file is stale or missing, or when a schemas/combinations*.yaml it does not write is
left over.

Shapes: `vector<T>` (V), `array<T, N>` (A), `map<string, T>` (M), `nullable<T>` (N), and
`optional<T>` (O, a field's outermost type only). Coverage:
- depth 1: every leaf under every shape;
- depth 2: every leaf under every outer shape, the inner shape rotating so that each leaf also
  meets every inner shape and each (outer, inner) pair holds several leaves;
- depth 3: every (outer, middle, inner) triple the grammar accepts, leaves assigned in turn;
- special cases: containers in structs that reject or capture unknown fields (and reject
  duplicate keys), vectors of vectors of structs, recursion through vector/map/nullable, omit_empty
  on optional<vector<T>> and on containers, the `map<T>`, `T?` and `std::` spellings, a `cpp:`
  std::unordered_map, and containers of int32 spelled with std::int64_t elements.

The grammar's refusals are stated here once more (`refusal`), independently of the generator:
combinations the rules refuse are not written, and tests/generator/generator_test.py checks that
bsongen refuses each of them (`refused_combinations()`) with the reason given here.
"""

import glob
import os
import re
import sys

import yaml

HERE = os.path.dirname(os.path.abspath(__file__))
SCHEMA_DIR = os.path.join(HERE, "schemas")

# Where each file starts: file k holds the structs from PART_STARTS[k - 1] up to the next start, in
# the order combination_fields() makes them (the hand-written structs first). Consecutive runs, so
# write_combination_documents.py, reading the files in order, meets every struct in the same order
# (one random generator runs through all of them, so the order decides the documents). Rebalance
# here when the compile costs shift; CMake's list in tests/generated/CMakeLists.txt names the files.
PART_STARTS = ["fixed", "c_datetime", "c_any", "deep_2"]

# Leaf name (used in struct and field names) -> type expression. Every scalar BSON type the
# format has, both enum storages, a fixed-shape struct, a struct with strings, `any`, and the two
# widened numbers (number<T> takes only int64 and double, so they are leaves here).
LEAVES = [
    ("double", "double"),
    ("string", "string"),
    ("javascript", "javascript"),
    ("int32", "int32"),
    ("int64", "int64"),
    ("bool", "bool"),
    ("datetime", "datetime"),
    ("object_id", "object_id"),
    ("decimal128", "decimal128"),
    ("binary", "binary"),
    ("uuid", "uuid"),
    ("timestamp", "timestamp"),
    ("regex", "regex"),
    ("null", "null"),
    ("min_key", "min_key"),
    ("max_key", "max_key"),
    ("jscope", "javascript_with_scope"),
    ("raw", "raw_document"),
    ("any", "any"),
    ("ienum", "level"),
    ("senum", "mood"),
    ("fixed", "fixed"),
    ("texty", "texty"),
    ("num_i64", "number<int64>"),
    ("num_dbl", "number<double>"),
]

SHAPES = ["V", "A", "M", "N", "O"]
INNER_SHAPES = ["V", "A", "M", "N"]  # optional is only a field's outermost type

# nullable<T> refuses these element kinds (they already are, or hold, null).
NULLABLE_REFUSED = {"any": "`any` holds a null itself", "null": "`null` is only null",
                    "nullable": "a nullable is already null or a value"}


def wrap(shape: str, inner: str, size: int) -> str:
    if shape == "V":
        return f"vector<{inner}>"
    if shape == "A":
        return f"array<{inner}, {size}>"
    if shape == "M":
        return f"map<string, {inner}>"
    if shape == "N":
        return f"nullable<{inner}>"
    if shape == "O":
        return f"optional<{inner}>"
    raise ValueError(shape)


def head(expr: str) -> str:
    """The outermost kind of a type expression written by this script."""
    return expr.split("<", 1)[0] if "<" in expr else expr


def refusal(shapes: list[str], leaf_expr: str):
    """Why the grammar refuses shapes (outermost first) around leaf_expr, or None when it
    accepts it. The rules (docs/schema-format.md): `optional` only as a field's outermost type;
    `nullable` not of nullable, any or null."""
    for i, s in enumerate(shapes):
        if s == "O" and i != 0:
            return "`optional` is only allowed as a field's outermost type"
        if s == "N":
            inner = shapes[i + 1] if i + 1 < len(shapes) else None
            kind = "nullable" if inner == "N" else (None if inner else head(leaf_expr))
            if kind in NULLABLE_REFUSED:
                return f"`nullable<{kind}>` is not allowed"
    return None


def build(shapes: list[str], leaf_expr: str, size: int) -> str:
    expr = leaf_expr
    for s in reversed(shapes):
        expr = wrap(s, expr, size)
    return expr


def combination_fields():
    """(struct, field name, type expression) per generated combination, and the refused
    combinations met on the way as (type expression, reason)."""
    fields, refused = [], []

    def add(struct: str, shapes: list[str], leaf: str, expr: str, size: int) -> None:
        why = refusal(shapes, expr)
        full = build(shapes, expr, size)
        if why:
            refused.append((full, why))
        else:
            fields.append((struct, "_".join(s.lower() for s in shapes), full))

    for i, (leaf, expr) in enumerate(LEAVES):
        struct = f"c_{leaf}"
        fields.append((struct, "plain", expr))
        for s in SHAPES:
            add(struct, [s], leaf, expr, 2)
        # Depth 2: each outer shape once, the inner one rotating with the leaf.
        for k, outer in enumerate(SHAPES):
            inner = INNER_SHAPES[(i + k) % len(INNER_SHAPES)]
            if refusal([outer, inner], expr):
                refused.append((build([outer, inner], expr, 2), refusal([outer, inner], expr)))
                inner = INNER_SHAPES[(i + k + 1) % len(INNER_SHAPES)]
            add(struct, [outer, inner], leaf, expr, 1 + (i + k) % 3)
    # Depth 3: every accepted triple, leaves in turn, in structs of 10 fields.
    t = 0
    for outer in SHAPES:
        for middle in INNER_SHAPES:
            for inner in INNER_SHAPES:
                shapes = [outer, middle, inner]
                leaf, expr = LEAVES[(t * 7) % len(LEAVES)]
                why = refusal(shapes, expr)
                if why:
                    refused.append((build(shapes, expr, 2), why))
                    if why.startswith("`nullable<nullable>`"):
                        continue  # refused whatever the leaf
                    leaf, expr = LEAVES[(t * 7 + 1) % len(LEAVES)]
                struct = f"deep_{t // 10}"
                name = "_".join(s.lower() for s in shapes) + f"_{leaf}"
                fields.append((struct, name, build(shapes, expr, 1 + t % 3)))
                t += 1
    return fields, refused


def refused_combinations():
    """Combinations the grammar refuses, as (type expression, the generator's reason)."""
    refused = combination_fields()[1]
    # optional below every shape (the enumeration above never puts it there).
    for outer in SHAPES:
        refused.append((build([outer, "O"], "texty", 2), refusal([outer, "O"], "texty")))
    refused += [
        ("vector<optional<int32>>", "`optional` is only allowed as a field's outermost type"),
        ("map<string, int32?>", "`optional` is only allowed as a field's outermost type"),
        ("optional<optional<int32>>", "`optional` is only allowed as a field's outermost type"),
        ("array<nullable<fixed>?, 2>", "`optional` is only allowed as a field's outermost type"),
        ("nullable<nullable<fixed>>", "`nullable<nullable>` is not allowed"),
        ("vector<nullable<any>>", "`nullable<any>` is not allowed"),
        ("number<int32>", "`number` takes int64 or double, not `int32`"),
        ("vector<number<string>>", "`number` takes int64 or double, not `string`"),
        ("array<int32, 0>", "`array` size must be an integer in 1..65536"),
    ]
    seen, unique = set(), []
    for expr, why in refused:
        if expr not in seen:
            seen.add(expr)
            unique.append((expr, why))
    return unique


HEADER = """\
# GENERATED by tests/generated/make_combination_schema.py; do not edit. Refresh with
#   /usr/bin/python3 tests/generated/make_combination_schema.py
# Every leaf type wrapped in every container/wrapper shape up to depth 3 the grammar accepts,
# for combinations_test.cpp (documents written by write_combination_documents.py with pymongo).
"""

# The enums and hand-written structs, each defined in every file whose fields use it.
ENUMS = {
    "level": """\
  level:
    storage: int32
    values: {low: -5, mid: 0, high: 2147483647}
""",
    "mood": """\
  mood:
    storage: string
    values:
      calm:
      busy:
      sunny: {bson_name: "\\u00e9t\\u00e9"}
""",
}
STRUCTS = {
    "fixed": """\
  fixed:
    doc: A fixed-shape struct (every field fixed-width).
    fields:
      x: double
      n: int32
      flag: bool
      at: datetime
      id: object_id
""",
    "texty": """\
  texty:
    doc: A struct with strings.
    fields:
      name: string
      code: javascript
      alias: nullable<string>
""",
    "tree": """\
  tree:
    doc: Recursive through vector, map, nullable, array and optional (always under a vector or map).
    fields:
      label: string
      kids: vector<tree>
      by_name: map<tree>
      maybe: vector<nullable<tree>>
      pair: "array<vector<tree>, 2>"
      later: "vector<tree>?"
""",
    "strict": """\
  strict:
    doc: Containers in a struct that rejects unknown fields.
    unknown_fields: reject
    fields:
      by_name: "map<string, vector<fixed>>"
      rows: "vector<nullable<texty>>"
      n: int32
""",
    "kept": """\
  kept:
    doc: Containers in a struct that captures unknown fields (written back after its fields).
    unknown_fields: capture
    capture_member: rest
    duplicate_keys: reject
    fields:
      grid: "vector<array<int32, 2>>"
      tags: "map<string, string>"
      maybe: "optional<vector<fixed>>"
""",
    "special": """\
  special:
    doc: Struct containers, omit_empty, spellings, a required field.
    fields:
      id: {type: int64, key: _id, required: true}
      vv_fixed: vector<vector<fixed>>
      vv_texty: vector<vector<texty>>
      av_fixed: "array<vector<fixed>, 2>"
      mv_texty: "map<string, vector<texty>>"
      vm_fixed: "vector<map<string, fixed>>"
      o_v_omit: {type: "optional<vector<int32>>", omit_empty: true}
      o_m_omit: {type: "optional<map<string, string>>", omit_empty: true}
      v_omit: {type: vector<string>, omit_empty: true}
      m_omit: {type: map<int64>, omit_empty: true}
      s_omit: {type: string, omit_empty: true}
      bin_omit: {type: binary, omit_empty: true}
      raw_omit: {type: raw_document, omit_empty: true}
      forest: vector<tree>
      grove: "map<string, vector<tree>>"
      maybe_tree: "tree?"
      null_tree: nullable<tree>
      spelled_v: std::vector<std::vector<int32>>
      spelled_o: "std::optional<std::vector<bool>>"
      spelled_m: "map<nullable<number<double>>>"
      q_any: "any?"
      q_null_any: "vector<any>?"
      on_nn: "nullable<vector<nullable<int32>>>?"
      unordered: {type: "map<string, int64>", cpp: "std::unordered_map<std::string, std::int64_t>"}
      wide_lists: {type: "map<string, vector<int32>>",
                   cpp: "std::map<std::string, std::vector<std::int64_t>>"}
      wide_grid: {type: "vector<array<int32, 2>>", cpp: "std::vector<std::array<std::int64_t, 2>>"}
""",
}


def type_names(expr: str) -> set[str]:
    """The enums and hand-written structs a type expression names."""
    return {w for w in re.findall(r"[A-Za-z_][A-Za-z0-9_]*", expr) if w in ENUMS or w in STRUCTS}


def struct_types(name: str) -> list[str]:
    """The type expressions of a hand-written struct's fields."""
    fields = yaml.safe_load(STRUCTS[name])[name]["fields"]
    return [spec["type"] if isinstance(spec, dict) else spec for spec in fields.values()]


def parts():
    """Per file: its structs as (name, YAML text, type expressions of the fields), in order."""
    structs = [(name, text, struct_types(name)) for name, text in STRUCTS.items()]
    generated = {}
    for struct, name, expr in combination_fields()[0]:
        generated.setdefault(struct, []).append((name, expr))
    for struct, fields in generated.items():
        text = f"  {struct}:\n    fields:\n" + "".join(f'      {name}: "{expr}"\n'
                                                   for name, expr in fields)
        structs.append((struct, text, [expr for _, expr in fields]))
    names = [name for name, _, _ in structs]
    starts = [names.index(start) for start in PART_STARTS]  # ValueError: no such struct
    assert starts[0] == 0 and starts == sorted(starts), PART_STARTS
    return [structs[a:b] for a, b in zip(starts, starts[1:] + [len(structs)])]


def render_part(number: int, count: int, own: list) -> str:
    """One file: the enums and hand-written structs its structs use, then its structs."""
    used, todo = set(), [name for _, _, types in own for expr in types for name in type_names(expr)]
    while todo:
        name = todo.pop()
        if name not in used:
            used.add(name)
            if name in STRUCTS:
                todo += [used_name for expr in struct_types(name) for used_name in type_names(expr)]
    owned = {name for name, _, _ in own}
    copies = [name for name in STRUCTS if name in used and name not in owned]
    lines = [HEADER, f"# Part {number} of {count}: the structs {own[0][0]} .. {own[-1][0]}"]
    if copies:
        also = " and ".join(copies)
        lines.append(f";\n# also {also}, which fields here use (tested with part 1)")
    lines.append(f".\nnamespace: combo::part{number}\n")
    enums = [name for name in ENUMS if name in used]
    if enums:
        lines.append("enums:\n" + "".join(ENUMS[name] for name in enums))
    lines.append("structs:\n" + "".join(STRUCTS[name] for name in copies))
    lines += [text for _, text, _ in own]
    return "".join(lines)


def outputs() -> dict[str, str]:
    """Path -> text of every file this script writes."""
    split = parts()
    return {os.path.join(SCHEMA_DIR, f"combinations_{k}.yaml"): render_part(k, len(split), own)
            for k, own in enumerate(split, start=1)}


OUTPUTS = list(outputs())


def leftovers(written) -> list[str]:
    """schemas/combinations*.yaml files this script does not write (an older split, or the single
    file there was before)."""
    return sorted(set(glob.glob(os.path.join(SCHEMA_DIR, "combinations*.yaml"))) - set(written))


def main() -> int:
    files = outputs()
    refresh = f"refresh with\n  /usr/bin/python3 {__file__}"
    if sys.argv[1:] == ["--check"]:
        problems = []
        for path, text in files.items():
            try:
                with open(path, encoding="utf-8") as f:
                    if f.read() != text:
                        problems.append(f"{path} is stale")
            except FileNotFoundError:
                problems.append(f"{path} is missing")
        problems += [f"{path} is not written by this script (left over)"
                     for path in leftovers(files)]
        for problem in problems:
            print(problem, file=sys.stderr)
        if problems:
            print(refresh, file=sys.stderr)
            return 1
        return 0
    if sys.argv[1:]:
        print("usage: make_combination_schema.py [--check]", file=sys.stderr)
        return 2
    for path, text in files.items():
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
    for path in leftovers(files):
        with open(path, encoding="utf-8") as f:
            generated = f.readline().startswith(HEADER.splitlines()[0])
        if not generated:
            print(f"{path}: not written by this script; left alone", file=sys.stderr)
            return 1
        os.remove(path)
        print(f"removed {path} (no longer written)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
