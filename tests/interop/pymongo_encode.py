#!/usr/bin/python3
"""Writes the bench-data documents as pymongo encodes them, for tests/interop/pymongo_interop_test.

usage: pymongo_encode.py <bench-data dir> <output dir>

Each <name>.json (canonical Extended JSON) is parsed with bson.json_util (canonical mode keeps
every BSON type) and written as <output dir>/<name>.bson with bson.encode. Exits 77 when the
Debian python3-bson package is missing, so the caller can skip with a clear reason.
"""

import os
import sys

try:
    import bson
    from bson import json_util
    from bson.codec_options import CodecOptions
except ImportError as exc:  # pragma: no cover - depends on the machine
    print(f"pymongo's bson package is not installed ({exc}); install python3-bson", file=sys.stderr)
    sys.exit(77)

NAMES = ("flat_bson", "deep_bson", "full_bson")


def main() -> int:
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    source, target = sys.argv[1], sys.argv[2]
    os.makedirs(target, exist_ok=True)
    # Keep Binary subtype 0 / 3 / 4 as Binary and integers' widths as json_util read them.
    json_options = json_util.JSONOptions(json_mode=json_util.JSONMode.CANONICAL,
                                         document_class=dict, tz_aware=True)
    for name in NAMES:
        with open(os.path.join(source, name + ".json"), encoding="utf-8") as f:
            document = json_util.loads(f.read(), json_options=json_options)
        data = bson.encode(document, codec_options=CodecOptions(tz_aware=True))
        with open(os.path.join(target, name + ".bson"), "wb") as out:
            out.write(data)
        print(f"{name}: {len(data)} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
