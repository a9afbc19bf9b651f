package provider

import (
	"context"
	"maps"
	"regexp"

	"github.com/hashicorp/go-hclog"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/transcription-service/terraform-provider-transcription/internal/client"
)

var _ client.Logger = tflogLogger{}

// tflogLogger writes the API client's log lines with terraform-plugin-log,
// so they follow TF_LOG, with the API key masked wherever it might appear
// (the client never logs it; this holds even if a message ever did), and
// the callback URLs of the records the client logs at TRACE: they may
// carry a token.
type tflogLogger struct {
	// secretForms are the API key's forms (client.SecretForms); none
	// without a key.
	secretForms []string
	// level is the provider logger's level as terraform-plugin-go set it
	// from providerLogLevelVariable; hclog.NoLevel when the variable is
	// unset (the logger then takes its sink's level, or TRACE). Lines below
	// it are dropped here, before their masking: tflog masks a line's
	// fields before its logger looks at the level.
	level hclog.Level
}

// newTflogLogger is the client's logger for a provider configured with
// apiKey, at the level getenv gives the provider's logger.
func newTflogLogger(apiKey string, getenv func(string) string) tflogLogger {
	l := tflogLogger{level: hclog.LevelFromString(getenv(providerLogLevelVariable))}
	if apiKey != "" {
		l.secretForms = client.SecretForms(apiKey)
	}
	return l
}

// callbackURLMember matches a callback URL member of the service's JSON
// (callback_url, or callback_config's url) with its string value, whole or
// cut short where a logged body ends.
var callbackURLMember = regexp.MustCompile(`"(?:callback_url|url)"\s*:\s*"(?:[^"\\]|\\.)*"?`)

// urlUserInfo and urlQuery match what any URL in a logged body may carry
// as a credential: user information (user:password@), and a query or
// fragment (a presigned audio_url's signature, in its request_params and
// file.source). Group 1 is what locates the URL (its scheme, host and
// path), which stays. Slashes may be JSON-escaped (\/), and so may other
// characters of the path (\u00e9 from an encoder that writes ASCII only,
// \u0026 from Go's, which escapes & as HTML); the query runs to the end
// of the JSON string. The scheme may be in capitals (HTTPS://), which the
// URL validators accept.
var (
	urlUserInfo = regexp.MustCompile(`((?i:https?):(?:\\?/){2})(?:[^"\\\s/?#@]|\\.)*@`)
	// urlAuthorityCut is a URL cut short in its authority, where a body
	// logged cut short ends: it may be user information whose "@" was cut
	// off.
	urlAuthorityCut = regexp.MustCompile(`((?i:https?):(?:\\?/){2})(?:[^"\\\s/?#@]|\\.)+\\?$`)
	urlQuery        = regexp.MustCompile(`((?i:https?):(?:\\?/){2}(?:[^"\\\s?#]|\\/|\\u[0-9a-fA-F]{4})*)[?#](?:[^"\\\s]|\\.)*`)
)

// loggedBodyField is the field in which the client logs a response body.
const loggedBodyField = "body"

func (l tflogLogger) Debug(ctx context.Context, msg string, fields map[string]any) {
	if l.drops(hclog.Debug) {
		return
	}
	tflog.Debug(l.masked(ctx), msg, withoutURLCredentials(fields))
}

func (l tflogLogger) Trace(ctx context.Context, msg string, fields map[string]any) {
	if l.drops(hclog.Trace) {
		return
	}
	tflog.Trace(l.masked(ctx), msg, withoutURLCredentials(fields))
}

// drops reports whether the provider's logger drops lines at level.
func (l tflogLogger) drops(level hclog.Level) bool {
	return l.level != hclog.NoLevel && level < l.level
}

// withoutURLCredentials returns fields with the credentials of the URLs in
// a logged body masked: a presigned audio_url is the job's input, shown by
// plans unless it comes from a sensitive value, and Terraform cannot tell
// the provider which. The request URLs the client logs keep their query
// (listing filters).
func withoutURLCredentials(fields map[string]any) map[string]any {
	body, ok := fields[loggedBodyField].(string)
	if !ok {
		return fields
	}
	out := maps.Clone(fields)
	body = urlUserInfo.ReplaceAllString(body, "${1}***@")
	if fields[client.LoggedBodyCutField] == true {
		body = urlAuthorityCut.ReplaceAllString(body, "${1}***")
	}
	out[loggedBodyField] = urlQuery.ReplaceAllString(body, "${1}?***")
	return out
}

func (l tflogLogger) masked(ctx context.Context) context.Context {
	ctx = tflog.MaskAllFieldValuesRegexes(ctx, callbackURLMember)
	if len(l.secretForms) == 0 {
		return ctx
	}
	ctx = tflog.MaskAllFieldValuesStrings(ctx, l.secretForms...)
	return tflog.MaskMessageStrings(ctx, l.secretForms...)
}
