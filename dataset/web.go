package dataset

import "fmt"

// User is seed 001's user record.
type User struct {
	ID    int    `json:"id" xml:"id" yaml:"id"`
	Name  string `json:"name" xml:"name" yaml:"name"`
	Email string `json:"email" xml:"email" yaml:"email"`
}

// Metric is seed 001's all-numeric record.
type Metric struct {
	Timestamp float64 `json:"timestamp" xml:"timestamp" yaml:"timestamp"`
	NameHash  uint64  `json:"name_hash" xml:"name_hash" yaml:"name_hash"`
	Value     float64 `json:"value" xml:"value" yaml:"value"`
}

// ComplexData is seed 001's composite record: 100 users and a string map.
type ComplexData struct {
	Users    []User            `json:"users" xml:"users" yaml:"users"`
	Metadata map[string]string `json:"metadata" xml:"metadata" yaml:"metadata"`
	Count    int               `json:"count" xml:"count" yaml:"count"`
	Active   bool              `json:"active" xml:"active" yaml:"active"`
}

// The element counts of seed 001's collections.
const (
	complexDataUsers    = 100
	complexDataMetadata = 10
)

var (
	firstNames = []string{"John", "Olena", "Ana", "Wei", "Amara", "Lukas", "Priya", "Mateo"}
	lastNames  = []string{"Doe", "Kovalenko", "Silva", "Zhang", "Okafor", "Schmidt", "Iyer", "Garcia"}
)

// NewUser returns the i-th User; user 0 is seed 001's John Doe.
func NewUser(i int) User {
	if i == 0 {
		return User{ID: 1, Name: "John Doe", Email: "john@example.com"}
	}
	first, last := firstNames[i%len(firstNames)], lastNames[(i/len(firstNames))%len(lastNames)]
	return User{ID: i + 1, Name: first + " " + last, Email: fmt.Sprintf("user%03d@example.com", i+1)}
}

// NewMetric returns the i-th Metric. Metric 0 is seed 001's; each other
// is a second later with a fraction of a second of every digit a float64
// holds at that magnitude, and a Value below 100 with every digit a
// float64 has, every fourth a whole number, as measured data holds floats
// (a codec that rounds them is caught).
func NewMetric(i int) Metric {
	m := Metric{Timestamp: 1642723200.123, NameHash: 1234567890123456789 + uint64(i), Value: 99.99}
	if i > 0 {
		m.Timestamp, m.Value = 1642723200+float64(i)+floatAt(i), measured(i, 100)
	}
	return m
}

// NewComplexData returns the i-th ComplexData: users i*100 to i*100+99 and
// 10 metadata entries numbered i*10+1 to i*10+10. Seed 001 left both zero,
// which favours gob.
func NewComplexData(i int) ComplexData {
	users := make([]User, 0, complexDataUsers)
	for j := range complexDataUsers {
		users = append(users, NewUser(i*complexDataUsers+j))
	}
	meta := make(map[string]string, complexDataMetadata)
	for j := range complexDataMetadata {
		meta[fmt.Sprintf("key-%02d", j)] = fmt.Sprintf("value %d of %d", i*complexDataMetadata+j+1, (i+1)*complexDataMetadata)
	}
	return ComplexData{Users: users, Metadata: meta, Count: complexDataUsers, Active: true}
}
