package provider

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/transcription-service/terraform-provider-transcription/internal/client"
)

func TestAddAPIError(t *testing.T) {
	for name, c := range map[string]struct {
		err  error
		want []string
	}{
		"api error": {
			err: fmt.Errorf("wrapped: %w", &client.APIError{Op: "POST /v2/pre-recorded", StatusCode: 400, Message: "invalid body", RequestID: "req-42",
				ValidationErrors: []string{"model must be one of model-1, model-3", "audio_url is required"}}),
			want: []string{"POST /v2/pre-recorded", "status 400 (Bad Request): invalid body.", "  - model must be one of model-1, model-3", "  - audio_url is required", "request_id: req-42"},
		},
		"unauthorized": {
			err:  &client.APIError{Op: "GET /v2/live", StatusCode: 401, Message: "bad key", RequestID: "r"},
			want: []string{"status 401", "bad key", "api_key", EnvAPIKey, "request_id: r"},
		},
		"server error": {
			err:  &client.APIError{Op: "GET /v2/live", StatusCode: 503},
			want: []string{"status 503 (Service Unavailable).", "try again later"},
		},
		"transport": {
			err:  &client.TransportError{Op: "GET /v2/live", Err: errors.New("connection refused")},
			want: []string{"cannot reach the transcription service: connection refused", "Check base_url"},
		},
		"decode": {
			err:  &client.DecodeError{Op: "GET /v2/live", Reason: "invalid JSON"},
			want: []string{"unexpected response", "invalid JSON", "base_url"},
		},
		"cancelled": {
			err:  context.Canceled,
			want: []string{"interrupted", "context canceled"},
		},
	} {
		t.Run(name, func(t *testing.T) {
			var diags diag.Diagnostics
			addAPIError(&diags, "Cannot do it", c.err)
			if diags.ErrorsCount() != 1 || diags.Errors()[0].Summary() != "Cannot do it" {
				t.Fatalf("got %v", diags)
			}
			detail := diags.Errors()[0].Detail()
			for _, w := range c.want {
				if !strings.Contains(detail, w) {
					t.Errorf("detail %q lacks %q", detail, w)
				}
			}
			if name == "server error" && strings.Contains(detail, "request_id") {
				t.Errorf("no request_id was given, detail %q mentions one", detail)
			}
		})
	}
}
