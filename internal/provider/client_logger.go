package provider

import (
	"context"
	"regexp"

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
	secret string
}

// callbackURLMember matches a callback URL member of the service's JSON
// (callback_url, or callback_config's url) with its string value, whole or
// cut short where a logged body ends.
var callbackURLMember = regexp.MustCompile(`"(?:callback_url|url)"\s*:\s*"(?:[^"\\]|\\.)*"?`)

func (l tflogLogger) Debug(ctx context.Context, msg string, fields map[string]any) {
	tflog.Debug(l.masked(ctx), msg, fields)
}

func (l tflogLogger) Trace(ctx context.Context, msg string, fields map[string]any) {
	tflog.Trace(l.masked(ctx), msg, fields)
}

func (l tflogLogger) masked(ctx context.Context) context.Context {
	ctx = tflog.MaskAllFieldValuesRegexes(ctx, callbackURLMember)
	if l.secret == "" {
		return ctx
	}
	ctx = tflog.MaskAllFieldValuesStrings(ctx, l.secret)
	return tflog.MaskMessageStrings(ctx, l.secret)
}
