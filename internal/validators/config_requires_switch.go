package validators

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

var _ validator.Object = configRequiresSwitchValidator{}

// configRequiresSwitchValidator warns when a `*_config` object is set while
// its switch (the sibling boolean that enables the feature) is not true: the
// service then ignores the object (rule 4 of the creation endpoint), which is
// almost always a mistake, but not an error the service reports.
type configRequiresSwitchValidator struct {
	switchName string
}

// ConfigRequiresSwitch returns a validator for a `*_config` object whose
// feature is enabled by the sibling boolean switchName.
func ConfigRequiresSwitch(switchName string) validator.Object {
	return configRequiresSwitchValidator{switchName: switchName}
}

func (v configRequiresSwitchValidator) Description(_ context.Context) string {
	return fmt.Sprintf("used only when %s is true", v.switchName)
}

func (v configRequiresSwitchValidator) MarkdownDescription(_ context.Context) string {
	return fmt.Sprintf("used only when `%s` is `true`", v.switchName)
}

func (v configRequiresSwitchValidator) ValidateObject(ctx context.Context, req validator.ObjectRequest, resp *validator.ObjectResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	switchPath := req.Path.ParentPath().AtName(v.switchName)
	var enabled types.Bool
	if diags := req.Config.GetAttribute(ctx, switchPath, &enabled); diags.HasError() {
		resp.Diagnostics.Append(diags...)
		return
	}
	if enabled.IsUnknown() || enabled.ValueBool() {
		return
	}
	// At the switch, the value to change: the CLI prints the source lines of
	// the attribute a diagnostic names, and the object's may hold a secret
	// written literally (callback_config.url).
	resp.Diagnostics.AddAttributeWarning(switchPath, fmt.Sprintf("%s is ignored unless %s is true", req.Path, switchPath),
		fmt.Sprintf("The service uses %s only when %s = true, and %s is not set to true in this configuration, so %s has no effect. "+
			"Set %s = true to use it, or remove %s.", req.Path, switchPath, switchPath, req.Path, switchPath, req.Path))
}
