package validators

import (
	"context"
	"errors"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"

	"github.com/transcription-service/terraform-provider-transcription/internal/client"
)

var _ validator.String = apiKeyValidator{}

// apiKeyValidator requires an API key the client can send
// (client.CheckAPIKey), and not an empty one. Its messages never show the
// key, nor point at its line.
type apiKeyValidator struct {
	// env is the environment variable read when the argument is left out,
	// which an empty string does not do.
	env string
}

// APIKey returns a validator requiring a non-empty API key the client can
// send; env names the environment variable read when it is left out.
func APIKey(env string) validator.String { return apiKeyValidator{env: env} }

func (v apiKeyValidator) Description(_ context.Context) string {
	return "value must not be empty, and must be sendable in an HTTP header, as API keys are: no white space around it, no control character and no character outside ASCII in it"
}

func (v apiKeyValidator) MarkdownDescription(ctx context.Context) string {
	return v.Description(ctx)
}

func (v apiKeyValidator) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	if req.ConfigValue.ValueString() == "" {
		// Not at the attribute either: its line may hold a key all the same
		// (a conditional choosing "").
		resp.Diagnostics.AddError("Invalid API key", emptyArgumentDetail(req.Path, "an API key", v.env))
		return
	}
	if err := client.CheckAPIKey(req.ConfigValue.ValueString()); err != nil {
		hint := ""
		if errors.Is(err, client.ErrAPIKeyWhiteSpace) {
			hint = ", for example with trimspace()"
		}
		// Not at the attribute, whose line the CLI would print (see
		// SensitiveAbsoluteHTTPURL).
		resp.Diagnostics.AddError("Invalid API key", fmt.Sprintf("Attribute %s: %s%s (value not shown: the attribute is sensitive).", req.Path, err, hint))
	}
}

// emptyArgumentDetail says that an argument the environment variable env
// stands in for is set to "": the variable is not read then.
func emptyArgumentDetail(p path.Path, what, env string) string {
	return fmt.Sprintf("Attribute %s: it is set to an empty string (a variable's default of \"\", say), and %s cannot be empty. "+
		"%s is read only when %s is left out or null.", p, what, env, p)
}
