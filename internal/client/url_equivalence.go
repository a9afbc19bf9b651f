package client

import (
	"cmp"
	"net"
	"net/netip"
	"net/url"
	"strconv"
	"strings"

	"golang.org/x/net/idna"
)

// EquivalentHTTPURL returns an http or https URL in the normal form of
// RFC 9110 §4.2.3, so that two URLs naming the same resource for every HTTP
// client compare equal: the service then fetches the same audio, or sends a
// callback to the same place, from either. The scheme is lowercased, the
// host is NormalHost's (lowercased, an internationalized name in ASCII, an
// IPv6 address in canonical form, no default port), an empty path is "/",
// percent-encoded unreserved characters are decoded and the other
// percent-encodings get upper-case digits (RFC 3986 §6.2.2), a character
// no URI holds as it is (non-ASCII text, a space, "|") is percent-encoded as
// clients send it (RFC 3987 §3.1), and the fragment, which no client sends,
// is dropped. Everything else stays as written: the path's and query's
// case, their reserved characters encoded or not ("%2F" is no "/"), dot
// segments and an empty query ("?"), which a server may read otherwise. A
// string that is not an absolute http(s) URL is returned unchanged.
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
	// From the text as written, not from u.EscapedPath, which writes the
	// decoded path again (a "%2F" as "/") when the text has a character it
	// would encode.
	path, query, hasQuery := rawPathAndQuery(raw)
	path = normalPercentEncoding(encodeNonURIBytes(path))
	if path == "" {
		path = "/"
	}
	b.WriteString(path)
	if hasQuery {
		b.WriteString("?" + normalPercentEncoding(encodeNonURIBytes(query)))
	}
	return b.String()
}

// rawPathAndQuery are the path and query of an absolute URL's text, as
// written; hasQuery when it has a "?", the query empty or not.
func rawPathAndQuery(raw string) (path, query string, hasQuery bool) {
	rest := raw[strings.Index(raw, "://")+len("://"):]
	start := strings.IndexAny(rest, "/?#")
	if start < 0 {
		return "", "", false
	}
	rest, _, _ = strings.Cut(rest[start:], "#")
	path, query, hasQuery = strings.Cut(rest, "?")
	return path, query, hasQuery
}

// encodeNonURIBytes percent-encodes the bytes of s that no URI holds as
// they are (RFC 3986 §2: every byte but the unreserved and reserved
// characters and "%"), as clients encode them when they send s.
func encodeNonURIBytes(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if isUnreserved(c) || strings.IndexByte(":/?#[]@!$&'()*+,;=%", c) >= 0 {
			b.WriteByte(c)
			continue
		}
		b.WriteString("%" + strings.ToUpper(strconv.FormatUint(uint64(c)|0x100, 16)[1:]))
	}
	return b.String()
}

// NormalHost is a URL's host, lowercased, a domain name in its ASCII form
// (IDNA: "bücher.example" is "xn--bcher-kva.example", as HTTP clients
// look it up) and an IPv6 address in its canonical text (RFC 5952:
// "0:0::1" is "::1"), with its port (a number: without leading zeros, as
// clients dial it) unless that is the scheme's default (or empty): two URLs
// are on the same host when their NormalHost are equal.
func NormalHost(u *url.URL) string {
	host, port := strings.ToLower(u.Hostname()), u.Port()
	if addr, err := netip.ParseAddr(host); err == nil {
		host = addr.String()
	} else if ascii, err := idna.Lookup.ToASCII(host); err == nil {
		host = ascii // a name the lookup refuses stays as written, lowercased
	}
	if trimmed := strings.TrimLeft(port, "0"); trimmed != port {
		port = cmp.Or(trimmed, "0")
	}
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

// PortOutOfRange is the port u names when no client can dial it (outside 1
// to 65535, read as a number: leading zeros allowed, as NormalHost reads
// them), and "" when it names none or one in range. Go's parser takes any
// digits; WHATWG URL parsers, and the URL validators services use, refuse
// them.
func PortOutOfRange(u *url.URL) string {
	port := u.Port()
	if port == "" {
		return ""
	}
	if n, err := strconv.ParseUint(port, 10, 16); err == nil && n >= 1 {
		return ""
	}
	return port
}

// defaultPorts are the ports a URL of each scheme means when it names none.
var defaultPorts = map[string]string{"http": "80", "https": "443"}

// normalPercentEncoding decodes the percent-encoded unreserved characters
// of s and writes the other percent-encodings with upper-case digits.
func normalPercentEncoding(s string) string {
	if !strings.Contains(s, "%") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '%' {
			b.WriteByte(s[i])
			continue
		}
		// A "%" that begins no percent-encoding leaves s as it is: decoding
		// around it could make one ("%%30" would become "%0").
		if i+3 > len(s) {
			return s
		}
		c, err := strconv.ParseUint(s[i+1:i+3], 16, 8)
		if err != nil {
			return s
		}
		if isUnreserved(byte(c)) {
			b.WriteByte(byte(c))
		} else {
			b.WriteString("%" + strings.ToUpper(s[i+1:i+3]))
		}
		i += 2
	}
	return b.String()
}

// isUnreserved reports whether c is an unreserved character of RFC 3986
// §2.3, which means the same percent-encoded or not.
func isUnreserved(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' ||
		c == '-' || c == '.' || c == '_' || c == '~'
}
