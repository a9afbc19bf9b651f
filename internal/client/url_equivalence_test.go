package client

import (
	"net/url"
	"strings"
	"testing"
)

func TestEquivalentHTTPURL(t *testing.T) {
	for _, tc := range []struct {
		raw, want string
	}{
		{"https://example.com/a.wav", "https://example.com/a.wav"},
		{"HTTPS://EXAMPLE.COM/a.wav", "https://example.com/a.wav"},
		{"https://Example.com:443/a.wav", "https://example.com/a.wav"},
		{"http://example.com:80/a.wav", "http://example.com/a.wav"},
		{"https://example.com:/a.wav", "https://example.com/a.wav"},
		{"https://example.com", "https://example.com/"},
		{"https://example.com?x=1", "https://example.com/?x=1"},
		{"https://example.com/a.wav#t=10", "https://example.com/a.wav"},
		{"https://example.com/%61%2D%7e.wav", "https://example.com/a-~.wav"},
		{"https://example.com/a%2fb%c3%a4.wav", "https://example.com/a%2Fb%C3%A4.wav"},
		{"https://example.com/a.wav?sig=%2b%41", "https://example.com/a.wav?sig=%2BA"},
		{"https://example.com/%4F%5f%5F.wav", "https://example.com/O__.wav"},
		{"https://user:p%40ss@Example.com/a.wav", "https://user:p%40ss@example.com/a.wav"},
		{"https://[2001:DB8::1]:443/a.wav", "https://[2001:db8::1]/a.wav"},
		{"https://[2001:db8::1]:8443/a.wav", "https://[2001:db8::1]:8443/a.wav"},
		// A host is looked up by its ASCII name, an IPv6 address is one
		// whatever its text.
		{"https://bücher.example/a.wav", "https://xn--bcher-kva.example/a.wav"},
		{"https://BÜCHER.example/a.wav", "https://xn--bcher-kva.example/a.wav"},
		{"https://XN--BCHER-KVA.example/a.wav", "https://xn--bcher-kva.example/a.wav"},
		{"https://b%C3%BCcher.example/a.wav", "https://xn--bcher-kva.example/a.wav"},
		{"http://[0:0::1]:80/a.wav", "http://[::1]/a.wav"},
		{"http://[0000:0000:0000:0000:0000:0000:0000:0001]:8080/a.wav", "http://[::1]:8080/a.wav"},
		{"https://[::FFFF:192.0.2.1]/a.wav", "https://[::ffff:192.0.2.1]/a.wav"},
		{"https://[fe80::1%25en0]/a.wav", "https://[fe80::1%25en0]/a.wav"},
		// A name the lookup refuses is compared as written, lowercased.
		{"https://My_Host.example/a.wav", "https://my_host.example/a.wav"},
		// A port is a number: leading zeros name the same one.
		{"https://example.com:0443/a.wav", "https://example.com/a.wav"},
		{"http://example.com:08080/a.wav", "http://example.com:8080/a.wav"},
		{"http://example.com:00/a.wav", "http://example.com:0/a.wav"},

		// What a server may read otherwise stays as written.
		{"https://example.com:8443/a.wav", "https://example.com:8443/a.wav"},
		{"http://example.com:443/a.wav", "http://example.com:443/a.wav"},
		{"https://example.com:80/a.wav", "https://example.com:80/a.wav"},
		{"https://example.com/A.WAV", "https://example.com/A.WAV"},
		{"https://example.com/./a.wav", "https://example.com/./a.wav"},
		{"https://example.com/a.wav?", "https://example.com/a.wav?"},
		{"https://example.com/a.wav?X=1", "https://example.com/a.wav?X=1"},

		// Not an absolute http(s) URL: unchanged.
		{"ftp://Example.com/a.wav", "ftp://Example.com/a.wav"},
		{"/a.wav", "/a.wav"},
		{"https://example.com/100%", "https://example.com/100%"},
		{"https:///a.wav#t=1", "https:///a.wav#t=1"},

		// A character no URI holds as it is is encoded as clients send it,
		// in the path and the query alike; an encoded reserved character
		// stays encoded, whatever else the text holds ("%2F" is no "/").
		{"https://example.com/réunion/2024%2F05%2F02.wav", "https://example.com/r%C3%A9union/2024%2F05%2F02.wav"},
		{"https://example.com/r%C3%A9union/2024/05/02.wav", "https://example.com/r%C3%A9union/2024/05/02.wav"},
		{"https://example.com/a|b/x%2Fy.wav", "https://example.com/a%7Cb/x%2Fy.wav"},
		{"https://example.com/a%7cb/x/y.wav", "https://example.com/a%7Cb/x/y.wav"},
		{"https://example.com/caf%C3%A9/x.wav?name=café", "https://example.com/caf%C3%A9/x.wav?name=caf%C3%A9"},
		{"https://example.com/my file.wav", "https://example.com/my%20file.wav"},
		// A query with a "%" that begins no percent-encoding stays as it is.
		{"HTTPS://Example.com/a.wav?sig=%4", "https://example.com/a.wav?sig=%4"},
		{"https://example.com/a.wav?x=%&y=%41", "https://example.com/a.wav?x=%&y=%41"},
		{"https://exa mple.com/a.wav", "https://exa mple.com/a.wav"},
		{"", ""},
	} {
		if got := EquivalentHTTPURL(tc.raw); got != tc.want {
			t.Errorf("EquivalentHTTPURL(%q) = %q, want %q", tc.raw, got, tc.want)
		}
	}
}

// FuzzEquivalentHTTPURL: the normal form is its own normal form, and it
// names what the URL names: the same host (without case) and port (the
// scheme's default written out or not), and a client sends the same path
// and query for it, once decoded.
func FuzzEquivalentHTTPURL(f *testing.F) {
	for _, s := range []string{
		"https://example.com/a.wav", "HTTPS://Example.COM:443/%61.wav#t", "http://example.com:80", "https://[2001:DB8::1]:443/a",
		"https://u:p%40@h.example/a?b=%2f%7e&c", "https://h/%zz", "https://h/a%2Fb", "http://h:8080?", "https://h/ä?q=ä", "ftp://h/a",
		"https://h/%C3%A4%25", "http://%41.example/", "https://h:0443/a", "https://h/a#b#c",
		"https://h/é/a%2Fb", "https://h/a|b/%2f?q=é%2F",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		got := EquivalentHTTPURL(raw)
		if again := EquivalentHTTPURL(got); again != got {
			t.Fatalf("EquivalentHTTPURL(%q) = %q, and of that %q", raw, got, again)
		}
		u, err := url.Parse(raw)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Opaque != "" || u.Host == "" {
			if got != raw {
				t.Fatalf("EquivalentHTTPURL(%q) = %q, want it unchanged", raw, got)
			}
			return
		}
		n, err := url.Parse(got)
		if err != nil {
			t.Fatalf("EquivalentHTTPURL(%q) = %q, which does not parse: %v", raw, got, err)
		}
		if n.Scheme != u.Scheme || NormalHost(n) != NormalHost(u) || n.Fragment != "" || n.User.String() != u.User.String() {
			t.Fatalf("EquivalentHTTPURL(%q) = %q: another scheme, host, user or a fragment", raw, got)
		}
		if want := strings.TrimPrefix(u.Path, "/"); strings.TrimPrefix(n.Path, "/") != want || !strings.HasPrefix(n.Path, "/") {
			t.Fatalf("EquivalentHTTPURL(%q) = %q: path %q, want /%s", raw, got, n.Path, want)
		}
		// A "/" encoded or not is another path: each stays as it was.
		rawPath, _, _ := rawPathAndQuery(raw)
		gotPath, _, _ := rawPathAndQuery(got)
		if strings.Count(strings.ToUpper(rawPath), "%2F") != strings.Count(gotPath, "%2F") || strings.Count(rawPath, "/") != strings.Count(strings.TrimPrefix(gotPath, "/"), "/")+boolInt(strings.HasPrefix(rawPath, "/")) {
			t.Fatalf("EquivalentHTTPURL(%q) = %q: its path's slashes, encoded or not, moved", raw, got)
		}
		wantQuery, errWant := url.QueryUnescape(u.RawQuery)
		gotQuery, errGot := url.QueryUnescape(n.RawQuery)
		if (errWant == nil) != (errGot == nil) || gotQuery != wantQuery || n.ForceQuery != (u.ForceQuery || (u.RawQuery == "" && n.RawQuery == "" && n.ForceQuery)) {
			t.Fatalf("EquivalentHTTPURL(%q) = %q: query %q, want %q", raw, got, n.RawQuery, u.RawQuery)
		}
	})
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
