"""The Python peer of serbench interop: one process per (library, variant) batch.

It reads JSON lines on stdin: first a header naming the library and the
variant ({"lib": "msgpack", "variant": "careful"}), for a format of a
schema the schema ("schema": BASE64, Protobuf's FileDescriptorSet), and for
a format of several protocols the one to speak ("protocol": "compact",
Thrift's), then one case a line ({"case": NAME, "data": BASE64, "want":
VALUE}, with "type": the case's type in the schema, a message's full name,
an Avro schema's JSON, a Thrift spec's ({"root": NAME, "structs": {NAME:
[{"id", "name", "type", "optional"}...]}}), or a FlatBuffers table's or Cap'n
Proto struct's name, for a format of a schema; FlatBuffers' header schema is
its tables ({NAME: {"struct", "size", "align", "fields": [{"name", "type",
"optional", "offset"}...]}}), Cap'n Proto's {"text": serbench.capnp's text,
"tables": its structs, as FlatBuffers' tables are given}). For each case it decodes
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


def protobuf_lib(variant, header):
    """protobuf's message classes, built from the schema's descriptors
    (a FileDescriptorSet in the header): no generated code."""
    from google.protobuf import descriptor_pb2, descriptor_pool, message_factory
    pool = descriptor_pool.DescriptorPool()
    for f in descriptor_pb2.FileDescriptorSet.FromString(unb64(header["schema"])).file:
        pool.Add(f)
    cls = lambda t: message_factory.GetMessageClass(pool.FindMessageTypeByName(t))
    return (lambda b, t: cls(t).FromString(b), lambda m, t: m.SerializeToString(),
            pb_neutral, lambda n, t, careful: pb_fill(cls(t)(), n, careful))


def pb_is_map(f):
    return f.message_type is not None and f.message_type.GetOptions().map_entry


def pb_repeated(f):
    r = getattr(f, "is_repeated", None)
    return r if r is not None else f.label == 3


def pb_neutral(m):
    """A message as a neutral map of its fields by name, in field order: a
    field with presence left out when unset (the rule of the Go side)."""
    pairs = []
    for f in m.DESCRIPTOR.fields:
        v = getattr(m, f.name)
        if pb_is_map(f):
            kf, vf = f.message_type.fields_by_name["key"], f.message_type.fields_by_name["value"]
            n = {"map": [[pb_value(kf, k), pb_value(vf, x)] for k, x in v.items()]}
        elif pb_repeated(f):
            n = {"array": [pb_value(f, x) for x in v]}
        elif f.has_presence and not m.HasField(f.name):
            continue
        else:
            n = pb_value(f, v)
        pairs.append([{"str": b64(f.name.encode())}, n])
    return {"map": pairs}


def pb_value(f, v):
    from google.protobuf.descriptor import FieldDescriptor as F
    if f.type in (F.TYPE_MESSAGE, F.TYPE_GROUP):
        return pb_neutral(v)
    if f.type == F.TYPE_FLOAT:
        return {"float32": struct.pack(">f", v).hex()}
    if f.type == F.TYPE_DOUBLE:
        return {"float": struct.pack(">d", v).hex()}
    if f.type == F.TYPE_BOOL:
        return {"bool": v}
    if f.type == F.TYPE_STRING:
        return {"str": b64(v.encode("utf-8", "surrogateescape"))}
    if f.type == F.TYPE_BYTES:
        return {"bytes": b64(v)}
    return {"int": str(int(v))}


def pb_fill(m, n, careful):
    """Sets m's fields from a neutral map of them, as a program sets a
    message's fields from its own values."""
    for k, x in n["map"]:
        name = unb64(k["str"]).decode()
        f = m.DESCRIPTOR.fields_by_name[name]
        if pb_is_map(f):
            vf = f.message_type.fields_by_name["value"]
            target = getattr(m, name)
            for a, b in x["map"]:
                key = from_neutral(a, careful)
                if vf.message_type is not None:
                    pb_fill(target[key], b, careful)
                else:
                    target[key] = from_neutral(b, careful)
        elif pb_repeated(f):
            target = getattr(m, name)
            for e in x["array"]:
                if f.message_type is not None:
                    pb_fill(target.add(), e, careful)
                else:
                    target.append(from_neutral(e, careful))
        elif f.message_type is not None:
            sub = getattr(m, name)
            sub.SetInParent()
            pb_fill(sub, x, careful)
        else:
            setattr(m, name, from_neutral(x, careful))
    return m


def fastavro_lib(variant, header):
    """fastavro's schemaless reader and writer, on each case's schema (its
    type, self-contained)."""
    import io
    import fastavro
    parsed = {}

    def schema(t):
        if t not in parsed:
            parsed[t] = fastavro.parse_schema(json.loads(t))
        return parsed[t]

    def load(b, t):
        bio = io.BytesIO(b)
        v = fastavro.schemaless_reader(bio, schema(t), None)
        if bio.tell() != len(b):
            raise ValueError("%d bytes left after the value" % (len(b) - bio.tell()))
        return v

    def dump(v, t):
        bio = io.BytesIO()
        fastavro.schemaless_writer(bio, schema(t), v)
        return bio.getvalue()
    return load, dump, to_neutral, lambda n, t, careful: from_neutral(n, careful)


def thrift_lib(variant, header):
    """thrift's TBase structs, built from each case's spec (its type: the
    struct and those it holds, with their fields' ids, names and types) as
    thrift_spec tuples, the form `thrift --gen py:dynamic` generates; read
    and written with TSerialization in the protocol the header names
    (TBinaryProtocol or TCompactProtocol)."""
    from thrift.TSerialization import serialize, deserialize
    from thrift.Thrift import TType
    from thrift.protocol import TBinaryProtocol, TCompactProtocol
    from thrift.protocol.TBase import TBase
    factory = {"binary": TBinaryProtocol.TBinaryProtocolFactory,
               "compact": TCompactProtocol.TCompactProtocolFactory}[header.get("protocol") or "binary"]()
    base = {"bool": (TType.BOOL, None), "byte": (TType.BYTE, None), "i16": (TType.I16, None),
            "i32": (TType.I32, None), "i64": (TType.I64, None), "double": (TType.DOUBLE, None),
            "string": (TType.STRING, "UTF8"), "binary": (TType.STRING, "BINARY")}
    built = {}

    def classes(t):
        if t in built:
            return built[t]
        spec = json.loads(t)
        cls = {}
        for name, fields in spec["structs"].items():
            names = [f["name"] for f in fields]

            def init(self, _names=names):
                for n in _names:
                    setattr(self, n, None)
            cls[name] = type(name, (TBase,), {"__slots__": names, "__init__": init, "fields": fields})

        def ttype(ft):
            if isinstance(ft, str):
                return base[ft]
            if ft[0] == "list":
                e = ttype(ft[1])
                return TType.LIST, (e[0], e[1], False)
            if ft[0] == "map":
                k, v = ttype(ft[1]), ttype(ft[2])
                return TType.MAP, (k[0], k[1], v[0], v[1], False)
            return TType.STRUCT, [cls[ft[1]], None]
        for name, fields in spec["structs"].items():
            ts = [None] * (max([f["id"] for f in fields], default=0) + 1)
            for f in fields:
                tt, arg = ttype(f["type"])
                ts[f["id"]] = (f["id"], tt, f["name"], arg, None)
            cls[name].thrift_spec = tuple(ts)
        for c in cls.values():
            c.types = {f["name"]: f["type"] for f in c.fields}
        built[t] = (cls, cls[spec["root"]])
        return built[t]

    def neutral(v, ft=None):
        if isinstance(v, TBase):
            return {"map": [[{"str": b64(f["name"].encode())}, neutral(getattr(v, f["name"]), f["type"])]
                            for f in v.fields if getattr(v, f["name"]) is not None]}
        if isinstance(v, (list, tuple)):
            return {"array": [neutral(x, ft[1]) for x in v]}
        if isinstance(v, dict):
            return {"map": [[neutral(k, ft[1]), neutral(x, ft[2])] for k, x in v.items()]}
        return to_neutral(v)

    def build(n, t, careful):
        cls, root = classes(t)

        def make(n, ft):
            if isinstance(ft, list) and ft[0] == "struct":
                c = cls[ft[1]]
                obj = c()
                for k, x in n["map"]:
                    name = unb64(k["str"]).decode()
                    setattr(obj, name, make(x, c.types[name]))
                return obj
            if isinstance(ft, list) and ft[0] == "list":
                return [make(x, ft[1]) for x in n["array"]]
            if isinstance(ft, list) and ft[0] == "map":
                return {make(a, ft[1]): make(b, ft[2]) for a, b in n["map"]}
            v = from_neutral(n, careful)
            return float(v) if ft == "double" else v
        return make(n, ["struct", root.__name__])

    return (lambda b, t: deserialize(classes(t)[1](), b, factory),
            lambda v, t: serialize(v, factory), neutral, build)


def flatbuffers_lib(variant, header):
    """flatbuffers' Builder and Table on the header's tables (serbench.fbs
    as serbench reads it: each table's fields in slot order with their
    types, each struct's layout), no generated code: a table reads as a
    dict of its present fields (a string decoded as UTF-8, as a program
    decodes the bytes the generated accessors give), and a dict writes as
    the generated builders write a table (a scalar equal to its default
    left out, an optional one always written)."""
    import flatbuffers
    from flatbuffers import number_types as N
    from flatbuffers.table import Table
    spec = json.loads(unb64(header["schema"]))
    flags = {"long": (N.Int64Flags, 8), "int": (N.Int32Flags, 4), "ulong": (N.Uint64Flags, 8),
             "double": (N.Float64Flags, 8), "bool": (N.BoolFlags, 1)}

    def scalar(tab, ft, pos):
        return tab.Get(flags[ft][0], pos)

    def read_struct(tab, name, pos):
        return {f["name"]: scalar(tab, f["type"], pos + f.get("offset", 0)) for f in spec[name]["fields"]}

    def elem_size(ft):
        if isinstance(ft, str) and ft in flags:
            return flags[ft][1]
        if isinstance(ft, list) and ft[0] == "struct":
            return spec[ft[1]]["size"]
        return 4

    def read_at(tab, ft, pos):
        """The value of type ft whose slot or element is at pos."""
        if isinstance(ft, str):
            if ft == "string":
                return tab.String(pos).decode("utf-8")
            return scalar(tab, ft, pos)
        if ft[0] == "table":
            return read_table(Table(tab.Bytes, tab.Indirect(pos)), ft[1])
        if ft[0] == "struct":
            return read_struct(tab, ft[1], pos)
        raise ValueError("no reader for %r" % (ft,))

    def read_table(tab, name):
        out = {}
        for i, f in enumerate(spec[name]["fields"]):
            o = tab.Offset(4 + 2 * i)
            ft = f["type"]
            if o == 0:
                if isinstance(ft, str) and ft in flags and not f.get("optional"):
                    out[f["name"]] = 0.0 if ft == "double" else (False if ft == "bool" else 0)
                continue
            if ft == "bytes":
                out[f["name"]] = bytes(tab.Bytes[tab.Vector(o):tab.Vector(o) + tab.VectorLen(o)])
            elif isinstance(ft, list) and ft[0] == "vector":
                start, size = tab.Vector(o), elem_size(ft[1])
                out[f["name"]] = [read_at(tab, ft[1], start + j * size) for j in range(tab.VectorLen(o))]
            else:
                out[f["name"]] = read_at(tab, ft, o + tab.Pos)
        return out

    prepend = {"long": "Int64", "int": "Int32", "ulong": "Uint64", "double": "Float64", "bool": "Bool"}

    def write_struct(b, name, v):
        t = spec[name]
        b.Prep(t["align"], t["size"])
        end = t["size"]
        for f in reversed(t["fields"]):
            size = flags[f["type"]][1]
            b.Pad(end - f.get("offset", 0) - size)
            getattr(b, "Prepend" + prepend[f["type"]])(v.get(f["name"], 0))
            end = f.get("offset", 0)
        b.Pad(end)
        return b.Offset()

    def write_ref(b, ft, v):
        """The offset of a string, vector or table written before its table."""
        if ft == "string":
            return b.CreateString(v) if isinstance(v, str) else b.CreateByteVector(v)
        if ft == "bytes":
            return b.CreateByteVector(bytes(v))
        if ft[0] == "table":
            return write_table(b, ft[1], v)
        et = ft[1]
        if isinstance(et, str) and et in flags:
            b.StartVector(flags[et][1], len(v), flags[et][1])
            for x in reversed(v):
                getattr(b, "Prepend" + prepend[et])(x)
        elif et[0] == "struct":
            b.StartVector(spec[et[1]]["size"], len(v), spec[et[1]]["align"])
            for x in reversed(v):
                write_struct(b, et[1], x)
        else:
            offs = [write_ref(b, et, x) for x in v]
            b.StartVector(4, len(v), 4)
            for o in reversed(offs):
                b.PrependUOffsetTRelative(o)
        return b.EndVector()

    def write_table(b, name, d):
        fields = spec[name]["fields"]
        offs = {}
        for i, f in enumerate(fields):
            ft = f["type"]
            if f["name"] in d and not (isinstance(ft, str) and ft in flags) and not (isinstance(ft, list) and ft[0] == "struct"):
                offs[i] = write_ref(b, ft, d[f["name"]])
        b.StartObject(len(fields))
        for i, f in enumerate(fields):
            if f["name"] not in d:
                continue
            ft, v = f["type"], d[f["name"]]
            if i in offs:
                b.PrependUOffsetTRelativeSlot(i, offs[i], 0)
            elif isinstance(ft, list):
                b.PrependStructSlot(i, write_struct(b, ft[1], v), 0)
            else:
                default = None if f.get("optional") else 0
                getattr(b, "Prepend" + prepend[ft] + "Slot")(i, float(v) if ft == "double" else v, default)
        return b.EndObject()

    def load(data, t):
        return read_table(Table(bytearray(data), flatbuffers.encode.Get(flatbuffers.packer.uoffset, bytearray(data), 0)), t)

    def dump(v, t):
        b = flatbuffers.Builder(1024)
        b.Finish(write_table(b, t, v))
        return bytes(b.Output())

    return load, dump, to_neutral, lambda n, t, careful: from_neutral(n, careful)


def pycapnp_lib(variant, header):
    """pycapnp on serbench.capnp as the header gives it, loaded at run time
    (capnp.load): a struct reads as its to_dict() and writes back through
    new_message(**dict) and to_bytes(), the unpacked message stream."""
    import os
    import tempfile
    import capnp
    capnp.remove_import_hook()
    d = tempfile.mkdtemp(prefix="serbench-capnp-")
    path = os.path.join(d, "serbench.capnp")
    with open(path, "wb") as f:
        f.write(json.loads(unb64(header["schema"]))["text"].encode("utf-8"))
    mod = capnp.load(path)

    def load(data, t):
        with getattr(mod, t).from_bytes(data) as m:
            return m.to_dict()

    def dump(v, t):
        return getattr(mod, t).new_message(**v).to_bytes()

    return load, dump, to_neutral, lambda n, t, careful: from_neutral(n, careful)


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
    "protobuf": ("protobuf", protobuf_lib),
    "fastavro": ("fastavro", fastavro_lib),
    "thrift": ("thrift", thrift_lib),
    "flatbuffers": ("flatbuffers", flatbuffers_lib),
    "pycapnp": ("pycapnp", pycapnp_lib),
}

# SCHEMA lists the libraries of a format of a schema: their function takes
# the header too and returns load(data, type), dump(value, type),
# read(value) (its neutral form) and build(neutral, type, careful).
SCHEMA = {"protobuf", "fastavro", "thrift", "flatbuffers", "pycapnp"}


def main():
    out = sys.stdout
    header = json.loads(sys.stdin.readline())
    lib, variant = header["lib"], header.get("variant", "")
    try:
        dist, make = LIBS[lib]
        if lib in SCHEMA:
            load, dump, read, build = make(variant, header)
        else:
            load1, dump1 = make(variant)
            load, dump = lambda b, t: load1(b), lambda v, t: dump1(v)
            read, build = to_neutral, lambda n, t, careful: from_neutral(n, careful)
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
        typ = case.get("type", "")
        try:
            v = load(unb64(case["data"]), typ)
            res["read"] = read(v)
            try:
                res["back"] = b64(dump(v, typ))
            except Exception as e:
                res["backErr"] = "%s: %s" % (type(e).__name__, e)
        except Exception as e:
            res["readErr"] = "%s: %s" % (type(e).__name__, e)
        try:
            res["own"] = b64(dump(build(case["want"], typ, careful), typ))
        except Exception as e:
            res["ownErr"] = "%s: %s" % (type(e).__name__, e)
        out.write(json.dumps(res) + "\n")
        out.flush()


if __name__ == "__main__":
    sys.setrecursionlimit(10000)
    main()
