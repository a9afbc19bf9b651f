package provider

import (
	"context"
	"maps"

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
	out[loggedBodyField] = client.MaskURLCredentials(body, fields[client.LoggedBodyCutField] == true)
	return out
}

func (l tflogLogger) masked(ctx context.Context) context.Context {
	ctx = tflog.MaskAllFieldValuesRegexes(ctx, client.CallbackURLMember)
	if len(l.secretForms) == 0 {
		return ctx
	}
	ctx = tflog.MaskAllFieldValuesStrings(ctx, l.secretForms...)
	return tflog.MaskMessageStrings(ctx, l.secretForms...)
}
