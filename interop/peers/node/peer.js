// The Node peer of serbench interop: one process per (library, variant)
// batch, speaking the protocol of the Python peer (interop/peers/python/peer.py
// says it, and what a neutral value is). A JavaScript number is the neutral
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
  let load, dump, careful;
  for await (const line of lines) {
    if (load === undefined) {
      const h = JSON.parse(line);
      careful = h.variant === "careful";
      try {
        if (!LIBS[h.lib]) throw new Error("no library " + h.lib);
        [load, dump] = LIBS[h.lib](h.variant || "");
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
      const v = load(unb64(c.data));
      res.read = toNeutral(v);
      try {
        res.back = b64(dump(v));
      } catch (e) {
        res.backErr = err(e);
      }
    } catch (e) {
      res.readErr = err(e);
    }
    try {
      res.own = b64(dump(fromNeutral(c.want, careful)));
    } catch (e) {
      res.ownErr = err(e);
    }
    out(res);
  }
}

main();
