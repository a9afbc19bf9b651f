package client

// Fuzz targets of unexported helpers; see fuzz_test.go for the rest.

import (
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode"
	"unicode/utf8"
)

// FuzzParseRetryAfter: any Retry-After header gives a wait ≥ 0, exactly the
// seconds given when they are a small non-negative integer, and the time
// until a future HTTP date.
func FuzzParseRetryAfter(f *testing.F) {
	for _, s := range []string{
		"", "0", "1", " 30 ", "+5", "-1", "-0", "1.5", "1e3", "0x10", "120s",
		"9223372036854775807", "9223372036854775808", "9223372036", "9223372037", "18446744073709551615",
		"99999999999999999999999999", "Wed, 21 Oct 2015 07:28:00 GMT", "Fri, 01 Jan 2100 00:00:00 GMT",
		"Sunday, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994", "Fri, 31 Dec 9999 23:59:59 GMT",
		"tomorrow", "\x00", "１２", "٣",
	} {
		f.Add(s)
	}
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	f.Fuzz(func(t *testing.T, v string) {
		got := parseRetryAfter(v, now)
		if got < 0 {
			t.Fatalf("Retry-After %q gave a negative wait %v", v, got)
		}
		trimmed := strings.TrimSpace(v)
		if n, err := strconv.Atoi(trimmed); err == nil && n >= 0 && n <= 1<<30 && got != time.Duration(n)*time.Second {
			t.Fatalf("Retry-After %q gave %v", v, got)
		}
		if at, err := http.ParseTime(trimmed); err == nil && at.After(now) && at.Sub(now) < 100*365*24*time.Hour && got != at.Sub(now) {
			t.Fatalf("Retry-After %q gave %v, want %v", v, got, at.Sub(now))
		}
	})
}

// FuzzSnippet: the excerpt of a body shown in an error is short, valid
// UTF-8 and printable, whatever the body.
func FuzzSnippet(f *testing.F) {
	for _, s := range []string{"", " \t\n", "<html><body>502</body></html>", strings.Repeat("é", 300), strings.Repeat("a", 199) + "😀",
		"\xff\xfe\x00\x01", "\u202e\u200b\ufeff", strings.Repeat("\x1b[31m", 100)} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		s := snippet(data, nil)
		if s == "" || len(s) > 200+len("…") || !utf8.ValidString(s) {
			t.Fatalf("snippet %q of %q", s, data)
		}
		for _, r := range s {
			if !unicode.IsPrint(r) {
				t.Fatalf("snippet %q holds the unprintable %U", s, r)
			}
		}
	})
}

// FuzzNextOffset: a next-page link gives a non-negative offset or an error.
func FuzzNextOffset(f *testing.F) {
	for _, s := range []string{
		"http://x/v2/live?offset=20&limit=10", "http://x/v2/live?limit=10", "", "%zz", "http://x/v2/live?offset=-1",
		"http://x/v2/live?offset=99999999999999999999", "/v2/live?offset=5&offset=7", "http://x/?offset=+3", "::",
	} {
		f.Add(s, 7)
	}
	f.Fuzz(func(t *testing.T, link string, fallback int) {
		if fallback < 0 {
			fallback = -(fallback + 1)
		}
		n, err := nextOffset(link, fallback)
		if err == nil && n < 0 {
			t.Fatalf("link %q gave offset %d", link, n)
		}
	})
}
