package client

import (
	"net/url"
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
