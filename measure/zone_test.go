package measure_test

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"testing"

	"github.com/pmezard/go-difflib/difflib"

	"github.com/serbench/serbench/fidelity"
	"github.com/serbench/serbench/measure"
	"github.com/serbench/serbench/registry"
	"github.com/serbench/serbench/results"
	"github.com/serbench/serbench/runner"
)

// zoneChild, set in the environment, makes TestRecordZone print the
// record of its zone instead of comparing zones.
const zoneChild = "SERBENCH_TEST_ZONE_CHILD"

// record returns the codecs' part of a run's record as serbench run builds
// it (measure.NewRun with fidelity.Shown for the loss probes), for every
// registered codec, as results.json holds it.
func record(t *testing.T) []byte {
	var jobs []runner.Job
	for _, c := range registry.Codecs {
		jobs = append(jobs, runner.Job{Codec: c})
	}
	run := measure.NewRun(measure.Config{LossProbes: fidelity.Shown}, jobs)
	b, err := json.MarshalIndent(struct {
		Codecs  []results.Codec
		Options results.Options
	}{run.Codecs, run.Options}, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestRecordZone builds the record in a child process of this test binary
// at each of three zones and fails if they differ: the time zone of the
// machine must not change results.json. (A codec that decodes times into
// time.Local once showed no time-zone loss at +05:30.)
func TestRecordZone(t *testing.T) {
	if os.Getenv(zoneChild) != "" {
		os.Stdout.Write(record(t))
		return
	}
	zones := []string{"", "Asia/Kolkata", "America/New_York"}
	got := map[string][]byte{}
	for _, zone := range zones {
		cmd := exec.Command(os.Args[0], "-test.run=^TestRecordZone$")
		cmd.Env = append(os.Environ(), zoneChild+"=1")
		if zone == "" {
			cmd.Env = append(cmd.Env, "TZ=")
		} else {
			cmd.Env = append(cmd.Env, "TZ="+zone)
		}
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("TZ=%s: %v\n%s", zone, err, stderr.Bytes())
		}
		// The child's test framework prints PASS after the record.
		got[zone] = bytes.TrimSuffix(out, []byte("PASS\n"))
	}
	if !bytes.Contains(got[""], []byte(`"time-zone": "time-offset"`)) {
		t.Errorf("no codec's time-zone loss is shown by a probe:\n%s", got[""])
	}
	for _, zone := range zones[1:] {
		if !bytes.Equal(got[""], got[zone]) {
			diff, _ := difflib.GetUnifiedDiffString(difflib.UnifiedDiff{
				A: difflib.SplitLines(string(got[""])), B: difflib.SplitLines(string(got[zone])),
				FromFile: "TZ unset", ToFile: "TZ=" + zone, Context: 2,
			})
			t.Errorf("the record differs between zones:\n%s", diff)
		}
	}
}
