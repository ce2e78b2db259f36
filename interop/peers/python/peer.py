"""The Python peer of serbench interop: one process per (library, variant) batch.

It reads JSON lines on stdin: first a header naming the library and the
variant ({"lib": "msgpack", "variant": "careful"}), then one case a line
({"case": NAME, "data": BASE64, "want": VALUE}). For each case it decodes
data, turns what it read into a neutral VALUE ("read"), encodes what it read
again ("back"), and encodes the case's expected value converted to Python
("own"). It answers a hello line ({"lib", "version"} or {"error"}), then one
line per case, in order. An exception costs the step it was raised in.

A neutral VALUE is a JSON object of one key, exact in every language:
{"nil": true}, {"bool": B}, {"int": "DECIMAL"}, {"float": "HEX BITS"},
{"float32": "HEX BITS"}, {"str": "BASE64 OF UTF-8"}, {"bytes": "BASE64"},
{"array": [VALUE...]}, {"map": [[VALUE, VALUE]...]},
{"time": {"s": "UNIX SECONDS", "ns": N, "off": SECONDS EAST or null}},
{"ext": {"type": N, "data": "BASE64"}}, {"tag": {"tag": "N", "value": VALUE}},
{"other": "TEXT"}.
"""

import base64
import datetime
import importlib.metadata
import json
import math
import struct
import sys

b64 = lambda b: base64.b64encode(b).decode("ascii")
unb64 = base64.b64decode


def to_neutral(v):
    """What a Python value read by a library is, as a neutral value."""
    if v is None:
        return {"nil": True}
    if isinstance(v, bool):
        return {"bool": v}
    if isinstance(v, int):
        return {"int": str(v)}
    if isinstance(v, float):
        return {"float": struct.pack(">d", v).hex()}
    if isinstance(v, str):
        return {"str": b64(v.encode("utf-8", "surrogateescape"))}
    if isinstance(v, (bytes, bytearray, memoryview)):
        return {"bytes": b64(bytes(v))}
    if isinstance(v, (list, tuple)):
        return {"array": [to_neutral(x) for x in v]}
    if isinstance(v, dict):
        return {"map": [[to_neutral(k), to_neutral(x)] for k, x in v.items()]}
    if isinstance(v, datetime.datetime):
        off = v.utcoffset()
        aware = v if off is not None else v.replace(tzinfo=datetime.timezone.utc)
        delta = aware - datetime.datetime(1970, 1, 1, tzinfo=datetime.timezone.utc)
        secs = delta.days * 86400 + delta.seconds
        return {"time": {"s": str(secs), "ns": delta.microseconds * 1000,
                         "off": None if off is None else int(off.total_seconds())}}
    name = type(v).__module__ + "." + type(v).__name__
    if name == "msgpack.ext.Timestamp":
        return {"time": {"s": str(v.seconds), "ns": v.nanoseconds, "off": 0}}
    if hasattr(v, "data") and (hasattr(v, "code") or hasattr(v, "tag")):
        return {"ext": {"type": getattr(v, "code", getattr(v, "tag", 0)), "data": b64(bytes(v.data))}}
    if hasattr(v, "tag") and hasattr(v, "value"):
        return {"tag": {"tag": str(v.tag), "value": to_neutral(v.value)}}
    return {"other": name + ": " + repr(v)[:200]}


def from_neutral(n, careful):
    """The Python value a program would hold for a neutral value."""
    (k, v), = n.items()
    if k == "nil":
        return None
    if k == "bool":
        return v
    if k == "int":
        return int(v)
    if k in ("float", "float32"):
        fmt = ">d" if k == "float" else ">f"
        return struct.unpack(fmt, bytes.fromhex(v))[0]
    if k == "str":
        return unb64(v).decode("utf-8", "surrogateescape" if careful else "replace")
    if k == "bytes":
        return unb64(v)
    if k == "array":
        return [from_neutral(x, careful) for x in v]
    if k == "map":
        return {from_neutral(a, careful): from_neutral(b, careful) for a, b in v}
    if k == "time":
        tz = datetime.timezone(datetime.timedelta(seconds=v["off"] or 0))
        t = datetime.datetime(1970, 1, 1, tzinfo=datetime.timezone.utc) + datetime.timedelta(
            seconds=int(v["s"]), microseconds=v["ns"] // 1000)
        return t.astimezone(tz)
    raise ValueError("no Python value for a neutral " + k)


def msgpack_lib(variant):
    import msgpack
    if variant == "careful":
        return (lambda b: msgpack.unpackb(b, strict_map_key=False, timestamp=3, unicode_errors="surrogateescape"),
                lambda v: msgpack.packb(v, datetime=True, unicode_errors="surrogateescape"))
    return msgpack.unpackb, msgpack.packb


def ormsgpack_lib(variant):
    import ormsgpack
    if variant == "careful":
        opt = ormsgpack.OPT_NON_STR_KEYS | ormsgpack.OPT_DATETIME_AS_TIMESTAMP_EXT
        return (lambda b: ormsgpack.unpackb(b, option=opt),
                lambda v: ormsgpack.packb(v, option=opt))
    return ormsgpack.unpackb, ormsgpack.packb


def cbor2_lib(variant):
    import cbor2
    return cbor2.loads, cbor2.dumps


def json_lib(variant):
    if variant == "careful":
        def strict(name):
            raise ValueError("not JSON: " + name)
        return (lambda b: json.loads(b, parse_constant=strict),
                lambda v: json.dumps(v, allow_nan=False, ensure_ascii=False, separators=(",", ":")).encode("utf-8", "surrogateescape"))
    return json.loads, lambda v: json.dumps(v).encode("utf-8")


def yaml_lib(variant):
    import yaml
    return yaml.safe_load, lambda v: yaml.safe_dump(v, allow_unicode=True).encode("utf-8")


def toml_lib(variant):
    import tomllib
    import tomli_w
    return lambda b: tomllib.loads(b.decode("utf-8")), lambda v: tomli_w.dumps(v).encode("utf-8")


def bson_lib(variant):
    import bson
    if variant == "careful":
        opts = bson.CodecOptions(tz_aware=True)
        return lambda b: bson.decode(b, codec_options=opts), bson.encode
    return bson.decode, bson.encode


# LIBS maps a library's name to its distribution (for its version) and the
# function that returns its load and dump for a variant.
LIBS = {
    "msgpack": ("msgpack", msgpack_lib),
    "ormsgpack": ("ormsgpack", ormsgpack_lib),
    "cbor2": ("cbor2", cbor2_lib),
    "json": (None, json_lib),
    "pyyaml": ("pyyaml", yaml_lib),
    "tomllib": ("tomli-w", toml_lib),
    "bson": ("pymongo", bson_lib),
}


def main():
    out = sys.stdout
    header = json.loads(sys.stdin.readline())
    lib, variant = header["lib"], header.get("variant", "")
    try:
        dist, make = LIBS[lib]
        load, dump = make(variant)
        version = importlib.metadata.version(dist) if dist else sys.version.split()[0]
    except Exception as e:  # a missing package is the column's skip, with its reason
        out.write(json.dumps({"error": "%s: %s" % (type(e).__name__, e)}) + "\n")
        return
    out.write(json.dumps({"lib": lib, "version": version}) + "\n")
    out.flush()
    careful = variant == "careful"
    for line in sys.stdin:
        case = json.loads(line)
        res = {"case": case["case"]}
        try:
            v = load(unb64(case["data"]))
            res["read"] = to_neutral(v)
            try:
                res["back"] = b64(dump(v))
            except Exception as e:
                res["backErr"] = "%s: %s" % (type(e).__name__, e)
        except Exception as e:
            res["readErr"] = "%s: %s" % (type(e).__name__, e)
        try:
            res["own"] = b64(dump(from_neutral(case["want"], careful)))
        except Exception as e:
            res["ownErr"] = "%s: %s" % (type(e).__name__, e)
        out.write(json.dumps(res) + "\n")
        out.flush()


if __name__ == "__main__":
    sys.setrecursionlimit(10000)
    main()
