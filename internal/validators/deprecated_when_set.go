package validators

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
)

var _ validator.String = deprecatedWhenSetValidator{}

// deprecatedWhenSetValidator warns, with the framework's "Attribute
// Deprecated" summary, when the attribute is set, pointing at its block.
// It stands in for a schema's DeprecationMessage on an attribute that is
// also computed:
// OpenTofu 1.12 warns of every value derived from an attribute the schema
// marks deprecated, so a reference to the whole resource (for_each over
// it, an output of it) would be warned although the attribute was never set.
type deprecatedWhenSetValidator struct {
	message string
}

// DeprecatedWhenSet warns with message when the attribute is set.
func DeprecatedWhenSet(message string) validator.String {
	return deprecatedWhenSetValidator{message: message}
}

func (v deprecatedWhenSetValidator) Description(context.Context) string {
	return "deprecated: " + v.message
}

func (v deprecatedWhenSetValidator) MarkdownDescription(ctx context.Context) string {
	return v.Description(ctx)
}

func (v deprecatedWhenSetValidator) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	// As the framework does for a DeprecationMessage: known values only,
	// so a value known later is warned of once, when it is.
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	// Not at the attribute: the CLI would print its line on every run, a
	// literal value and all, and the one attribute this serves holds a
	// secret (callback_url). The message names it; the CLI shows its block.
	resp.Diagnostics.AddWarning("Attribute Deprecated", v.message)
}
