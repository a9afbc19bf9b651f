package validators

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/schema/validator"

	"github.com/transcription-service/terraform-provider-transcription/internal/client"
)

var _ validator.String = apiKeyValidator{}

// apiKeyValidator requires an API key the client can send
// (client.CheckAPIKey). Its messages never show the key, nor point at
// its line.
type apiKeyValidator struct{}

// APIKey returns a validator requiring an API key the client can send.
func APIKey() validator.String { return apiKeyValidator{} }

func (v apiKeyValidator) Description(_ context.Context) string {
	return "value must be sendable in an HTTP header: no white space around it, no control character in it"
}

func (v apiKeyValidator) MarkdownDescription(ctx context.Context) string {
	return v.Description(ctx)
}

func (v apiKeyValidator) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	if err := client.CheckAPIKey(req.ConfigValue.ValueString()); err != nil {
		// Not at the attribute, whose line the CLI would print (see
		// SensitiveAbsoluteHTTPURL).
		resp.Diagnostics.AddError("Invalid API key", fmt.Sprintf("Attribute %s: %s (value not shown: the attribute is sensitive).", req.Path, err))
	}
}
