package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

var _ validator.Bool = callbackDestinationValidator{}

// callbackDestinationValidator requires `callback = true` to come with
// somewhere to deliver the result: callback_config (whose url is required)
// or the deprecated callback_url. The service rejects the request otherwise.
type callbackDestinationValidator struct{}

// callbackDestination returns the validator for the `callback` attribute.
func callbackDestination() callbackDestinationValidator { return callbackDestinationValidator{} }

func (v callbackDestinationValidator) Description(_ context.Context) string {
	return "when true, callback_config or callback_url must be set"
}

func (v callbackDestinationValidator) MarkdownDescription(_ context.Context) string {
	return "when `true`, `callback_config` or `callback_url` must be set"
}

func (v callbackDestinationValidator) ValidateBool(ctx context.Context, req validator.BoolRequest, resp *validator.BoolResponse) {
	if req.ConfigValue.IsUnknown() || !req.ConfigValue.ValueBool() {
		return
	}
	dest, diags := readCallbackTargets(ctx, req.Config)
	resp.Diagnostics.Append(diags...)
	if diags.HasError() || dest.config.IsUnknown() || dest.url.IsUnknown() {
		return
	}
	if dest.config.IsNull() && dest.url.IsNull() {
		resp.Diagnostics.AddAttributeError(req.Path, "Callback without a destination",
			"Attribute callback is true, but there is nowhere to deliver the result: set callback_config = { url = \"https://...\" } "+
				"(or the deprecated callback_url). The service rejects a callback without a URL.")
	}
}

// callbackTargets are the attributes that say where results are sent.
type callbackTargets struct {
	callback types.Bool
	config   types.Object
	url      types.String
}

func readCallbackTargets(ctx context.Context, config tfsdk.Config) (callbackTargets, diag.Diagnostics) {
	var t callbackTargets
	var diags diag.Diagnostics
	diags.Append(config.GetAttribute(ctx, path.Root("callback"), &t.callback)...)
	diags.Append(config.GetAttribute(ctx, path.Root("callback_config"), &t.config)...)
	diags.Append(config.GetAttribute(ctx, path.Root("callback_url"), &t.url)...)
	return t, diags
}

// delivers reports whether the service will send the result somewhere, as
// it decides: callback_config when callback is true, else callback_url.
// known is false while an unknown value leaves it open.
func (t callbackTargets) delivers() (delivers, known bool) {
	if t.callback.IsUnknown() || t.config.IsUnknown() || t.url.IsUnknown() {
		return false, false
	}
	return (t.callback.ValueBool() && !t.config.IsNull()) || !t.url.IsNull(), true
}
