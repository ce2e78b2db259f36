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

// SCHEMA maps a library of a format of a schema to the function that
// returns its load(data, type), dump(value, type), read(value, type) (its
// neutral form) and build(neutral, type), for a variant and the header.
const SCHEMA = { protobufjs, avsc };

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
        if (SCHEMA[h.lib]) lib = SCHEMA[h.lib](h.variant || "", h);
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
