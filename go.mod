module github.com/serbench/serbench

go 1.26.8

require (
	buf.build/go/hyperpb v0.1.3
	capnproto.org/go/capnp/v3 v3.1.0-alpha.1
	github.com/200sc/bebop v0.6.2
	github.com/BurntSushi/toml v1.6.0
	github.com/VictoriaMetrics/easyproto v1.2.0
	github.com/apache/thrift v0.25.0
	github.com/buger/jsonparser v1.6.1
	github.com/bytedance/sonic v1.15.5
	github.com/chromedp/cdproto v0.159.0
	github.com/chromedp/chromedp v0.23.0
	github.com/deneonet/benc v1.1.7
	github.com/ferranbt/fastssz v0.1.4
	github.com/fxamacker/cbor/v2 v2.9.6
	github.com/go-json-experiment/json v0.0.0-20260820222146-c27c302e5fc3
	github.com/goccy/go-json v0.12.0
	github.com/goccy/go-yaml v1.19.2
	github.com/gogo/protobuf v1.3.2
	github.com/google/flatbuffers v25.12.19+incompatible
	github.com/google/go-cmp v0.7.0
	github.com/hamba/avro/v2 v2.31.0
	github.com/hashicorp/go-msgpack/v2 v2.1.5
	github.com/json-iterator/go v1.1.12
	github.com/kelindar/binary v1.0.19
	github.com/klauspost/compress v1.20.4
	github.com/linkedin/goavro/v2 v2.15.0
	github.com/mailru/easyjson v0.9.2
	github.com/mus-format/mus-go v0.7.2
	github.com/ohler55/ojg v1.28.5
	github.com/pelletier/go-toml/v2 v2.4.3
	github.com/pierrec/lz4/v4 v4.1.33
	github.com/planetscale/vtprotobuf v0.6.0
	github.com/pmezard/go-difflib v1.0.0
	github.com/rogpeppe/go-internal v1.16.0
	github.com/schollz/progressbar/v3 v3.19.1
	github.com/segmentio/encoding v0.5.4
	github.com/shamaton/msgpack/v2 v2.4.0
	github.com/tidwall/gjson v1.20.2
	github.com/tinylib/msgp v1.6.5
	github.com/ugorji/go/codec v1.3.2
	github.com/valyala/fastjson v1.6.10
	github.com/vmihailenco/msgpack/v5 v5.4.1
	go.mongodb.org/mongo-driver/v2 v2.9.3
	go.yaml.in/yaml/v4 v4.0.0
	golang.org/x/net v0.62.0
	golang.org/x/perf v0.0.0-20260908200009-22c9c6c9d4da
	golang.org/x/sys v0.49.0
	golang.org/x/term v0.47.0
	google.golang.org/protobuf v1.36.12
	sigs.k8s.io/yaml v1.6.0
)

require (
	github.com/aclements/go-moremath v0.0.0-20210112150236-f10218a38794 // indirect
	github.com/bytedance/gopkg v0.1.3 // indirect
	github.com/bytedance/sonic/loader v0.5.3 // indirect
	github.com/cloudwego/base64x v0.1.6 // indirect
	github.com/colega/zeropool v0.0.0-20230505084239-6fb4a4f75381 // indirect
	github.com/davecgh/go-spew v1.1.1 // indirect
	github.com/emicklei/dot v1.6.2 // indirect
	github.com/go-viper/mapstructure/v2 v2.4.0 // indirect
	github.com/golang/snappy v1.0.0 // indirect
	github.com/google/licensecheck v0.3.1 // indirect
	github.com/josharian/intern v1.0.0 // indirect
	github.com/klauspost/cpuid/v2 v2.2.9 // indirect
	github.com/kr/pretty v0.3.1 // indirect
	github.com/minio/sha256-simd v1.0.0 // indirect
	github.com/mitchellh/colorstring v0.0.0-20190213212951-d06e56a500db // indirect
	github.com/mitchellh/mapstructure v1.3.2 // indirect
	github.com/modern-go/concurrent v0.0.0-20180306012644-bacd9c7ef1dd // indirect
	github.com/modern-go/reflect2 v1.0.2 // indirect
	github.com/mus-format/common-go v0.0.0-20251026152644-9f5ac6728d8a // indirect
	github.com/philhofer/fwd v1.2.0 // indirect
	github.com/rivo/uniseg v0.4.7 // indirect
	github.com/segmentio/asm v1.1.3 // indirect
	github.com/stellar/go-xdr v0.0.0-20260828180817-2b1309f8a5a6 // indirect
	github.com/stretchr/testify v1.10.0 // indirect
	github.com/tidwall/match v1.1.1 // indirect
	github.com/tidwall/pretty v1.3.0 // indirect
	github.com/timandy/routine v1.1.5 // indirect
	github.com/twitchyliquid64/golang-asm v0.15.1 // indirect
	github.com/vmihailenco/tagparser/v2 v2.0.0 // indirect
	github.com/x448/float16 v0.8.4 // indirect
	go.yaml.in/yaml/v2 v2.4.2 // indirect
	golang.org/x/arch v0.0.0-20210923205945-b76863e36670 // indirect
	golang.org/x/exp v0.0.0-20260824195058-e88cd73687aa // indirect
	golang.org/x/mod v0.39.0 // indirect
	golang.org/x/sync v0.22.0 // indirect
	golang.org/x/tools v0.49.0 // indirect
	gopkg.in/yaml.v2 v2.4.0 // indirect
	gopkg.in/yaml.v3 v3.0.1 // indirect
)

tool (
	capnproto.org/go/capnp/v3/capnpc-go
	github.com/200sc/bebop/main/bebopc-go
	github.com/ferranbt/fastssz/sszgen
	github.com/gogo/protobuf/protoc-gen-gogofast
	github.com/mailru/easyjson/easyjson
	github.com/planetscale/vtprotobuf/cmd/protoc-gen-go-vtproto
	github.com/tinylib/msgp
	google.golang.org/protobuf/cmd/protoc-gen-go
)
