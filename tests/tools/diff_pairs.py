"""The type conversions of `bsongen diff`'s tests: one table, read by two tests. diff_test.py
checks diff's verdicts on each row, both ways round; diff_decode_test.py generates every row's two
structs into one schema, decodes values with them and checks the verdicts against what the
generated decoders accept.

A row: one field `v` whose type changes from `old` to `new` (the schema-file value of the field;
`E` names the row's enum, given by `enum`), the rules diff reports, and whether the change breaks
readers (new code reading what old code wrote) and writers (old code reading what new code writes).
`decodes`: False for a spelling the generated code cannot compile (only diff's verdict is checked).
"""

from typing import NamedTuple, Optional

OK, BREAKS = False, True


class Row(NamedTuple):
    name: str
    old: str
    new: str
    rules: list
    readers: bool
    writers: bool
    enum: Optional[str] = None
    decodes: bool = True


ENUM_1_300 = "{values: {a: 1, b: 300}}"
ENUM_STRING = "{storage: string, values: [a, b]}"
SECONDS = '{type: datetime, cpp: "std::chrono::sys_seconds"}'
DAYS = '{type: datetime, cpp: "std::chrono::sys_days"}'
NANOSECONDS = '{type: datetime, cpp: "std::chrono::sys_time<std::chrono::nanoseconds>"}'
MICROSECONDS = ('{type: datetime, cpp: "std::chrono::time_point<std::chrono::system_clock, '
                'std::chrono::microseconds>"}')

ROWS = [
    Row("int32 -> int64", "int32", "int64", ["type_widened"], OK, BREAKS),
    Row("int64 -> int32", "int64", "int32", ["type_narrowed"], BREAKS, OK),
    Row("int32 -> double", "int32", "double", ["type_widened"], OK, BREAKS),
    Row("int64 -> double", "int64", "double", ["type_changed"], BREAKS, BREAKS),
    Row("int32 -> string", "int32", "string", ["type_changed"], BREAKS, BREAKS),
    # number<T> writes back the type it read: int32 and int64 (number<double>: and double).
    Row("int32 -> number<int64>", "int32", "number<int64>", ["type_widened"], OK, BREAKS),
    Row("int64 -> number<int64>", "int64", "number<int64>", ["type_changed"], OK, OK),
    Row("int32 -> number<double>", "int32", "number<double>", ["type_widened"], OK, BREAKS),
    Row("double -> number<double>", "double", "number<double>", ["type_widened"], OK, BREAKS),
    Row("number<double> -> double", "number<double>", "double", ["type_narrowed"], BREAKS, OK),
    # number<double> refuses int64 beyond 2^53 in magnitude (`inexact`).
    Row("int64 -> number<double>", "int64", "number<double>", ["type_changed"], BREAKS, BREAKS),
    Row("number<int64> -> number<double>", "number<int64>", "number<double>", ["type_changed"],
        BREAKS, BREAKS),
    # Integer spellings narrow the range; a double held in an integer holds whole numbers.
    Row("int32 -> held as std::uint8_t", "int32", "{type: int32, cpp: std::uint8_t}",
        ["cpp_changed"], BREAKS, OK),
    Row("held as std::int16_t -> int32", "{type: int32, cpp: std::int16_t}", "int32",
        ["cpp_changed"], OK, BREAKS),
    Row("int64 -> held as std::uint64_t", "int64", "{type: int64, cpp: std::uint64_t}",
        ["cpp_changed"], BREAKS, OK),
    Row("int64 -> held as std::int32_t", "int64", "{type: int64, cpp: std::int32_t}",
        ["cpp_changed"], BREAKS, OK),
    Row("double -> held as std::int16_t", "double", "{type: double, cpp: std::int16_t}",
        ["cpp_changed"], BREAKS, OK),
    Row("double held as int -> held as std::int64_t", "{type: double, cpp: int}",
        "{type: double, cpp: std::int64_t}", ["cpp_changed"], OK, BREAKS),
    Row("double held as int -> int32", "{type: double, cpp: int}", "int32", ["type_narrowed"],
        BREAKS, OK),
    Row("int32 -> double held as std::uint8_t", "int32", "{type: double, cpp: std::uint8_t}",
        ["type_changed"], BREAKS, BREAKS),
    # float refuses finite doubles beyond its range (1e300); values within round.
    Row("double -> held as float", "double", "{type: double, cpp: float}", ["cpp_changed"],
        BREAKS, OK),
    Row("held as float -> double", "{type: double, cpp: float}", "double", ["cpp_changed"],
        OK, BREAKS),
    # A coarser clock refuses milliseconds that are not whole ticks (1500 ms in seconds), a finer
    # one milliseconds its count cannot reach.
    Row("datetime -> held as sys_seconds", "datetime", SECONDS, ["cpp_changed"], BREAKS, OK),
    Row("held as sys_seconds -> datetime", SECONDS, "datetime", ["cpp_changed"], OK, BREAKS),
    Row("sys_seconds -> sys_days", SECONDS, DAYS, ["cpp_changed"], BREAKS, OK),
    Row("datetime -> held in nanoseconds", "datetime", NANOSECONDS, ["cpp_changed"], BREAKS, OK),
    Row("nanoseconds -> microseconds", NANOSECONDS, MICROSECONDS, ["cpp_changed"], OK, BREAKS),
    # An enum writes its values, and reads only them.
    Row("int32 enum {1, 300} -> int32", "E", "int32", ["type_widened"], OK, BREAKS, ENUM_1_300),
    Row("int32 enum {1, 300} -> held as std::uint8_t", "E", "{type: int32, cpp: std::uint8_t}",
        ["type_changed"], BREAKS, BREAKS, ENUM_1_300),
    Row("int32 enum -> number<int64>", "E", "number<int64>", ["type_widened"], OK, BREAKS,
        ENUM_1_300),
    Row("int32 enum -> int64", "E", "int64", ["type_widened"], OK, BREAKS, ENUM_1_300),
    Row("int32 enum -> double", "E", "double", ["type_widened"], OK, BREAKS, ENUM_1_300),
    Row("int32 -> int32 enum", "int32", "E", ["type_narrowed"], BREAKS, OK, ENUM_1_300),
    Row("string enum -> string", "E", "string", ["type_widened"], OK, BREAKS, ENUM_STRING),
    Row("string enum -> int32", "E", "int32", ["type_changed"], BREAKS, BREAKS, ENUM_STRING),
    # int64 held as double does not compile (the int64 codec converts into integers only).
    Row("int64 -> held as double", "int64", "{type: int64, cpp: double}", ["cpp_changed"],
        BREAKS, BREAKS, decodes=False),
]


def field_type(spec: str, enum_name: str) -> str:
    """A row's field type with its enum named `enum_name`."""
    return enum_name if spec == "E" else spec
