// The Java peer of serbench interop: one process per (library, variant)
// batch, speaking the protocol of the Python peer (interop/peers/python/peer.py
// says it: a header line, a hello line, then a case a line and an answer a
// line, each value in the neutral form). scripts/interop-peers java compiles
// it against the jars pom.xml pins; serbench runs it as
// java -cp DIR/classes:DIR/lib/* Peer.
//
// Libraries: "jackson-json" (jackson-databind's ObjectMapper), "jackson-cbor"
// (jackson-dataformat-cbor's CBORMapper, careful with jackson-datatype-jsr310), "jackson-msgpack"
// (msgpack-java's MessagePackMapper, careful with its TimestampExtensionModule), "protobuf-java" (DynamicMessage on
// the FileDescriptorSet the header holds, no generated code) and "avro"
// (GenericDatumReader and GenericDatumWriter on each case's schema).

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.cbor.databind.CBORMapper;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import com.google.protobuf.ByteString;
import org.msgpack.jackson.dataformat.MessagePackExtensionType;
import org.msgpack.jackson.dataformat.MessagePackMapper;
import org.msgpack.jackson.dataformat.TimestampExtensionModule;
import com.google.protobuf.DescriptorProtos;
import com.google.protobuf.Descriptors;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.DynamicMessage;
import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.avro.LogicalTypes;
import org.apache.avro.Schema;
import org.apache.avro.data.TimeConversions;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericEnumSymbol;
import org.apache.avro.generic.GenericFixed;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.util.Utf8;

public final class Peer {
  static final JsonNodeFactory F = JsonNodeFactory.instance;
  static final ObjectMapper WIRE = new ObjectMapper();

  static String b64(byte[] b) { return Base64.getEncoder().encodeToString(b); }
  static byte[] unb64(String s) { return Base64.getDecoder().decode(s); }

  static ObjectNode one(String kind, JsonNode v) {
    ObjectNode o = F.objectNode();
    o.set(kind, v);
    return o;
  }

  static ObjectNode str(String s) { return one("str", F.textNode(b64(s.getBytes(StandardCharsets.UTF_8)))); }
  static ObjectNode integer(String decimal) { return one("int", F.textNode(decimal)); }
  static ObjectNode f64(double d) { return one("float", F.textNode(String.format("%016x", Double.doubleToRawLongBits(d)))); }
  static ObjectNode f32(float f) { return one("float32", F.textNode(String.format("%08x", Float.floatToRawIntBits(f)))); }

  static ObjectNode time(Instant t) {
    ObjectNode o = F.objectNode();
    o.put("s", Long.toString(t.getEpochSecond()));
    o.put("ns", t.getNano());
    o.put("off", 0);
    return one("time", o);
  }

  /** What a value read by a library is, as a neutral value. */
  static ObjectNode toNeutral(Object v) {
    if (v == null) return one("nil", F.booleanNode(true));
    if (v instanceof Boolean b) return one("bool", F.booleanNode(b));
    if (v instanceof Integer || v instanceof Long || v instanceof Short || v instanceof Byte || v instanceof BigInteger)
      return integer(v.toString());
    if (v instanceof Float f) return f32(f);
    if (v instanceof Double d) return f64(d);
    // A BigDecimal (Jackson's USE_BIG_DECIMAL_FOR_FLOATS) stands for the
    // float a reader of the number gets: its nearest double.
    if (v instanceof BigDecimal d) return f64(d.doubleValue());
    if (v instanceof CharSequence s) return str(s.toString());
    if (v instanceof byte[] b) return one("bytes", F.textNode(b64(b)));
    if (v instanceof ByteBuffer bb) {
      byte[] b = new byte[bb.remaining()];
      bb.duplicate().get(b);
      return one("bytes", F.textNode(b64(b)));
    }
    if (v instanceof GenericFixed f) return one("bytes", F.textNode(b64(f.bytes())));
    if (v instanceof GenericEnumSymbol<?> e) return str(e.toString());
    if (v instanceof Instant t) return time(t);
    if (v instanceof MessagePackExtensionType x) {
      ObjectNode o = F.objectNode();
      o.put("type", x.getType());
      o.put("data", b64(x.getData()));
      return one("ext", o);
    }
    if (v instanceof GenericRecord r) {
      ArrayNode pairs = F.arrayNode();
      for (Schema.Field f : r.getSchema().getFields()) pairs.add(F.arrayNode().add(str(f.name())).add(toNeutral(r.get(f.pos()))));
      return one("map", pairs);
    }
    if (v instanceof Map<?, ?> m) {
      ArrayNode pairs = F.arrayNode();
      for (Map.Entry<?, ?> e : m.entrySet()) pairs.add(F.arrayNode().add(toNeutral(e.getKey())).add(toNeutral(e.getValue())));
      return one("map", pairs);
    }
    if (v instanceof Collection<?> c) {
      ArrayNode a = F.arrayNode();
      for (Object x : c) a.add(toNeutral(x));
      return one("array", a);
    }
    String s = String.valueOf(v);
    return one("other", F.textNode(v.getClass().getName() + ": " + s.substring(0, Math.min(200, s.length()))));
  }

  static Map.Entry<String, JsonNode> kind(JsonNode n) { return n.properties().iterator().next(); }

  /** The value a Java program would hold for a neutral value, as Jackson writes it. */
  static Object fromNeutral(JsonNode n) {
    Map.Entry<String, JsonNode> e = kind(n);
    JsonNode v = e.getValue();
    switch (e.getKey()) {
      case "nil": return null;
      case "bool": return v.booleanValue();
      case "int": {
        BigInteger i = new BigInteger(v.textValue());
        return i.bitLength() < 64 ? (Object) i.longValue() : i;
      }
      case "float": return Double.longBitsToDouble(Long.parseUnsignedLong(v.textValue(), 16));
      case "float32": return Float.intBitsToFloat(Integer.parseUnsignedInt(v.textValue(), 16));
      case "str": return new String(unb64(v.textValue()), StandardCharsets.UTF_8);
      case "bytes": return unb64(v.textValue());
      case "array": {
        List<Object> out = new ArrayList<>();
        for (JsonNode x : v) out.add(fromNeutral(x));
        return out;
      }
      case "map": {
        Map<Object, Object> out = new LinkedHashMap<>();
        for (JsonNode p : v) out.put(fromNeutral(p.get(0)), fromNeutral(p.get(1)));
        return out;
      }
      case "time": return Instant.ofEpochSecond(Long.parseLong(v.get("s").textValue()), v.get("ns").asLong());
    }
    throw new IllegalArgumentException("no Java value for a neutral " + e.getKey());
  }

  /** A library: load(data, type), dump(value, type), read(value) and build(neutral, type). */
  interface Lib {
    Object load(byte[] b, String type) throws Exception;
    byte[] dump(Object v, String type) throws Exception;
    default JsonNode read(Object v, String type) throws Exception { return toNeutral(v); }
    default Object build(JsonNode n, String type) throws Exception { return fromNeutral(n); }
  }

  /**
   * Jackson's mapper as a library: what a program reads as Object and writes back. Careful, for JSON:
   * numbers as BigInteger and BigDecimal, nothing after the value; for CBOR, which has binary floats
   * and times of its own: java.time through jackson-datatype-jsr310, a time written as ISO-8601 text; for
   * MessagePack: an Instant written as the timestamp extension (-1) through msgpack-java's module.
   */
  static Lib jackson(ObjectMapper m, boolean careful) {
    if (careful && m instanceof MessagePackMapper) {
      m.registerModule(TimestampExtensionModule.INSTANCE);
    } else if (careful && m instanceof CBORMapper) {
      m.registerModule(new JavaTimeModule());
      m.disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS);
    } else if (careful) {
      m.enable(DeserializationFeature.USE_BIG_INTEGER_FOR_INTS, DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS,
          DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
    }
    return new Lib() {
      public Object load(byte[] b, String t) throws Exception { return m.readValue(b, Object.class); }
      public byte[] dump(Object v, String t) throws Exception { return m.writeValueAsBytes(v); }
    };
  }

  // ---- Protobuf: DynamicMessage on the header's FileDescriptorSet.

  static Lib protobuf(byte[] schema) throws Exception {
    DescriptorProtos.FileDescriptorSet set = DescriptorProtos.FileDescriptorSet.parseFrom(schema);
    Map<String, DescriptorProtos.FileDescriptorProto> protos = new HashMap<>();
    for (DescriptorProtos.FileDescriptorProto p : set.getFileList()) protos.put(p.getName(), p);
    Map<String, Descriptors.FileDescriptor> built = new HashMap<>();
    Map<String, Descriptors.Descriptor> types = new HashMap<>();
    for (DescriptorProtos.FileDescriptorProto p : set.getFileList()) {
      for (Descriptors.Descriptor d : buildFile(p.getName(), protos, built).getMessageTypes()) addTypes(d, types);
    }
    return new Lib() {
      Descriptors.Descriptor type(String t) {
        Descriptors.Descriptor d = types.get(t);
        if (d == null) throw new IllegalArgumentException("no message " + t);
        return d;
      }
      public Object load(byte[] b, String t) throws Exception { return DynamicMessage.parseFrom(type(t), b); }
      public byte[] dump(Object v, String t) { return ((DynamicMessage) v).toByteArray(); }
      public JsonNode read(Object v, String t) { return pbNeutral((DynamicMessage) v); }
      public Object build(JsonNode n, String t) { return pbFill(DynamicMessage.newBuilder(type(t)), n).build(); }
    };
  }

  static Descriptors.FileDescriptor buildFile(String name, Map<String, DescriptorProtos.FileDescriptorProto> protos,
      Map<String, Descriptors.FileDescriptor> built) throws Exception {
    Descriptors.FileDescriptor fd = built.get(name);
    if (fd != null) return fd;
    DescriptorProtos.FileDescriptorProto p = protos.get(name);
    if (p == null) throw new IllegalArgumentException("the FileDescriptorSet lacks " + name);
    List<Descriptors.FileDescriptor> deps = new ArrayList<>();
    for (String d : p.getDependencyList()) deps.add(buildFile(d, protos, built));
    fd = Descriptors.FileDescriptor.buildFrom(p, deps.toArray(new Descriptors.FileDescriptor[0]));
    built.put(name, fd);
    return fd;
  }

  static void addTypes(Descriptors.Descriptor d, Map<String, Descriptors.Descriptor> types) {
    types.put(d.getFullName(), d);
    for (Descriptors.Descriptor n : d.getNestedTypes()) addTypes(n, types);
  }

  /** A message as a neutral map of its fields by name, in field order: a field with presence left out when unset. */
  static ObjectNode pbNeutral(DynamicMessage m) {
    ArrayNode pairs = F.arrayNode();
    for (FieldDescriptor f : m.getDescriptorForType().getFields()) {
      JsonNode n;
      if (f.isMapField()) {
        FieldDescriptor kf = f.getMessageType().findFieldByName("key"), vf = f.getMessageType().findFieldByName("value");
        ArrayNode entries = F.arrayNode();
        for (int i = 0; i < m.getRepeatedFieldCount(f); i++) {
          DynamicMessage e = (DynamicMessage) m.getRepeatedField(f, i);
          entries.add(F.arrayNode().add(pbValue(kf, e.getField(kf))).add(pbValue(vf, e.getField(vf))));
        }
        n = one("map", entries);
      } else if (f.isRepeated()) {
        ArrayNode a = F.arrayNode();
        for (int i = 0; i < m.getRepeatedFieldCount(f); i++) a.add(pbValue(f, m.getRepeatedField(f, i)));
        n = one("array", a);
      } else if (f.hasPresence() && !m.hasField(f)) {
        continue;
      } else {
        n = pbValue(f, m.getField(f));
      }
      pairs.add(F.arrayNode().add(str(f.getName())).add(n));
    }
    return one("map", pairs);
  }

  static JsonNode pbValue(FieldDescriptor f, Object v) {
    switch (f.getType()) {
      case MESSAGE: case GROUP: return pbNeutral((DynamicMessage) v);
      case FLOAT: return f32((Float) v);
      case DOUBLE: return f64((Double) v);
      case BOOL: return one("bool", F.booleanNode((Boolean) v));
      case STRING: return str((String) v);
      case BYTES: return one("bytes", F.textNode(b64(((ByteString) v).toByteArray())));
      case ENUM: return integer(Integer.toString(((Descriptors.EnumValueDescriptor) v).getNumber()));
      case UINT32: case FIXED32: return integer(Integer.toUnsignedString((Integer) v));
      case UINT64: case FIXED64: return integer(Long.toUnsignedString((Long) v));
      default: return integer(v.toString());
    }
  }

  /** Sets b's fields from a neutral map of them, as a program sets a message's fields from its own values. */
  static DynamicMessage.Builder pbFill(DynamicMessage.Builder b, JsonNode n) {
    Descriptors.Descriptor d = b.getDescriptorForType();
    for (JsonNode p : kind(n).getValue()) {
      String name = new String(unb64(p.get(0).get("str").textValue()), StandardCharsets.UTF_8);
      FieldDescriptor f = d.findFieldByName(name);
      if (f == null) throw new IllegalArgumentException(d.getFullName() + " has no field " + name);
      JsonNode x = p.get(1);
      if (f.isMapField()) {
        Descriptors.Descriptor et = f.getMessageType();
        FieldDescriptor kf = et.findFieldByName("key"), vf = et.findFieldByName("value");
        for (JsonNode kv : kind(x).getValue()) {
          DynamicMessage.Builder e = DynamicMessage.newBuilder(et);
          e.setField(kf, pbScalar(kf, kv.get(0)));
          e.setField(vf, vf.getJavaType() == FieldDescriptor.JavaType.MESSAGE
              ? pbFill(DynamicMessage.newBuilder(vf.getMessageType()), kv.get(1)).build() : pbScalar(vf, kv.get(1)));
          b.addRepeatedField(f, e.build());
        }
      } else if (f.isRepeated()) {
        for (JsonNode e : kind(x).getValue()) {
          b.addRepeatedField(f, f.getJavaType() == FieldDescriptor.JavaType.MESSAGE
              ? pbFill(DynamicMessage.newBuilder(f.getMessageType()), e).build() : pbScalar(f, e));
        }
      } else if (f.getJavaType() == FieldDescriptor.JavaType.MESSAGE) {
        b.setField(f, pbFill(DynamicMessage.newBuilder(f.getMessageType()), x).build());
      } else {
        b.setField(f, pbScalar(f, x));
      }
    }
    return b;
  }

  static Object pbScalar(FieldDescriptor f, JsonNode n) {
    Object v = fromNeutral(n);
    switch (f.getJavaType()) {
      case INT: return v instanceof BigInteger i ? i.intValue() : ((Number) v).intValue();
      case LONG: return v instanceof BigInteger i ? i.longValue() : ((Number) v).longValue();
      case FLOAT: return ((Number) v).floatValue();
      case DOUBLE: return ((Number) v).doubleValue();
      case BOOLEAN: return v;
      case STRING: return v;
      case BYTE_STRING: return ByteString.copyFrom((byte[]) v);
      case ENUM: return f.getEnumType().findValueByNumberCreatingIfUnknown(((Number) v).intValue());
      default: throw new IllegalArgumentException("no Java value of " + f.getJavaType() + " for " + f.getName());
    }
  }

  // ---- Avro: GenericDatumReader and GenericDatumWriter on each case's schema.

  static Lib avro(boolean careful) {
    GenericData data = new GenericData();
    if (careful) {
      data.addLogicalTypeConversion(new TimeConversions.TimestampMicrosConversion());
      data.addLogicalTypeConversion(new TimeConversions.TimestampMillisConversion());
    }
    Map<String, Schema> schemas = new HashMap<>();
    return new Lib() {
      Schema schema(String t) { return schemas.computeIfAbsent(t, s -> new Schema.Parser().parse(s)); }
      public Object load(byte[] b, String t) throws Exception {
        Schema s = schema(t);
        BinaryDecoder dec = DecoderFactory.get().binaryDecoder(b, null);
        Object v = new GenericDatumReader<Object>(s, s, data).read(null, dec);
        if (!dec.isEnd()) throw new IllegalArgumentException("bytes left after the value");
        return v;
      }
      public byte[] dump(Object v, String t) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        BinaryEncoder enc = EncoderFactory.get().binaryEncoder(out, null);
        new GenericDatumWriter<Object>(schema(t), data).write(v, enc);
        enc.flush();
        return out.toByteArray();
      }
      public Object build(JsonNode n, String t) { return avroBuild(schema(t), n, careful); }
    };
  }

  /** The generic datum a program builds for a neutral value of schema s. */
  static Object avroBuild(Schema s, JsonNode n, boolean careful) {
    Map.Entry<String, JsonNode> e = kind(n);
    String k = e.getKey();
    JsonNode v = e.getValue();
    switch (s.getType()) {
      case UNION: {
        for (Schema b : s.getTypes()) {
          if ((b.getType() == Schema.Type.NULL) == k.equals("nil")) return avroBuild(b, n, careful);
        }
        throw new IllegalArgumentException("no branch of " + s + " for a neutral " + k);
      }
      case RECORD: {
        GenericData.Record r = new GenericData.Record(s);
        for (JsonNode p : v) {
          String name = new String(unb64(p.get(0).get("str").textValue()), StandardCharsets.UTF_8);
          Schema.Field f = s.getField(name);
          if (f == null) throw new IllegalArgumentException(s.getFullName() + " has no field " + name);
          r.put(f.pos(), avroBuild(f.schema(), p.get(1), careful));
        }
        return r;
      }
      case ARRAY: {
        List<Object> out = new ArrayList<>();
        for (JsonNode x : v) out.add(avroBuild(s.getElementType(), x, careful));
        return out;
      }
      case MAP: {
        Map<String, Object> out = new LinkedHashMap<>();
        for (JsonNode p : v) out.put((String) fromNeutral(p.get(0)), avroBuild(s.getValueType(), p.get(1), careful));
        return out;
      }
      case LONG:
        if (k.equals("time")) {
          Instant t = (Instant) fromNeutral(n);
          if (careful && s.getLogicalType() != null) return t;
          long sec = t.getEpochSecond(), ns = t.getNano();
          return s.getLogicalType() instanceof LogicalTypes.TimestampMillis ? sec * 1000 + ns / 1000000 : sec * 1000000 + ns / 1000;
        }
        return ((Number) fromNeutral(n)).longValue();
      case INT: return ((Number) fromNeutral(n)).intValue();
      case FLOAT: return ((Number) fromNeutral(n)).floatValue();
      case DOUBLE: return ((Number) fromNeutral(n)).doubleValue();
      case BYTES: return ByteBuffer.wrap((byte[]) fromNeutral(n));
      case FIXED: return new GenericData.Fixed(s, (byte[]) fromNeutral(n));
      case ENUM: return new GenericData.EnumSymbol(s, (String) fromNeutral(n));
      case STRING: return new Utf8((String) fromNeutral(n));
      default: return fromNeutral(n);
    }
  }

  static Lib lib(String name, boolean careful, byte[] schema) throws Exception {
    switch (name) {
      case "jackson-json": return jackson(new ObjectMapper(), careful);
      case "jackson-cbor": return jackson(new CBORMapper(), careful);
      case "jackson-msgpack": return jackson(new MessagePackMapper(), careful);
      case "protobuf-java": return protobuf(schema);
      case "avro": return avro(careful);
    }
    throw new IllegalArgumentException("no library " + name);
  }

  static String version(String name) {
    Package p = switch (name) {
      case "jackson-json" -> ObjectMapper.class.getPackage();
      case "jackson-cbor" -> CBORMapper.class.getPackage();
      case "jackson-msgpack" -> MessagePackMapper.class.getPackage();
      case "protobuf-java" -> DynamicMessage.class.getPackage();
      case "avro" -> Schema.class.getPackage();
      default -> null;
    };
    String v = p == null ? null : p.getImplementationVersion();
    if (v != null) return v;
    // Else the version the jar's name holds: lib/protobuf-java-4.36.2.jar.
    Class<?> c = switch (name) {
      case "protobuf-java" -> DynamicMessage.class;
      case "avro" -> Schema.class;
      case "jackson-msgpack" -> MessagePackMapper.class;
      default -> ObjectMapper.class;
    };
    try {
      String jar = new java.io.File(c.getProtectionDomain().getCodeSource().getLocation().toURI()).getName();
      java.util.regex.Matcher m = java.util.regex.Pattern.compile("-(\\d[^-]*)\\.jar$").matcher(jar);
      return m.find() ? m.group(1) : "";
    } catch (Exception e) {
      return "";
    }
  }

  static String err(Throwable e) {
    String m = e.getMessage();
    return e.getClass().getSimpleName() + ": " + (m == null ? "" : m.replace('\n', ' '));
  }

  public static void main(String[] args) throws Exception {
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    PrintStream out = new PrintStream(System.out, false, StandardCharsets.UTF_8);
    JsonNode h = WIRE.readTree(in.readLine());
    String name = h.path("lib").asText();
    boolean careful = h.path("variant").asText("").equals("careful");
    Lib lib;
    try {
      lib = lib(name, careful, h.hasNonNull("schema") ? unb64(h.get("schema").textValue()) : null);
    } catch (Throwable e) {
      out.println(WIRE.writeValueAsString(F.objectNode().put("error", err(e))));
      out.flush();
      return;
    }
    out.println(WIRE.writeValueAsString(F.objectNode().put("lib", name).put("version", version(name))));
    out.flush();
    for (String line; (line = in.readLine()) != null; ) {
      JsonNode c = WIRE.readTree(line);
      ObjectNode res = F.objectNode();
      res.set("case", c.get("case"));
      String type = c.path("type").asText("");
      try {
        if (!c.hasNonNull("data")) throw new IllegalArgumentException("Go wrote nothing");
        Object v = lib.load(unb64(c.get("data").textValue()), type);
        res.set("read", lib.read(v, type));
        try {
          res.put("back", b64(lib.dump(v, type)));
        } catch (Throwable e) {
          res.put("backErr", err(e));
        }
      } catch (Throwable e) {
        res.put("readErr", err(e));
      }
      try {
        res.put("own", b64(lib.dump(lib.build(c.get("want"), type), type)));
      } catch (Throwable e) {
        res.put("ownErr", err(e));
      }
      out.println(WIRE.writeValueAsString(res));
      out.flush();
    }
  }
}
