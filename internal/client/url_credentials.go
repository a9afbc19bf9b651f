package client

import (
	"regexp"
	"strings"
)

// CallbackURLMember matches a callback URL member of the service's JSON
// (callback_url, or callback_config's url) with its string value, whole or
// cut short where a logged body ends.
var CallbackURLMember = regexp.MustCompile(`"(?:callback_url|url)"\s*:\s*"(?:[^"\\]|\\.)*"?`)

// urlUserInfo and urlQuery match what any URL in a body (logged, or
// quoted in an error) may carry as a credential: user information
// (user:password@), and a query or fragment (a presigned audio_url's
// signature, in its request_params and file.source). Group 1 is what
// locates the URL (its scheme, host and path), which stays. Slashes may be
// JSON-escaped (\/), and so may other characters of the path (\u00e9 from
// an encoder that writes ASCII only, \u0026 from Go's, which escapes & as
// HTML); the query runs to the end of the JSON string. The scheme may be in
// capitals (HTTPS://), which the URL validators accept.
var (
	urlUserInfo = regexp.MustCompile(`((?i:https?):(?:\\?/){2})(?:[^"\\\s/?#@]|\\.)*@`)
	// urlAuthorityCut is a URL cut short in its authority, where a body
	// cut short ends: it may be user information whose "@" was cut off.
	urlAuthorityCut = regexp.MustCompile(`((?i:https?):(?:\\?/){2})(?:[^"\\\s/?#@]|\\.)+\\?$`)
	urlQuery        = regexp.MustCompile(`((?i:https?):(?:\\?/){2}(?:[^"\\\s?#]|\\/|\\u[0-9a-fA-F]{4})*)[?#](?:[^"\\\s]|\\.)*`)
)

// MaskURLCredentials masks, in text (an answer's body, JSON or not), the
// user information and the query or fragment of every http or https URL:
// a presigned audio_url's signature, a callback URL's token, wherever the
// service, or a gateway before it, quotes them. cut says text was cut
// short: a URL ending it in its authority may be user information whose
// "@" was cut off.
func MaskURLCredentials(text string, cut bool) string {
	text = urlUserInfo.ReplaceAllString(text, "${1}***@")
	if cut {
		text = urlAuthorityCut.ReplaceAllString(text, "${1}***")
	}
	return urlQuery.ReplaceAllString(text, "${1}?***")
}

// maskCallbackURLMembers masks the value of each CallbackURLMember in text,
// keeping its name: which member a gateway's answer had stays readable.
func maskCallbackURLMembers(text string) string {
	return CallbackURLMember.ReplaceAllStringFunc(text, func(member string) string {
		return member[:strings.IndexByte(member, ':')+1] + ` "***"`
	})
}

// quotedQuery is a query or fragment in a quoted string of net/http's
// error texts: a Location header it could not parse, relative (so without
// the scheme MaskURLCredentials looks for), token included.
var quotedQuery = regexp.MustCompile(`("[^"\s?#]*)[?#][^"]*"`)

// maskTransportText is the text of a network failure (net/http's) without
// URL credentials, also where it quotes a URL it could not parse.
func maskTransportText(text string) string {
	return quotedQuery.ReplaceAllString(MaskURLCredentials(text, false), `$1?…"`)
}
