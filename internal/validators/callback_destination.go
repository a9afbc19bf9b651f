package validators

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

var _ validator.Bool = callbackDestinationValidator{}

// callbackDestinationValidator requires `callback = true` to come with
// somewhere to deliver the result: callback_config (whose url is required)
// or the deprecated callback_url. The service rejects the request otherwise.
type callbackDestinationValidator struct{}

// CallbackDestination returns the validator for the `callback` attribute.
func CallbackDestination() validator.Bool { return callbackDestinationValidator{} }

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
	var config types.Object
	var url types.String
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("callback_config"), &config)...)
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("callback_url"), &url)...)
	if resp.Diagnostics.HasError() || config.IsUnknown() || url.IsUnknown() {
		return
	}
	if config.IsNull() && url.IsNull() {
		AddCallbackWithoutDestination(&resp.Diagnostics, req.Path)
	}
}

// AddCallbackWithoutDestination adds the error of `callback = true` with
// nowhere to deliver the result, at the callback attribute's path. The
// transcription_job resource checks its plan with it instead of using the
// validator: there, a callback_url left out of the configuration keeps the
// job's, which only the plan knows.
func AddCallbackWithoutDestination(diags *diag.Diagnostics, p path.Path) {
	diags.AddAttributeError(p, "Callback without a destination",
		"Attribute callback is true, but there is nowhere to deliver the result: set callback_config = { url = \"https://...\" } "+
			"(or the deprecated callback_url). The service rejects a callback without a URL.")
}
