package dataset

// A is seed 003's game-server message.
type A struct {
	I1    int           `json:"i1" xml:"i1" yaml:"i1"`
	I2    int           `json:"i2" xml:"i2" yaml:"i2"`
	I3    int           `json:"i3" xml:"i3" yaml:"i3"`
	I4    int           `json:"i4" xml:"i4" yaml:"i4"`
	I5    int           `json:"i5" xml:"i5" yaml:"i5"`
	I6    int           `json:"i6" xml:"i6" yaml:"i6"`
	I7    int           `json:"i7" xml:"i7" yaml:"i7"`
	I8    int           `json:"i8" xml:"i8" yaml:"i8"`
	I9    int           `json:"i9" xml:"i9" yaml:"i9"`
	I10   int           `json:"i10" xml:"i10" yaml:"i10"`
	I11   int           `json:"i11" xml:"i11" yaml:"i11"`
	I12   int           `json:"i12" xml:"i12" yaml:"i12"`
	I13   int           `json:"i13" xml:"i13" yaml:"i13"`
	I14   int           `json:"i14" xml:"i14" yaml:"i14"`
	I15   int           `json:"i15" xml:"i15" yaml:"i15"`
	Str1  string        `json:"str1" xml:"str1" yaml:"str1"`
	B1    *B            `json:"b1" xml:"b1" yaml:"b1"`
	Barr  []*B          `json:"barr" xml:"barr" yaml:"barr"`
	Bmap1 map[string]*B `json:"bmap1" xml:"bmap1" yaml:"bmap1"`
	Bmap2 map[string]B  `json:"bmap2" xml:"bmap2" yaml:"bmap2"`
}

// B is the nested record of A.
type B struct {
	I2   int    `json:"i2" xml:"i2" yaml:"i2"`
	Str2 string `json:"str2" xml:"str2" yaml:"str2"`
}

// NewA returns the i-th game message: seed 003's values with I1 = i+1 and
// the I2 of every nested B raised by i, so that no two messages share a B.
// As in the seed, Bmap1 holds the same three Bs as Barr and B1 is nil.
func NewA(i int) A {
	b := func(i2 int, s string) B { return B{I2: i2 + i, Str2: s} }
	ptr := func(b B) *B { return &b }
	return A{
		I1: i + 1, I2: 12, I3: 13, I4: 1234, I5: 1342, I6: 123423, I7: 123, I8: 2341,
		I9: 452234, I10: 690, I11: 2342, I12: 56878, I13: 213134, I14: 2352, I15: 234,
		Str1:  "abc",
		Barr:  []*B{ptr(b(2, "def")), ptr(b(22, "defdef")), ptr(b(222, "defdefdef"))},
		Bmap1: map[string]*B{"11": ptr(b(2, "def")), "22": ptr(b(22, "defdef")), "33": ptr(b(222, "defdefdef"))},
		Bmap2: map[string]B{"aa": b(3, "ghi"), "bb": b(33, "ghighi"), "cc": b(333, "ghighighi")},
	}
}

// NewInt64 returns the i-th integer: seed 004's 23422, plus i.
func NewInt64(i int) int64 { return 23422 + int64(i) }
