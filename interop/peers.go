package interop

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/serbench/serbench/worker"
)

// A Lang is a language the peers are written in.
type Lang string

// The languages.
const (
	Python Lang = "python"
	Node   Lang = "node"
	Java   Lang = "java"
)

// A Runtime is how a language's peers run: its command, the program it
// runs (embedded, passed on the command line, or compiled into the
// install), the lock files that pin its libraries and the variable that
// points it at their install.
type Runtime struct {
	Lang    Lang
	Label   string   // "Python", "JavaScript (Node)"
	Command string   // "python3"
	Flag    string   // the flag that runs a program given as text: "-c"
	Program string   // the peer program's path under peers/
	Locks   []string // the lock files' paths under peers/, whose hash names the install
	// Args, for a peer compiled into its install (a language that runs
	// no program given as text), returns the arguments that run it from
	// the install's directory; Flag and Program are not passed then. Its
	// program is among Locks, so that a changed program installs anew.
	Args func(dir string) []string
	// Env names the variable pointing the runtime at the install; Sub
	// is the install's subdirectory it points at.
	Env, Sub string
	// Installs says how to install the runtime itself where it is missing.
	Installs string
}

// Runtimes lists the languages, in column order.
var Runtimes = []Runtime{
	{Lang: Python, Label: "Python", Command: "python3", Flag: "-c", Program: "python/peer.py",
		Locks: []string{"python/requirements.txt"}, Env: "PYTHONPATH", Installs: "apt-get install python3 python3-pip"},
	{Lang: Node, Label: "JavaScript (Node)", Command: "node", Flag: "-e", Program: "node/peer.js",
		Locks: []string{"node/package.json", "node/package-lock.json", "node/serbench.capnp.mjs"}, Env: "NODE_PATH", Sub: "node_modules", Installs: "apt-get install nodejs npm"},
	{Lang: Java, Label: "Java", Command: "java", Program: "java/Peer.java",
		Locks: []string{"java/pom.xml", "java/Peer.java"}, Args: javaArgs, Installs: "apt-get install openjdk-17-jdk-headless maven"},
}

// javaArgs runs the Java peer scripts/interop-peers compiled into dir,
// against the jars it copied beside it. The client compiler only and the
// serial collector start soonest and cost the least CPU on a loaded
// machine; the heap, class space and code cache are bounded so that the
// JVM's reservations fit under the child's address-space cap (Limits'
// Memory), which it inherits; the JVM's own log goes to stderr, since
// stdout is the protocol's.
func javaArgs(dir string) []string {
	cp := filepath.Join(dir, "classes") + string(filepath.ListSeparator) + filepath.Join(dir, "lib", "*")
	return []string{"-Xlog:disable", "-Xlog:all=warning:stderr", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC",
		"-Xmx1g", "-XX:CompressedClassSpaceSize=64m", "-XX:ReservedCodeCacheSize=64m", "-Xss16m", "-cp", cp, "Peer"}
}

// A Peer is one library of another language that reads and writes a
// format, in the configurations the study runs it in.
type Peer struct {
	Name   string // "python-msgpack": a column's name, with the codec's
	Lang   Lang
	Lib    string // the library as the peer program names it: "@msgpack/msgpack"
	Family string // the format, as codec.Info.Family names it
	// Variants are the configurations run, the default ("") first. A
	// variant other than the default is what a careful user sets.
	Variants []Variant
}

// A Variant is a configuration of a peer, declared as data: Name as the
// peer program knows it, Sets as the verdict's condition says it.
type Variant struct {
	Name string // "" for the library's defaults, or "careful"
	Sets string // "useBigInt64"
}

// careful is the name of the variant a careful user configures.
const careful = "careful"

// Peers lists every peer, grouped by format.
var Peers = []Peer{
	{Name: "python-msgpack", Lang: Python, Lib: "msgpack", Family: "msgpack", Variants: []Variant{{},
		{careful, "strict_map_key=False, timestamp=3, datetime=True, unicode_errors='surrogateescape'"}}},
	{Name: "python-ormsgpack", Lang: Python, Lib: "ormsgpack", Family: "msgpack", Variants: []Variant{{},
		{careful, "OPT_NON_STR_KEYS | OPT_DATETIME_AS_TIMESTAMP_EXT"}}},
	{Name: "node-msgpack", Lang: Node, Lib: "@msgpack/msgpack", Family: "msgpack", Variants: []Variant{{},
		{careful, "useBigInt64: true"}}},
	{Name: "node-msgpackr", Lang: Node, Lib: "msgpackr", Family: "msgpack", Variants: []Variant{{},
		{careful, "new Packr({useRecords: false, mapsAsObjects: false, int64AsType: 'bigint'})"}}},
	{Name: "python-cbor2", Lang: Python, Lib: "cbor2", Family: "cbor", Variants: []Variant{{}}},
	{Name: "node-cbor-x", Lang: Node, Lib: "cbor-x", Family: "cbor", Variants: []Variant{{},
		{careful, "new Encoder({useRecords: false, mapsAsObjects: false, int64AsType: 'bigint'})"}}},
	{Name: "python-json", Lang: Python, Lib: "json", Family: "json", Variants: []Variant{{},
		{careful, "allow_nan=False, ensure_ascii=False"}}},
	{Name: "node-json", Lang: Node, Lib: "json", Family: "json", Variants: []Variant{{}}},
	{Name: "python-bson", Lang: Python, Lib: "bson", Family: "bson", Variants: []Variant{{},
		{careful, "CodecOptions(tz_aware=True)"}}},
	{Name: "node-bson", Lang: Node, Lib: "bson", Family: "bson", Variants: []Variant{{},
		{careful, "useBigInt64: true"}}},
	{Name: "python-pyyaml", Lang: Python, Lib: "pyyaml", Family: "yaml", Variants: []Variant{{}}},
	{Name: "node-js-yaml", Lang: Node, Lib: "js-yaml", Family: "yaml", Variants: []Variant{{}}},
	{Name: "python-toml", Lang: Python, Lib: "tomllib", Family: "toml", Variants: []Variant{{}}},
	{Name: "node-smol-toml", Lang: Node, Lib: "smol-toml", Family: "toml", Variants: []Variant{{}}},
	{Name: "python-protobuf", Lang: Python, Lib: "protobuf", Family: "protobuf", Variants: []Variant{{}}},
	{Name: "node-protobufjs", Lang: Node, Lib: "protobufjs", Family: "protobuf", Variants: []Variant{{}}},
	{Name: "python-fastavro", Lang: Python, Lib: "fastavro", Family: "avro", Variants: []Variant{{}}},
	{Name: "node-avsc", Lang: Node, Lib: "avsc", Family: "avro", Variants: []Variant{{},
		{careful, "registry: {long: LongType.__with BigInt}"}}},
	{Name: "python-thrift", Lang: Python, Lib: "thrift", Family: "thrift", Variants: []Variant{{}}},
	{Name: "node-thrift", Lang: Node, Lib: "thrift", Family: "thrift", Variants: []Variant{{},
		{careful, "i64 written from a BigInt (thrift.fromBigInt)"}}},
	{Name: "python-flatbuffers", Lang: Python, Lib: "flatbuffers", Family: "flatbuffers", Variants: []Variant{{}}},
	{Name: "node-flatbuffers", Lang: Node, Lib: "flatbuffers", Family: "flatbuffers", Variants: []Variant{{}}},
	{Name: "python-pycapnp", Lang: Python, Lib: "pycapnp", Family: "capnp", Variants: []Variant{{}}},
	{Name: "node-capnp-es", Lang: Node, Lib: "capnp-es", Family: "capnp", Variants: []Variant{{}}},
	{Name: "java-jackson", Lang: Java, Lib: "jackson-json", Family: "json", Variants: []Variant{{},
		{careful, "USE_BIG_INTEGER_FOR_INTS, USE_BIG_DECIMAL_FOR_FLOATS, FAIL_ON_TRAILING_TOKENS"}}},
	{Name: "java-jackson-cbor", Lang: Java, Lib: "jackson-cbor", Family: "cbor", Variants: []Variant{{},
		{careful, "registerModule(new JavaTimeModule()), WRITE_DATES_AS_TIMESTAMPS off"}}},
	{Name: "java-msgpack", Lang: Java, Lib: "jackson-msgpack", Family: "msgpack", Variants: []Variant{{},
		{careful, "registerModule(TimestampExtensionModule.INSTANCE)"}}},
	{Name: "java-protobuf", Lang: Java, Lib: "protobuf-java", Family: "protobuf", Variants: []Variant{{}}},
	{Name: "java-avro", Lang: Java, Lib: "avro", Family: "avro", Variants: []Variant{{},
		{careful, "GenericData with TimestampMicrosConversion (a timestamp as Instant)"}}},
}

// Models gives each format with peers the model its Go codecs and peers
// share for what it has no type of.
var Models = map[string]Model{
	"json":        {TimeText: true, BytesText: true, KeysText: true, NoNaN: true},
	"msgpack":     {},
	"cbor":        {},
	"bson":        {LowerFields: true, KeysText: true, TopTable: true},
	"yaml":        {LowerFields: true},
	"toml":        {NoNull: true, TopTable: true},
	"protobuf":    {Schema: SchemaProto},
	"avro":        {Schema: SchemaAvro},
	"thrift":      {Schema: SchemaThrift},
	"flatbuffers": {Schema: SchemaFlat},
	"capnp":       {Schema: SchemaCapnp},
}

//go:embed peers/python/peer.py peers/python/requirements.txt peers/node/peer.js peers/node/package.json peers/node/package-lock.json peers/node/serbench.capnp.mjs peers/java/pom.xml peers/java/Peer.java
var peerFiles embed.FS

// RuntimeOf returns the runtime of lang.
func RuntimeOf(lang Lang) Runtime {
	for _, r := range Runtimes {
		if r.Lang == lang {
			return r
		}
	}
	panic("interop: no runtime " + string(lang))
}

// CacheDir is where scripts/interop-peers installs the peers:
// $SERBENCH_PEERS, or serbench/peers in the user's cache directory
// ($XDG_CACHE_HOME or ~/.cache).
func CacheDir() string {
	if d := os.Getenv("SERBENCH_PEERS"); d != "" {
		return d
	}
	d, err := os.UserCacheDir()
	if err != nil {
		return filepath.Join(os.TempDir(), "serbench-peers")
	}
	return filepath.Join(d, "serbench", "peers")
}

// Dir is the install of r's peers: LANG-HASH in CacheDir, HASH the start
// of the SHA-256 of its lock files, as scripts/interop-peers names it.
func (r Runtime) Dir() string {
	h := sha256.New()
	for _, l := range r.Locks {
		b, err := peerFiles.ReadFile("peers/" + l)
		if err != nil {
			panic(err) // embedded
		}
		h.Write(b)
	}
	return filepath.Join(CacheDir(), string(r.Lang)+"-"+hex.EncodeToString(h.Sum(nil))[:12])
}

// InstallCommand is the command that installs r's peers.
func (r Runtime) InstallCommand() string { return "scripts/interop-peers " + string(r.Lang) }

// Missing returns why r's peers cannot run here, with the command that
// mends it, or "" when they can.
func (r Runtime) Missing() string {
	if _, err := exec.LookPath(r.Command); err != nil {
		return fmt.Sprintf("no %s on PATH (%s), then %s", r.Command, r.Installs, r.InstallCommand())
	}
	if _, err := os.Stat(filepath.Join(r.Dir(), ".installed")); err != nil {
		return fmt.Sprintf("the %s peers are not installed in %s: run %s", r.Label, r.Dir(), r.InstallCommand())
	}
	return ""
}

// A Request is one case as a peer reads it: Go's encoding (absent when
// Go cannot write the case) and the case's expected value; for a format
// of a schema, the type it is in the schema ("serbench.Edge").
type Request struct {
	Case string `json:"case"`
	Type string `json:"type,omitempty"`
	Data []byte `json:"data"`
	Want Value  `json:"want"`
}

// A Response is what a peer did with a Request: what it read of Go's
// encoding and its encoding of that again, or the errors; and its own
// encoding of the expected value, or the error.
type Response struct {
	Case    string `json:"case"`
	Read    *Value `json:"read,omitempty"`
	ReadErr string `json:"readErr,omitempty"`
	Back    []byte `json:"back,omitempty"`
	BackErr string `json:"backErr,omitempty"`
	Own     []byte `json:"own,omitempty"`
	OwnErr  string `json:"ownErr,omitempty"`
}

// A header starts a peer: its library and variant, and for a format of a
// schema the schema (Protobuf's: a serialized FileDescriptorSet), for a
// format of several protocols the one to speak (Model.Protocol).
type header struct {
	Lib      string `json:"lib"`
	Variant  string `json:"variant,omitempty"`
	Schema   []byte `json:"schema,omitempty"`
	Protocol string `json:"protocol,omitempty"`
}

type hello struct {
	Lib     string `json:"lib"`
	Version string `json:"version"`
	Error   string `json:"error"`
}

// ErrUnavailable wraps why a peer cannot run: a skipped column.
var ErrUnavailable = errors.New("peer unavailable")

// A Conn is one running peer process: a column's cases go to it one by
// one, each answered before the next is sent, so that one process serves
// every case of a column a child runs. It dies with the child that
// started it.
type Conn struct {
	// Version is the library's version, as the peer reports it.
	Version string
	cmd     *exec.Cmd
	stdin   io.WriteCloser
	enc     *json.Encoder
	sc      *bufio.Scanner
	stderr  *tail
}

// Dial starts a peer process of p's language for variant v, in the model
// m of its column (its schema and protocol). A peer that cannot start
// (its runtime or package missing) is an error wrapping ErrUnavailable,
// which names the command that installs it.
func Dial(p Peer, v Variant, m Model) (*Conn, error) {
	r := RuntimeOf(p.Lang)
	if why := r.Missing(); why != "" {
		return nil, fmt.Errorf("%w: %s", ErrUnavailable, why)
	}
	var args []string
	if r.Args != nil {
		args = r.Args(r.Dir())
	} else {
		src, err := peerFiles.ReadFile("peers/" + r.Program)
		if err != nil {
			return nil, err
		}
		args = []string{r.Flag, string(src)}
	}
	cmd := exec.Command(r.Command, args...)
	cmd.Env = os.Environ()
	if r.Env != "" {
		cmd.Env = append(cmd.Env, r.Env+"="+filepath.Join(r.Dir(), r.Sub))
	}
	worker.DieWithParent(cmd)
	c := &Conn{cmd: cmd, stderr: &tail{}}
	cmd.Stderr = c.stderr
	var err error
	if c.stdin, err = cmd.StdinPipe(); err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("%w: starting %s: %v", ErrUnavailable, r.Command, err)
	}
	c.enc = json.NewEncoder(c.stdin)
	c.sc = bufio.NewScanner(stdout)
	c.sc.Buffer(nil, 256<<20)
	var h hello
	hd := header{Lib: p.Lib, Variant: v.Name, Schema: m.schemaText(), Protocol: m.Protocol}
	err = c.enc.Encode(hd)
	switch {
	case err != nil:
		h.Error = err.Error()
	case !c.sc.Scan():
		h.Error = "no hello"
	default:
		if err := json.Unmarshal(c.sc.Bytes(), &h); err != nil {
			h.Error = "an unreadable hello: " + err.Error()
		}
	}
	if h.Error != "" {
		c.Close()
		return nil, fmt.Errorf("%w: %s %s: %s%s", ErrUnavailable, r.Label, p.Lib, h.Error, c.stderr.suffix())
	}
	c.Version = h.Version
	return c, nil
}

// Ask sends one case and returns the peer's answer. An error says the
// peer died or answered what is not an answer; the Conn is closed then.
func (c *Conn) Ask(q Request) (Response, error) {
	var res Response
	if err := c.enc.Encode(q); err != nil {
		return res, c.died("writing to it: " + err.Error())
	}
	if !c.sc.Scan() {
		return res, c.died("it gave no answer")
	}
	if err := json.Unmarshal(c.sc.Bytes(), &res); err != nil {
		return res, c.died("an unreadable answer: " + err.Error())
	}
	if res.Case != q.Case {
		return res, c.died(fmt.Sprintf("it answered case %q for %q", res.Case, q.Case))
	}
	return res, nil
}

// died closes the peer and returns an error saying how it ended.
func (c *Conn) died(what string) error {
	err := c.Close()
	msg := "the peer died: " + what
	if err != nil {
		msg += " (" + err.Error() + ")"
	}
	return errors.New(msg + c.stderr.suffix())
}

// Close ends the peer: its input closed, it exits; one that does not
// within a second is killed.
func (c *Conn) Close() error {
	c.stdin.Close()
	done := make(chan error, 1)
	go func() { done <- c.cmd.Wait() }()
	select {
	case err := <-done:
		return err
	case <-time.After(time.Second):
		c.cmd.Process.Kill()
		return <-done
	}
}

// A tail keeps the end of what a peer writes to stderr.
type tail struct{ b []byte }

const tailSize = 600

func (t *tail) Write(p []byte) (int, error) {
	t.b = append(t.b, p...)
	if len(t.b) > 4*tailSize {
		t.b = append([]byte(nil), t.b[len(t.b)-tailSize:]...)
	}
	return len(p), nil
}

func (t *tail) suffix() string {
	b := bytes.TrimSpace(t.b)
	if len(b) > tailSize {
		b = b[len(b)-tailSize:]
	}
	if len(b) == 0 {
		return ""
	}
	return "; stderr: " + strings.ReplaceAll(string(b), "\n", " | ")
}
