package client

import (
	"bytes"
	"cmp"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"unicode"
)

// secretMask stands for a secret in the texts the client hands on.
const secretMask = "***"

// minMaskedPrefix is the shortest piece of a secret that is masked where a
// text is cut short. A shorter one is dropped instead: masking it would mark
// ordinary words as secrets, and leaving it would show a secret's first
// bytes (often a fixed prefix such as "sk_", but a secret all the same).
const minMaskedPrefix = 4

// secrets are texts the client never hands on as they are: its API key, and
// what a call's request carries that may be a credential (a create's
// callback URLs). A service, or a gateway before it, may quote the request
// in an answer, and the client makes errors and log lines of answers: each
// secret is masked there, as sent, as JSON writers escape it and as URLs
// encode it, before the text is cut short.
type secrets []string

// newSecrets returns the forms of values to mask, longest first: a secret
// that begins another (a callback URL without its token, beside the same
// URL with it) must not leave the rest of the longer one shown.
func newSecrets(values ...string) secrets { return secrets(nil).with(values...) }

// with returns s and the forms of values, longest first.
func (s secrets) with(values ...string) secrets {
	out := slices.Clone(s)
	for _, v := range values {
		if strings.TrimSpace(v) == "" {
			continue // nothing to hide, and masking it would hide every space
		}
		for _, form := range SecretForms(v) {
			if !slices.Contains(out, form) {
				out = append(out, form)
			}
		}
	}
	slices.SortStableFunc(out, func(a, b string) int { return cmp.Compare(len(b), len(a)) })
	return out
}

// forAnswer is s with, when a redirect led to the answer resp, what the
// URL it led to holds that may be a credential and the request first sent
// did not (a token the redirect added to the query, which the answer may
// quote back): a listing's own filters, sent by the user, stay shown.
func (s secrets) forAnswer(resp *http.Response) secrets {
	if !redirected(resp) {
		return s
	}
	first := resp.Request
	for first.Response != nil && first.Response.Request != nil {
		first = first.Response.Request
	}
	sent := urlCredentials(first.URL.String())
	var added []string
	for _, part := range urlCredentials(resp.Request.URL.String()) {
		if !slices.Contains(sent, part) {
			added = append(added, part)
		}
	}
	return s.with(added...)
}

// redirected reports whether resp answers a request a redirect made.
func redirected(resp *http.Response) bool {
	return resp.Request != nil && resp.Request.Response != nil && resp.Request.URL != nil
}

// SecretForms are the texts an answer may quote a secret as: as it is, as
// JSON writers escape it (jsonForms), and URL-encoded (a gateway quoting a
// request's query or path), each of those escaped for JSON too.
func SecretForms(v string) []string {
	var forms []string
	for _, encoded := range []string{v, url.QueryEscape(v), url.PathEscape(v)} {
		for _, form := range jsonForms(encoded) {
			if !slices.Contains(forms, form) {
				forms = append(forms, form)
			}
		}
	}
	return forms
}

// jsonForms are the texts a JSON writer may make of s inside a string: as
// it is, with <, > and & escaped (Go's encoder), and either of those with
// "/" escaped (PHP's and others').
func jsonForms(s string) []string {
	forms := []string{s}
	if quoted, err := json.Marshal(s); err == nil {
		forms = append(forms, string(quoted[1:len(quoted)-1]))
	}
	var plain bytes.Buffer
	enc := json.NewEncoder(&plain)
	enc.SetEscapeHTML(false)
	if enc.Encode(s) == nil {
		quoted := bytes.TrimSpace(plain.Bytes())
		forms = append(forms, string(quoted[1:len(quoted)-1]))
	}
	for _, f := range slices.Clone(forms) {
		forms = append(forms, strings.ReplaceAll(f, "/", `\/`))
	}
	return forms
}

// minURLCredential is the shortest part of a URL taken for a credential: a
// shorter query ("x=1") is no signature, and masking it would garble the
// words of a message.
const minURLCredential = 8

// urlCredentials returns the parts of a URL that may be credentials: its
// user information and password, and its query, each query value (as sent
// and decoded: an error may quote one alone) and its fragment, where a
// presigned URL keeps its signature. What locates the URL (scheme, host,
// path) is not one: an error may still say which file it was.
func urlCredentials(raw string) []string {
	u, err := url.Parse(raw)
	if err != nil {
		return nil
	}
	password, _ := u.User.Password()
	candidates := []string{u.User.String(), password, u.RawQuery, u.EscapedFragment()}
	for _, param := range strings.Split(u.RawQuery, "&") {
		_, value, _ := strings.Cut(param, "=")
		decoded, _ := url.QueryUnescape(value)
		candidates = append(candidates, value, decoded)
	}
	var parts []string
	for _, part := range candidates {
		if len(part) >= minURLCredential && !slices.Contains(parts, part) {
			parts = append(parts, part)
		}
	}
	return parts
}

// proxyCredentials are what a proxy's URL holds that is a credential, in
// its forms and as the Proxy-Authorization header Go makes of it (Basic:
// base64 of user:password), which a proxy may quote back.
func proxyCredentials(proxy *url.URL) []string {
	password, _ := proxy.User.Password()
	return append(urlCredentials(proxy.String()), base64.StdEncoding.EncodeToString([]byte(proxy.User.Username()+":"+password)))
}

// callbackURLCredentials returns what urlCredentials does and, as a
// callback URL may carry its token in its path (a chat service's webhook,
// .../services/T0123/B0456/<token>), its path and each of its segments that
// could be a token (MayBeToken). A word stays shown, so that an error
// quoting the same word elsewhere stays readable.
func callbackURLCredentials(raw string) []string {
	parts := urlCredentials(raw)
	u, err := url.Parse(raw)
	if err != nil {
		return parts
	}
	candidates := []string{u.EscapedPath(), u.Path}
	for _, segment := range strings.Split(u.EscapedPath(), "/") {
		decoded, _ := url.PathUnescape(segment)
		candidates = append(candidates, segment, decoded)
	}
	for _, part := range candidates {
		if MayBeToken(part) && !slices.Contains(parts, part) {
			parts = append(parts, part)
		}
	}
	return parts
}

// MayBeToken reports whether a part of a callback URL's path could be a
// token: at least minURLCredential characters, with a digit, or a capital
// past the first character (a mixed-case or all-capitals token; a
// capitalized word is not one), or at least minLetterToken characters with
// no separator (a long run of small letters is no word a path is made of).
func MayBeToken(s string) bool {
	if len(s) < minURLCredential {
		return false
	}
	return strings.ContainsAny(s, "0123456789") ||
		strings.IndexFunc(s[1:], unicode.IsUpper) >= 0 ||
		(len(s) >= minLetterToken && !strings.ContainsAny(s, "-_.~/"))
}

// minLetterToken is the shortest run of small letters taken for a token.
const minLetterToken = 16

// longest is the length of the longest secret (0 when none).
func (s secrets) longest() int {
	if len(s) == 0 {
		return 0
	}
	return len(s[0]) // newSecrets sorts them longest first
}

// mask replaces every secret in text.
func (s secrets) mask(text string) string {
	for _, secret := range s {
		text = strings.ReplaceAll(text, secret, secretMask)
	}
	return text
}

// maskQuoted masks text of an answer that a diagnostic quotes (a service
// message, a validation error, a body that is not the service's JSON): the
// secrets, callback URLs (CallbackURLMember) and the credentials of other
// URLs (MaskURLCredentials). A read's secrets hold no callback URL, and a
// job's record sent as something else than JSON (a gateway relabelling it)
// holds one.
func (s secrets) maskQuoted(text string) string {
	return MaskURLCredentials(maskCallbackURLMembers(s.mask(text)), false)
}

// maskCut masks text that was cut short: the secrets in it, and the
// longest beginning of one at its end (the beginning of another may be a
// shorter part of it), which is masked when it is long enough to be told
// from ordinary text and dropped when it is not (the text ends a few bytes
// earlier, which a cut text can afford).
func (s secrets) maskCut(text string) string {
	text = s.mask(text)
	for n := min(s.longest()-1, len(text)); n > 0; n-- {
		for _, secret := range s {
			if n >= len(secret) || !strings.HasSuffix(text, secret[:n]) {
				continue
			}
			if n < minMaskedPrefix {
				return text[:len(text)-n]
			}
			return text[:len(text)-n] + secretMask
		}
	}
	return text
}
