package client

import (
	"net"
	"net/url"
	"strings"
)

// EquivalentHTTPURL returns an http or https URL in the normal form of
// RFC 9110 §4.2.3, so that two URLs naming the same resource for every HTTP
// client compare equal: the service then fetches the same audio, or sends a
// callback to the same place, from either. The scheme and host are
// lowercased, a port that is the scheme's default is dropped, an empty path
// is "/", percent-encoded unreserved characters are decoded and the other
// percent-encodings get upper-case digits (RFC 3986 §6.2.2), and the
// fragment, which no client sends, is dropped. Everything else stays as
// written: the path's and query's case, dot segments and an empty query
// ("?"), which a server may read otherwise. A string that is not an
// absolute http(s) URL is returned unchanged.
func EquivalentHTTPURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Opaque != "" || u.Host == "" {
		return raw
	}
	var b strings.Builder
	b.WriteString(u.Scheme + "://")
	if u.User != nil {
		b.WriteString(u.User.String() + "@")
	}
	// url.URL escapes what the host holds that a URL writes escaped.
	b.WriteString(strings.TrimPrefix((&url.URL{Host: NormalHost(u)}).String(), "//"))
	path := normalPercentEncoding(u.EscapedPath())
	if path == "" {
		path = "/"
	}
	b.WriteString(path)
	if u.RawQuery != "" || u.ForceQuery {
		b.WriteString("?" + normalPercentEncoding(u.RawQuery))
	}
	return b.String()
}

// NormalHost is a URL's host, lowercased, with its port unless that is the
// scheme's default (or empty): two URLs are on the same host when their
// NormalHost are equal.
func NormalHost(u *url.URL) string {
	host, port := strings.ToLower(u.Hostname()), u.Port()
	if port == defaultPorts[u.Scheme] {
		port = ""
	}
	switch {
	case port != "":
		return net.JoinHostPort(host, port)
	case strings.Contains(host, ":"): // an IPv6 address
		return "[" + host + "]"
	default:
		return host
	}
}

// defaultPorts are the ports a URL of each scheme means when it names none.
var defaultPorts = map[string]string{"http": "80", "https": "443"}

// normalPercentEncoding decodes the percent-encoded unreserved characters
// of s and writes the other percent-encodings with upper-case digits. A
// string with a "%" that begins no percent-encoding stays as it is:
// decoding around it could make one ("%%30" would become "%0").
func normalPercentEncoding(s string) string {
	if !strings.Contains(s, "%") {
		return s
	}
	for i := 0; i < len(s); i++ {
		if s[i] == '%' && (i+2 >= len(s) || !isHex(s[i+1]) || !isHex(s[i+2])) {
			return s
		}
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '%' {
			b.WriteByte(s[i])
			continue
		}
		c := unhex(s[i+1])<<4 | unhex(s[i+2])
		if isUnreserved(c) {
			b.WriteByte(c)
		} else {
			b.WriteString("%" + strings.ToUpper(s[i+1:i+3]))
		}
		i += 2
	}
	return b.String()
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

func unhex(c byte) byte {
	switch {
	case c <= '9':
		return c - '0'
	case c <= 'F':
		return c - 'A' + 10
	default:
		return c - 'a' + 10
	}
}

// isUnreserved reports whether c is an unreserved character of RFC 3986
// §2.3, which means the same percent-encoded or not.
func isUnreserved(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' ||
		c == '-' || c == '.' || c == '_' || c == '~'
}
