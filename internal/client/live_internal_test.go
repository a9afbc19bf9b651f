package client

import (
	"net/url"
	"strings"
	"testing"
)

// The listing's filters are sent each under its own name, once (status
// repeated), and zero values not at all.
func TestListOptions_Query(t *testing.T) {
	for _, tc := range []struct {
		opts ListOptions
		want string
	}{
		{ListOptions{}, ""},
		{ListOptions{Offset: 1, Limit: 1}, "limit=1&offset=1"},
		{ListOptions{
			Offset: 40, Limit: 20, Date: "2026-01-02", AfterDate: "2026-01-01T00:00:00Z", BeforeDate: "2026-01-03T00:00:00Z",
			Status: []string{"done", "error"}, CustomMetadata: map[string]string{"team": "a", "env": "prod"},
		}, "after_date=2026-01-01T00:00:00Z&before_date=2026-01-03T00:00:00Z&custom_metadata[env]=prod&custom_metadata[team]=a&date=2026-01-02&limit=20&offset=40&status=done&status=error"},
	} {
		got, err := url.QueryUnescape(tc.opts.Query().Encode())
		if err != nil || got != tc.want {
			t.Errorf("%+v: query %q, want %q", tc.opts, got, tc.want)
		}
	}
}

// after_date and before_date are read in RFC 3339's form only, which Go's
// parser widens: one-digit fields, a comma before the fraction, offsets to
// ±24:60, lower-case t and z.
func TestParseDateTimeFilter(t *testing.T) {
	for _, ok := range []string{"2024-05-01T12:00:00Z", "2024-05-01T14:00:00.5+02:00", "2024-05-01T00:00:00-23:59", "2024-02-29T23:59:59.123456789Z"} {
		if _, err := ParseDateTimeFilter(ok); err != nil {
			t.Errorf("%s refused: %v", ok, err)
		}
	}
	for bad, reason := range map[string]string{
		"2024-05-01T12:00:00,5Z":    "not written",
		"2024-05-01T0:00:00Z":       "not written",
		"2024-05-01t12:00:00z":      "not written",
		"2024-05-01":                "not written",
		"2024-05-01T12:00:00+24:00": "offset is not a time of day",
		"2024-05-01T12:00:00+01:60": "offset is not a time of day",
		"2023-02-29T12:00:00Z":      "not a real date",
		"2024-05-01T25:00:00Z":      "not a real date",
	} {
		if _, err := ParseDateTimeFilter(bad); err == nil || !strings.Contains(err.Error(), reason) {
			t.Errorf("%s: err %v, want it refused as %q", bad, err, reason)
		}
	}
}
