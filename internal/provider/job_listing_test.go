package provider

import "testing"

func TestCounted(t *testing.T) {
	for _, tc := range []struct {
		n    int
		want string
	}{{0, "0 pages"}, {1, "1 page"}, {2, "2 pages"}, {100, "100 pages"}} {
		if got := counted(tc.n, "page"); got != tc.want {
			t.Errorf("counted(%d, page) = %q, want %q", tc.n, got, tc.want)
		}
	}
}
