package validators

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/schema/validator"

	"github.com/transcription-service/terraform-provider-transcription/internal/client"
)

var _ validator.String = baseURLValidator{}

// baseURLValidator requires a base address the client accepts
// (client.ParseBaseURL), so that terraform validate refuses what the
// provider's configuration would. Its messages never show the credentials
// a URL holds.
type baseURLValidator struct {
	// env is the environment variable read when the argument is left out,
	// which an empty string does not do.
	env string
}

// BaseURL returns a validator requiring a base URL the client accepts; env
// names the environment variable read when it is left out.
func BaseURL(env string) validator.String { return baseURLValidator{env: env} }

func (v baseURLValidator) Description(_ context.Context) string {
	return "value must be an absolute http or https URL without query, fragment or credentials"
}

func (v baseURLValidator) MarkdownDescription(ctx context.Context) string {
	return v.Description(ctx)
}

func (v baseURLValidator) ValidateString(ctx context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	if req.ConfigValue.ValueString() == "" {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid base URL", emptyArgumentDetail(req.Path, "the service's address", v.env))
		return
	}
	if _, err := client.ParseBaseURL(req.ConfigValue.ValueString()); err != nil {
		detail := fmt.Sprintf("Attribute %s %s: %s.", req.Path, v.Description(ctx), err)
		// Credentials in the URL are a secret, and so may a query or a
		// fragment be (?api_key=...): at the attribute, the CLI would print
		// its source line, with them. At the block, as for an API key, the
		// detail (without them) names the attribute. Any "@" may be one: a
		// URL with credentials that does not parse.
		if strings.ContainsAny(req.ConfigValue.ValueString(), "@?#") {
			resp.Diagnostics.AddError("Invalid base URL", detail)
			return
		}
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid base URL", detail)
	}
}
