package cost

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os/exec"
	"strconv"
	"strings"
	"time"

	"golang.org/x/mod/module"
	"golang.org/x/mod/semver"
)

// A Fetcher gets a URL's body: the module proxy's answers. Tests give
// one that serves fixed answers (httptest), so that none needs the
// network.
type Fetcher interface {
	Fetch(ctx context.Context, url string) ([]byte, error)
}

// HTTPFetcher fetches with an http.Client.
type HTTPFetcher struct{ Client *http.Client }

// Fetch gets url, and fails on a status other than 200.
func (f HTTPFetcher) Fetch(ctx context.Context, url string) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, err
	}
	c := f.Client
	if c == nil {
		c = &http.Client{Timeout: 20 * time.Second}
	}
	resp, err := c.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil {
		return nil, err
	}
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("%s: %s", url, resp.Status)
	}
	return b, nil
}

// Proxy returns the first module proxy GOPROXY names, or "" when it names
// none (off, direct).
func Proxy(ctx context.Context) string {
	out, err := exec.CommandContext(ctx, "go", "env", "GOPROXY").Output()
	if err != nil {
		return ""
	}
	for _, p := range strings.FieldsFunc(strings.TrimSpace(string(out)), func(r rune) bool { return r == ',' || r == '|' }) {
		if strings.HasPrefix(p, "http://") || strings.HasPrefix(p, "https://") || strings.HasPrefix(p, "file://") {
			return strings.TrimSuffix(p, "/")
		}
	}
	return ""
}

// An Upkeep is what the module proxy says of a codec's module.
type Upkeep struct {
	Module string `json:"module"`
	Pinned string `json:"pinned,omitempty"` // the version serbench builds with
	// PinnedDate and Latest, LatestDate are the pinned version's date,
	// and the newest version with its date, as the proxy gives them.
	PinnedDate time.Time `json:"pinned_date,omitzero"`
	Latest     string    `json:"latest,omitempty"`
	LatestDate time.Time `json:"latest_date,omitzero"`
	// NewerMajor is a newer major version's module path, where the proxy
	// has one: "github.com/x/y/v3".
	NewerMajor string `json:"newer_major,omitempty"`
	// Unknown says why the proxy's answer is missing: offline, no proxy,
	// a module whose versions the proxy does not list.
	Unknown string `json:"unknown,omitempty"`
}

// Age is how old the pinned version was at now, or 0 when unknown.
func (u Upkeep) Age(now time.Time) time.Duration {
	if u.PinnedDate.IsZero() {
		return 0
	}
	return now.Sub(u.PinnedDate)
}

// versionInfo is the proxy's .info and @latest answer.
type versionInfo struct {
	Version string
	Time    time.Time
}

// CheckUpkeep asks proxy (a GOPROXY URL) through f about module at
// version pinned: its newest version and date (@latest, else the newest
// of @v/list and its .info), the pinned version's date, and whether the
// next major version's module exists. A failing answer is recorded in
// Unknown, never returned as an error: offline, the column says so.
func CheckUpkeep(ctx context.Context, f Fetcher, proxy, mod, pinned string) Upkeep {
	u := Upkeep{Module: mod, Pinned: pinned}
	if proxy == "" {
		u.Unknown = "no module proxy (GOPROXY names none)"
		return u
	}
	base := func(path string) (string, error) {
		esc, err := module.EscapePath(path)
		return proxy + "/" + esc, err
	}
	at, err := base(mod)
	if err != nil {
		u.Unknown = err.Error()
		return u
	}
	info := func(url string) (versionInfo, error) {
		var vi versionInfo
		b, err := f.Fetch(ctx, url)
		if err == nil {
			err = json.Unmarshal(b, &vi)
		}
		return vi, err
	}
	latest, err := info(at + "/@latest")
	if err != nil {
		b, lerr := f.Fetch(ctx, at+"/@v/list")
		newest := ""
		if lerr == nil {
			for _, v := range strings.Fields(string(b)) {
				if semver.IsValid(v) && semver.Prerelease(v) == "" && (newest == "" || semver.Compare(v, newest) > 0) {
					newest = v
				}
			}
		}
		if newest == "" {
			u.Unknown = "the module proxy gives no latest version: " + err.Error()
			return u
		}
		if latest, err = info(at + "/@v/" + newest + ".info"); err != nil {
			u.Unknown = "the module proxy gives no date: " + err.Error()
			return u
		}
	}
	u.Latest, u.LatestDate = latest.Version, latest.Time
	if pinned != "" {
		if pi, err := info(at + "/@v/" + pinned + ".info"); err == nil {
			u.PinnedDate = pi.Time
		}
	}
	if next := nextMajor(mod); next != "" {
		if nat, err := base(next); err == nil {
			if b, err := f.Fetch(ctx, nat+"/@v/list"); err == nil && len(strings.Fields(string(b))) > 0 {
				u.NewerMajor = next
			} else if _, err := info(nat + "/@latest"); err == nil {
				u.NewerMajor = next
			}
		}
	}
	return u
}

// nextMajor returns the module path of mod's next major version:
// "x/v3" for "x/v2", "x/v2" for "x"; "" for gopkg.in paths, whose majors
// are spelt otherwise.
func nextMajor(mod string) string {
	if strings.HasPrefix(mod, "gopkg.in/") {
		return ""
	}
	prefix, major, ok := module.SplitPathVersion(mod)
	if !ok {
		return ""
	}
	n := 1
	if major != "" {
		n, _ = strconv.Atoi(strings.TrimPrefix(major, "/v"))
	}
	return fmt.Sprintf("%s/v%d", prefix, n+1)
}
