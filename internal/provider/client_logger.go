package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/transcription-service/terraform-provider-transcription/internal/client"
)

var _ client.Logger = tflogLogger{}

// tflogLogger writes the API client's log lines with terraform-plugin-log,
// so they follow TF_LOG, with the API key masked wherever it might appear
// (the client never logs it; this holds even if a message ever did).
type tflogLogger struct {
	secret string
}

func (l tflogLogger) Debug(ctx context.Context, msg string, fields map[string]any) {
	tflog.Debug(l.masked(ctx), msg, fields)
}

func (l tflogLogger) Trace(ctx context.Context, msg string, fields map[string]any) {
	tflog.Trace(l.masked(ctx), msg, fields)
}

func (l tflogLogger) masked(ctx context.Context) context.Context {
	if l.secret == "" {
		return ctx
	}
	ctx = tflog.MaskAllFieldValuesStrings(ctx, l.secret)
	return tflog.MaskMessageStrings(ctx, l.secret)
}
