// The Node peer of serbench interop: one process per (library, variant)
// batch, speaking the protocol of the Python peer (interop/peers/python/peer.py
// says it, the schema and type of a format of a schema, and what a neutral
// value is). A JavaScript number is the neutral
// {"num": HEX BITS}: the language has one number type, so what a number
// stands for is the reader's to say.
"use strict";
const fs = require("fs");
const path = require("path");
const readline = require("readline");

const b64 = (b) => Buffer.from(b.buffer ? new Uint8Array(b.buffer, b.byteOffset, b.byteLength) : b).toString("base64");
const unb64 = (s) => new Uint8Array(Buffer.from(s, "base64"));
const bits = (x, n) => {
  const b = Buffer.alloc(n);
  n === 8 ? b.writeDoubleBE(x) : b.writeFloatBE(x);
  return b.toString("hex");
};

// toNeutral returns what a value read by a library is, as a neutral value.
function toNeutral(v) {
  if (v === null || v === undefined) return { nil: true };
  switch (typeof v) {
    case "boolean": return { bool: v };
    case "number": return { num: bits(v, 8) };
    case "bigint": return { int: v.toString() };
    case "string": return { str: Buffer.from(v, "utf8").toString("base64") };
  }
  if (v instanceof Uint8Array) return { bytes: b64(v) };
  if (v instanceof ArrayBuffer) return { bytes: b64(new Uint8Array(v)) };
  if (Array.isArray(v)) return { array: v.map(toNeutral) };
  if (v instanceof Date) {
    const ms = v.getTime();
    if (Number.isNaN(ms)) return { other: "Invalid Date" };
    const s = Math.floor(ms / 1000);
    return { time: { s: String(s), ns: (ms - s * 1000) * 1e6, off: 0 } };
  }
  if (v instanceof Map) return { map: [...v].map(([k, x]) => [toNeutral(k), toNeutral(x)]) };
  const name = v.constructor ? v.constructor.name : "Object";
  if ((name === "ExtData" || name === "Extension") && v.data !== undefined) return { ext: { type: v.type, data: b64(v.data) } };
  if (name === "Long" && "high" in v) return { int: (v.unsigned ? BigInt.asUintN(64, BigInt(v.toString())) : BigInt(v.toString())).toString() };
  if (name === "Binary" && v.buffer !== undefined) return { bytes: b64(v.buffer) };
  if (name === "Double" || name === "Int32") return { num: bits(v.valueOf(), 8) };
  if (name === "Tag" && "tag" in v) return { tag: { tag: String(v.tag), value: toNeutral(v.value) } };
  if (name === "Object" || name === undefined) return { map: Object.entries(v).map(([k, x]) => [toNeutral(k), toNeutral(x)]) };
  return { other: name + ": " + String(v).slice(0, 200) };
}

// fromNeutral returns the value a program would hold for a neutral value:
// integers past 2^53 as BigInt only when careful, a map as an object when
// its keys are strings and, when careful, as a Map otherwise.
function fromNeutral(n, careful) {
  const [k, v] = Object.entries(n)[0];
  switch (k) {
    case "nil": return null;
    case "bool": return v;
    case "int": {
      const i = BigInt(v);
      return careful && (i > BigInt(Number.MAX_SAFE_INTEGER) || i < BigInt(Number.MIN_SAFE_INTEGER)) ? i : Number(v);
    }
    case "float": return Buffer.from(v, "hex").readDoubleBE();
    case "float32": return Buffer.from(v, "hex").readFloatBE();
    case "str": return Buffer.from(v, "base64").toString("utf8");
    case "bytes": return unb64(v);
    case "array": return v.map((x) => fromNeutral(x, careful));
    case "map": {
      const pairs = v.map(([a, b]) => [fromNeutral(a, careful), fromNeutral(b, careful)]);
      if (careful && pairs.some(([a]) => typeof a !== "string")) return new Map(pairs);
      return Object.fromEntries(pairs);
    }
    case "time": return new Date(Number(BigInt(v.s) * 1000n) + Math.floor(v.ns / 1e6));
  }
  throw new Error("no JavaScript value for a neutral " + k);
}

// protobufjs's message types, built from the schema's descriptors (a
// FileDescriptorSet in the header): no generated code.
function protobufjs(variant, h) {
  const pb = require("protobufjs");
  require("protobufjs/ext/descriptor");
  const root = pb.Root.fromDescriptor(Buffer.from(h.schema, "base64")).resolveAll();
  const T = (t) => root.lookupType(t);
  // A message as a neutral map of its fields by their names in the
  // schema, in field order: a field with presence left out when unset.
  const read = (type, m) => ({
    map: type.fieldsArray.flatMap((f) => {
      const v = m[f.name];
      let n;
      if (f.map) n = { map: Object.entries(v || {}).map(([k, x]) => [key(f.keyType, k), value(f, x)]) };
      else if (f.repeated) n = { array: (v || []).map((x) => value(f, x)) };
      else if ((f.partOf || f.resolvedType instanceof pb.Type) && (!Object.prototype.hasOwnProperty.call(m, f.name) || v == null)) return [];
      else n = value(f, v);
      return [[{ str: Buffer.from(f.protoName || f.name).toString("base64") }, n]];
    }),
  });
  const key = (t, k) => (t === "string" ? { str: Buffer.from(k, "utf8").toString("base64") } : t === "bool" ? { bool: k === "true" } : { int: String(k) });
  const value = (f, x) => {
    if (f.resolvedType instanceof pb.Type) return read(f.resolvedType, x);
    switch (f.type) {
      case "float": return { float32: bits(x, 4) };
      case "double": return { float: bits(x, 8) };
      case "bool": return { bool: x };
      case "string": return { str: Buffer.from(x, "utf8").toString("base64") };
      case "bytes": return { bytes: b64(x) };
    }
    if (typeof x === "number") return { int: BigInt(x).toString() };
    return toNeutral(x); // a Long
  };
  // A neutral map as the plain object a program hands fromObject: 64-bit
  // integers as decimal text, which fromObject reads exactly.
  const build = (type, n) => {
    const o = {};
    for (const [k, x] of n.map) {
      const name = Buffer.from(k.str, "base64").toString("utf8");
      const f = type.fieldsArray.find((f) => (f.protoName || f.name) === name);
      if (!f) throw new Error(type.name + " has no field " + name);
      if (f.map) o[f.name] = Object.fromEntries(x.map.map(([a, b]) => [String(fromNeutral(a, true)), one(f, b)]));
      else if (f.repeated) o[f.name] = x.array.map((e) => one(f, e));
      else o[f.name] = one(f, x);
    }
    return o;
  };
  const one = (f, x) => (f.resolvedType instanceof pb.Type ? build(f.resolvedType, x) : "int" in x ? x.int : fromNeutral(x, true));
  return {
    load: (b, t) => T(t).decode(b),
    dump: (m, t) => T(t).encode(m).finish(),
    read: (m, t) => read(T(t), m),
    build: (n, t) => T(t).fromObject(build(T(t), n)),
  };
}

// avsc's types on each case's schema (its type, self-contained). Careful: longs as BigInt (avsc's
// documented LongType.__with); a timestamp is its long either way (a
// Date would lose its microseconds), a number: avsc reads a long of a
// logical type with its own long type, not the registry's.
function avsc(variant, h) {
  const avro = require("avsc");
  const careful = variant === "careful";
  let long;
  if (careful) {
    long = avro.types.LongType.__with({
      fromBuffer: (buf) => buf.readBigInt64LE(),
      toBuffer: (n) => {
        const buf = Buffer.alloc(8);
        buf.writeBigInt64LE(BigInt(n));
        return buf;
      },
      fromJSON: BigInt,
      toJSON: Number,
      isValid: (n) => typeof n === "bigint" || Number.isSafeInteger(n),
      compare: (a, b) => (a === b ? 0 : a < b ? -1 : 1),
    });
  }
  const types = new Map();
  // Each case's schema is self-contained: a registry of its own.
  const T = (t) => {
    if (!types.has(t)) types.set(t, avro.Type.forSchema(JSON.parse(t), { registry: long ? { long } : {} }));
    return types.get(t);
  };
  // A record is an object of its own class: read as a plain object.
  const plain = (v) => {
    if (v === null || typeof v !== "object" || v instanceof Uint8Array || v instanceof Date) return v;
    if (Array.isArray(v)) return v.map(plain);
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, plain(x)]));
  };
  // Without a logical type, a timestamp is the long the schema holds.
  const build = (n) => {
    const [k, v] = Object.entries(n)[0];
    if (k === "time") {
      // A long of a logical type is avsc's own long, not the registry's.
      return Number(BigInt(v.s) * 1000000n + BigInt(Math.floor(v.ns / 1000)));
    }
    if (k === "bytes") return Buffer.from(v, "base64");
    if (k === "array") return v.map(build);
    if (k === "map") return Object.fromEntries(v.map(([a, b]) => [fromNeutral(a, careful), build(b)]));
    return fromNeutral(n, careful);
  };
  return {
    load: (b, t) => T(t).fromBuffer(Buffer.from(b)),
    dump: (v, t) => T(t).toBuffer(v),
    read: (v) => toNeutral(plain(v)),
    build: (n) => build(n),
  };
}

// thrift's protocols on each case's structs (its type: the struct and
// those it holds, with their fields' ids, names and types), read and
// written field by field as the code `thrift --gen js:node` generates
// does: an i64 read as the library's Int64 (node-int64, exact), a string
// by its UTF-8, binary as a Buffer; the protocol the header names
// (TBinaryProtocol or TCompactProtocol). A program writes its own numbers
// for an i64 (writeI64 takes a number) by default; careful, a BigInt
// through the library's fromBigInt.
function thrift(variant, h) {
  const th = require("thrift");
  const T = th.Thrift.Type;
  const careful = variant === "careful";
  const Protocol = { binary: th.TBinaryProtocol, compact: th.TCompactProtocol }[h.protocol || "binary"];
  const base = { bool: T.BOOL, byte: T.BYTE, i16: T.I16, i32: T.I32, i64: T.I64, double: T.DOUBLE, string: T.STRING, binary: T.STRING };
  const ttype = (ft) => (typeof ft === "string" ? base[ft] : { list: T.LIST, map: T.MAP, struct: T.STRUCT }[ft[0]]);
  const specs = new Map();
  const spec = (t) => {
    if (!specs.has(t)) specs.set(t, JSON.parse(t));
    return specs.get(t);
  };
  const readValue = (p, ft, s) => {
    if (typeof ft !== "string") {
      if (ft[0] === "struct") return readStruct(p, ft[1], s);
      if (ft[0] === "list") {
        const l = p.readListBegin();
        const out = [];
        for (let i = 0; i < l.size; i++) out.push(readValue(p, ft[1], s));
        p.readListEnd();
        return out;
      }
      const m = p.readMapBegin();
      const out = new Map();
      for (let i = 0; i < m.size; i++) {
        const k = readValue(p, ft[1], s);
        out.set(k, readValue(p, ft[2], s));
      }
      p.readMapEnd();
      return out;
    }
    switch (ft) {
      case "bool": return p.readBool();
      case "byte": return p.readByte();
      case "i16": return p.readI16();
      case "i32": return p.readI32();
      case "i64": return p.readI64();
      case "double": return p.readDouble();
      case "string": return p.readString();
      case "binary": return p.readBinary();
    }
  };
  // A struct is an object of its fields by name, its struct's name kept
  // apart; an unset field is absent, as generated code leaves it null.
  const readStruct = (p, name, s) => {
    const fields = s.structs[name];
    const obj = {};
    p.readStructBegin();
    for (;;) {
      const f = p.readFieldBegin();
      if (f.ftype === T.STOP) break;
      const fd = fields.find((x) => x.id === f.fid);
      if (fd && ttype(fd.type) === f.ftype) obj[fd.name] = readValue(p, fd.type, s);
      else p.skip(f.ftype);
      p.readFieldEnd();
    }
    p.readStructEnd();
    return obj;
  };
  const writeValue = (p, ft, v, s) => {
    if (typeof ft !== "string") {
      if (ft[0] === "struct") return writeStruct(p, ft[1], v, s);
      if (ft[0] === "list") {
        p.writeListBegin(ttype(ft[1]), v.length);
        for (const x of v) writeValue(p, ft[1], x, s);
        return p.writeListEnd();
      }
      p.writeMapBegin(ttype(ft[1]), ttype(ft[2]), v.size);
      for (const [k, x] of v) {
        writeValue(p, ft[1], k, s);
        writeValue(p, ft[2], x, s);
      }
      return p.writeMapEnd();
    }
    switch (ft) {
      case "bool": return p.writeBool(v);
      case "byte": return p.writeByte(v);
      case "i16": return p.writeI16(v);
      case "i32": return p.writeI32(v);
      case "i64": return p.writeI64(typeof v === "bigint" ? th.fromBigInt(v) : v);
      case "double": return p.writeDouble(v);
      case "string": return p.writeString(v);
      case "binary": return p.writeBinary(Buffer.from(v));
    }
  };
  const writeStruct = (p, name, obj, s) => {
    p.writeStructBegin(name);
    for (const f of s.structs[name]) {
      const v = obj[f.name];
      if (v === null || v === undefined) continue;
      p.writeFieldBegin(f.name, ttype(f.type), f.id);
      writeValue(p, f.type, v, s);
      p.writeFieldEnd();
    }
    p.writeFieldStop();
    p.writeStructEnd();
  };
  const neutral = (v, ft, s) => {
    if (typeof ft !== "string") {
      if (ft[0] === "struct") {
        const pairs = [];
        for (const f of s.structs[ft[1]]) if (v[f.name] !== undefined && v[f.name] !== null) pairs.push([toNeutral(f.name), neutral(v[f.name], f.type, s)]);
        return { map: pairs };
      }
      if (ft[0] === "list") return { array: v.map((x) => neutral(x, ft[1], s)) };
      return { map: [...v].map(([k, x]) => [neutral(k, ft[1], s), neutral(x, ft[2], s)]) };
    }
    if (ft === "i64") return { int: th.toBigInt(v).toString() };
    if (ft === "double") return { float: bits(v, 8) };
    if (ft === "binary") return { bytes: b64(v) };
    return toNeutral(v);
  };
  const build = (n, ft, s) => {
    if (typeof ft !== "string") {
      if (ft[0] === "struct") {
        const obj = {};
        const fields = s.structs[ft[1]];
        for (const [k, x] of n.map) {
          const name = Buffer.from(k.str, "base64").toString("utf8");
          obj[name] = build(x, fields.find((f) => f.name === name).type, s);
        }
        return obj;
      }
      if (ft[0] === "list") return n.array.map((x) => build(x, ft[1], s));
      return new Map(n.map.map(([a, b]) => [build(a, ft[1], s), build(b, ft[2], s)]));
    }
    if (ft === "i64" && careful) return BigInt(n.int);
    return fromNeutral(n, false);
  };
  return {
    load: (b, t) => {
      const s = spec(t);
      return readStruct(new Protocol(new th.TFramedTransport(Buffer.from(b))), s.root, s);
    },
    dump: (v, t) => {
      const s = spec(t);
      let out;
      const trans = new th.TBufferedTransport(undefined, (buf) => (out = buf));
      writeStruct(new Protocol(trans), s.root, v, s);
      trans.flush();
      return out || Buffer.alloc(0);
    },
    read: (v, t) => neutral(v, ["struct", spec(t).root], spec(t)),
    build: (n, t) => build(n, ["struct", spec(t).root], spec(t)),
  };
}

// flatbuffers' Builder and ByteBuffer on the header's tables (serbench.fbs
// as serbench reads it: each table's fields in slot order with their
// types, each struct's layout), read and written as the code `flatc --ts`
// generates does, without it: a long or ulong as a BigInt, a string
// decoded as UTF-8 (the generated accessor's default), a scalar equal to
// its default left out when written, an optional one always written.
function flatbuffers(variant, h) {
  const fb = require("flatbuffers");
  const spec = JSON.parse(Buffer.from(h.schema, "base64").toString("utf8"));
  const size = { long: 8, ulong: 8, double: 8, int: 4, bool: 1 };
  const readScalar = (bb, ft, pos) => {
    switch (ft) {
      case "long": return bb.readInt64(pos);
      case "ulong": return bb.readUint64(pos);
      case "int": return bb.readInt32(pos);
      case "double": return bb.readFloat64(pos);
      case "bool": return !!bb.readInt8(pos);
    }
    throw new Error("no scalar " + ft);
  };
  const zero = (ft) => (ft === "long" || ft === "ulong" ? 0n : ft === "bool" ? false : 0);
  const readStruct = (bb, name, pos) => {
    const obj = {};
    for (const f of spec[name].fields) obj[f.name] = readScalar(bb, f.type, pos + (f.offset || 0));
    return obj;
  };
  const elemSize = (ft) => (typeof ft === "string" && size[ft] ? size[ft] : ft[0] === "struct" ? spec[ft[1]].size : 4);
  const readAt = (bb, ft, pos) => {
    if (ft === "string") return bb.__string(pos);
    if (typeof ft === "string") return readScalar(bb, ft, pos);
    if (ft[0] === "table") return readTable(bb, ft[1], bb.__indirect(pos));
    if (ft[0] === "struct") return readStruct(bb, ft[1], pos);
    throw new Error("no reader for " + JSON.stringify(ft));
  };
  const readTable = (bb, name, pos) => {
    const obj = {};
    spec[name].fields.forEach((f, i) => {
      const o = bb.__offset(pos, 4 + 2 * i);
      const ft = f.type;
      if (o === 0) {
        if (typeof ft === "string" && size[ft] && !f.optional) obj[f.name] = zero(ft);
        return;
      }
      if (ft === "bytes") {
        const start = bb.__vector(pos + o);
        obj[f.name] = bb.bytes().slice(start, start + bb.__vector_len(pos + o));
      } else if (Array.isArray(ft) && ft[0] === "vector") {
        const start = bb.__vector(pos + o);
        const n = bb.__vector_len(pos + o);
        const out = [];
        for (let j = 0; j < n; j++) out.push(readAt(bb, ft[1], start + j * elemSize(ft[1])));
        obj[f.name] = out;
      } else obj[f.name] = readAt(bb, ft, pos + o);
    });
    return obj;
  };
  const add = (b, ft, v) => {
    switch (ft) {
      case "long": case "ulong": return b.addInt64(BigInt(v));
      case "int": return b.addInt32(v);
      case "double": return b.addFloat64(v);
      case "bool": return b.addInt8(v ? 1 : 0);
    }
  };
  const writeStruct = (b, name, v) => {
    const t = spec[name];
    b.prep(t.align, t.size);
    let end = t.size;
    for (const f of [...t.fields].reverse()) {
      b.pad(end - (f.offset || 0) - size[f.type]);
      add(b, f.type, v[f.name] === undefined ? zero(f.type) : v[f.name]);
      end = f.offset || 0;
    }
    b.pad(end);
    return b.offset();
  };
  const writeRef = (b, ft, v) => {
    if (ft === "string") return b.createString(v);
    if (ft === "bytes") return b.createByteVector(v);
    if (ft[0] === "table") return writeTable(b, ft[1], v);
    const et = ft[1];
    if (typeof et === "string" && size[et]) {
      b.startVector(size[et], v.length, size[et]);
      for (const x of [...v].reverse()) add(b, et, x);
    } else if (et[0] === "struct") {
      b.startVector(spec[et[1]].size, v.length, spec[et[1]].align);
      for (const x of [...v].reverse()) writeStruct(b, et[1], x);
    } else {
      const offs = v.map((x) => writeRef(b, et, x));
      b.startVector(4, v.length, 4);
      for (const o of offs.reverse()) b.addOffset(o);
    }
    return b.endVector();
  };
  const scalarSlot = { long: "addFieldInt64", ulong: "addFieldInt64", int: "addFieldInt32", double: "addFieldFloat64", bool: "addFieldInt8" };
  const writeTable = (b, name, obj) => {
    const fields = spec[name].fields;
    const offs = new Map();
    fields.forEach((f, i) => {
      const ft = f.type;
      if (obj[f.name] !== undefined && !(typeof ft === "string" && size[ft]) && !(Array.isArray(ft) && ft[0] === "struct"))
        offs.set(i, writeRef(b, ft, obj[f.name]));
    });
    b.startObject(fields.length);
    fields.forEach((f, i) => {
      const v = obj[f.name];
      if (v === undefined) return;
      if (offs.has(i)) b.addFieldOffset(i, offs.get(i), 0);
      else if (Array.isArray(f.type)) b.addFieldStruct(i, writeStruct(b, f.type[1], v), 0);
      else {
        const x = f.type === "long" || f.type === "ulong" ? BigInt(v) : f.type === "bool" ? (v ? 1 : 0) : v;
        b[scalarSlot[f.type]](i, x, f.optional ? null : f.type === "bool" ? 0 : zero(f.type));
      }
    });
    return b.endObject();
  };
  // neutral and build follow the schema's types: a JavaScript number of
  // an int field is an integer, of a double field a float.
  const neutral = (v, ft) => {
    if (Array.isArray(ft)) {
      if (ft[0] === "vector") return { array: v.map((x) => neutral(x, ft[1])) };
      const pairs = [];
      for (const f of spec[ft[1]].fields) if (v[f.name] !== undefined) pairs.push([toNeutral(f.name), neutral(v[f.name], f.type)]);
      return { map: pairs };
    }
    if (ft === "long" || ft === "ulong" || ft === "int") return { int: String(v) };
    if (ft === "double") return { float: bits(v, 8) };
    return toNeutral(v);
  };
  const build = (n, ft) => {
    if (Array.isArray(ft)) {
      if (ft[0] === "vector") return n.array.map((x) => build(x, ft[1]));
      const obj = {};
      const fields = spec[ft[1]].fields;
      for (const [k, x] of n.map) {
        const name = Buffer.from(k.str, "base64").toString("utf8");
        const f = fields.find((f) => f.name === name);
        if (!f) throw new Error(ft[1] + " has no field " + name);
        obj[name] = build(x, f.type);
      }
      return obj;
    }
    if (ft === "long" || ft === "ulong") return BigInt(n.int);
    return fromNeutral(n, false);
  };
  return {
    load: (b, t) => {
      const bb = new fb.ByteBuffer(b);
      return readTable(bb, t, bb.readInt32(bb.position()) + bb.position());
    },
    dump: (v, t) => {
      const b = new fb.Builder(1024);
      b.finish(writeTable(b, t, v));
      return b.asUint8Array();
    },
    read: (v, t) => neutral(v, ["table", t]),
    build: (n, t) => build(n, ["table", t]),
  };
}

// capnp-es on the classes its capnpc-js plugin generates from serbench.capnp
// (serbench.capnp.mjs, committed and copied into the install by
// scripts/interop-peers as node_modules/serbench-capnp), walked by the
// header's description of the structs (each field's name, type, and
// whether it is a union of none and value): a field read through its
// generated getter (an Int64 or UInt64 as a BigInt, Text as a string,
// Data as bytes), a null pointer left out where _hasX says so (Text has
// none: a null Text reads as ""); written through
// the generated setters and _initX, as a program fills a new message.
async function capnpEs(variant, h) {
  const { pathToFileURL } = require("url");
  const dir = (process.env.NODE_PATH || "").split(path.delimiter)[0];
  const gen = await import(pathToFileURL(path.join(dir, "serbench-capnp", "index.mjs")).href);
  const $ = await import(pathToFileURL(path.join(dir, "capnp-es", "dist", "index.mjs")).href);
  const tables = JSON.parse(Buffer.from(h.schema, "base64").toString("utf8")).tables;
  const cap = (n) => n[0].toUpperCase() + n.slice(1);
  const pointer = (ft) => ft === "string" || ft === "bytes" || Array.isArray(ft);
  const readVal = (v, ft) => {
    if (ft === "bytes") return v.toUint8Array().slice();
    if (Array.isArray(ft) && ft[0] === "table") return readStruct(v, ft[1]);
    if (Array.isArray(ft)) {
      const out = [];
      for (let i = 0; i < v.length; i++) out.push(readVal(v.get(i), ft[1]));
      return out;
    }
    return v;
  };
  const readStruct = (obj, name) => {
    const out = {};
    for (const f of tables[name].fields) {
      if (f.optional) {
        const g = obj[f.name];
        out[f.name] = g._isNone ? { none: null } : { value: g.value };
      } else {
        // Text has no _hasX: its getter gives "" for a null pointer, and
        // so does a program.
        const has = obj["_has" + cap(f.name)];
        if (!pointer(f.type) || !has || has.call(obj)) out[f.name] = readVal(obj[f.name], f.type);
      }
    }
    return out;
  };
  const conv = (ft, v) => (ft === "long" || ft === "ulong" ? BigInt(v) : v);
  const writeStruct = (obj, name, d) => {
    for (const f of tables[name].fields) {
      if (d[f.name] === undefined) continue;
      const v = d[f.name];
      const ft = f.type;
      if (f.optional) {
        if ("value" in v) obj[f.name].value = conv(ft, v.value);
        else obj[f.name].none = true;
      } else if (ft === "bytes") obj["_init" + cap(f.name)](v.length).copyBuffer(v);
      else if (Array.isArray(ft) && ft[0] === "table") writeStruct(obj["_init" + cap(f.name)](), ft[1], v);
      else if (Array.isArray(ft)) {
        const l = obj["_init" + cap(f.name)](v.length);
        v.forEach((x, i) => (Array.isArray(ft[1]) ? writeStruct(l.get(i), ft[1][1], x) : l.set(i, conv(ft[1], x))));
      } else obj[f.name] = conv(ft, v);
    }
  };
  const neutral = (v, ft) => {
    if (Array.isArray(ft) && ft[0] === "vector") return { array: v.map((x) => neutral(x, ft[1])) };
    if (Array.isArray(ft)) {
      const pairs = [];
      for (const f of tables[ft[1]].fields) {
        const x = v[f.name];
        if (x === undefined) continue;
        if (f.optional) pairs.push([toNeutral(f.name), { map: [[toNeutral("value" in x ? "value" : "none"), "value" in x ? neutral(x.value, f.type) : { nil: true }]] }]);
        else pairs.push([toNeutral(f.name), neutral(x, f.type)]);
      }
      return { map: pairs };
    }
    if (ft === "long" || ft === "ulong" || ft === "int") return { int: String(v) };
    if (ft === "double") return { float: bits(v, 8) };
    return toNeutral(v);
  };
  const build = (n, ft) => {
    if (Array.isArray(ft) && ft[0] === "vector") return n.array.map((x) => build(x, ft[1]));
    if (Array.isArray(ft)) {
      const obj = {};
      const fields = tables[ft[1]].fields;
      for (const [k, x] of n.map) {
        const name = Buffer.from(k.str, "base64").toString("utf8");
        const f = fields.find((f) => f.name === name);
        if (!f) throw new Error(ft[1] + " has no field " + name);
        if (f.optional) {
          const [[m, y]] = x.map;
          obj[name] = Buffer.from(m.str, "base64").toString("utf8") === "value" ? { value: build(y, f.type) } : { none: null };
        } else obj[name] = build(x, f.type);
      }
      return obj;
    }
    if (ft === "long" || ft === "ulong") return BigInt(n.int);
    return fromNeutral(n, false);
  };
  return {
    load: (b, t) => readStruct(new $.Message(b, false).getRoot(gen[t]), t),
    dump: (v, t) => {
      const m = new $.Message();
      writeStruct(m.initRoot(gen[t]), t, v);
      return new Uint8Array(m.toArrayBuffer());
    },
    read: (v, t) => neutral(v, ["table", t]),
    build: (n, t) => build(n, ["table", t]),
  };
}

// SCHEMA maps a library of a format of a schema to the function that
// returns its load(data, type), dump(value, type), read(value, type) (its
// neutral form) and build(neutral, type), for a variant and the header
// (or a promise of them).
const SCHEMA = { protobufjs, avsc, thrift, flatbuffers, "capnp-es": capnpEs };

// LIBS maps a library's name to the function that returns its load and
// dump for a variant.
const LIBS = {
  "@msgpack/msgpack": (variant) => {
    const m = require("@msgpack/msgpack");
    const o = variant === "careful" ? { useBigInt64: true } : {};
    return [(b) => m.decode(b, o), (v) => m.encode(v, o)];
  },
  msgpackr: (variant) => {
    const m = require("msgpackr");
    if (variant === "careful") {
      const p = new m.Packr({ useRecords: false, mapsAsObjects: false, int64AsType: "bigint" });
      return [(b) => p.unpack(b), (v) => p.pack(v)];
    }
    return [(b) => m.unpack(b), (v) => m.pack(v)];
  },
  "cbor-x": (variant) => {
    const m = require("cbor-x");
    if (variant === "careful") {
      const e = new m.Encoder({ useRecords: false, mapsAsObjects: false, int64AsType: "bigint" });
      return [(b) => e.decode(b), (v) => e.encode(v)];
    }
    return [(b) => m.decode(b), (v) => m.encode(v)];
  },
  "js-yaml": () => {
    const y = require("js-yaml");
    return [(b) => y.load(Buffer.from(b).toString("utf8")), (v) => Buffer.from(y.dump(v), "utf8")];
  },
  "smol-toml": () => {
    const t = require("smol-toml");
    return [(b) => t.parse(Buffer.from(b).toString("utf8")), (v) => Buffer.from(t.stringify(v), "utf8")];
  },
  bson: (variant) => {
    const { BSON } = require("bson");
    const o = variant === "careful" ? { useBigInt64: true } : {};
    return [(b) => BSON.deserialize(b, o), (v) => BSON.serialize(v)];
  },
  json: () => [(b) => JSON.parse(Buffer.from(b).toString("utf8")), (v) => Buffer.from(JSON.stringify(v), "utf8")],
};

function version(lib) {
  if (lib === "json") return process.versions.node;
  for (const dir of (process.env.NODE_PATH || "").split(path.delimiter)) {
    try {
      return JSON.parse(fs.readFileSync(path.join(dir, lib, "package.json"), "utf8")).version;
    } catch {}
  }
  return "";
}

const err = (e) => (e && e.name ? e.name + ": " + e.message : String(e));

async function main() {
  const lines = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
  const out = (o) => process.stdout.write(JSON.stringify(o) + "\n");
  let lib, careful;
  for await (const line of lines) {
    if (lib === undefined) {
      const h = JSON.parse(line);
      careful = h.variant === "careful";
      try {
        if (SCHEMA[h.lib]) lib = await SCHEMA[h.lib](h.variant || "", h);
        else if (LIBS[h.lib]) {
          const [load, dump] = LIBS[h.lib](h.variant || "");
          lib = { load, dump, read: toNeutral, build: (n) => fromNeutral(n, careful) };
        } else throw new Error("no library " + h.lib);
      } catch (e) {
        out({ error: err(e) });
        return;
      }
      out({ lib: h.lib, version: version(h.lib) });
      continue;
    }
    const c = JSON.parse(line);
    const res = { case: c.case };
    try {
      const v = lib.load(unb64(c.data), c.type);
      res.read = lib.read(v, c.type);
      try {
        res.back = b64(lib.dump(v, c.type));
      } catch (e) {
        res.backErr = err(e);
      }
    } catch (e) {
      res.readErr = err(e);
    }
    try {
      res.own = b64(lib.dump(lib.build(c.want, c.type), c.type));
    } catch (e) {
      res.ownErr = err(e);
    }
    out(res);
  }
}

main();
