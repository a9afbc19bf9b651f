package validators

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"
)

var _ validator.Bool = switchRequiresConfigValidator{}

// switchRequiresConfigValidator refuses a switch that is true while the
// sibling `*_config` object holding the feature's required fields is not
// set: the service would accept the job, bill it, and return an empty add-on
// result (translation without target languages, audio-to-LLM without
// prompts, custom vocabulary without vocabulary, custom spelling without a
// dictionary).
type switchRequiresConfigValidator struct {
	configName string
	needs      string // what the configuration must hold, for the message
	// entries refuses needs empty too; for a field whose schema sets no
	// minimum size of its own (which would report it a second time).
	entries bool
}

// SwitchRequiresConfig returns a validator for a switch whose feature needs
// the sibling configuration object configName, which must hold needs.
func SwitchRequiresConfig(configName, needs string) validator.Bool {
	return switchRequiresConfigValidator{configName: configName, needs: needs}
}

// SwitchRequiresEntries is SwitchRequiresConfig where needs must not be
// empty either: an empty list, or a map whose lists are all empty, asks
// the feature for nothing, as leaving the configuration out does.
func SwitchRequiresEntries(configName, needs string) validator.Bool {
	return switchRequiresConfigValidator{configName: configName, needs: needs, entries: true}
}

func (v switchRequiresConfigValidator) Description(_ context.Context) string {
	return fmt.Sprintf("when true, %s must be set", v.configName)
}

func (v switchRequiresConfigValidator) MarkdownDescription(_ context.Context) string {
	return fmt.Sprintf("when `true`, `%s` must be set", v.configName)
}

func (v switchRequiresConfigValidator) ValidateBool(ctx context.Context, req validator.BoolRequest, resp *validator.BoolResponse) {
	if !req.ConfigValue.ValueBool() { // false, null or unknown
		return
	}
	configPath := req.Path.ParentPath().AtName(v.configName)
	var config types.Object
	if diags := req.Config.GetAttribute(ctx, configPath, &config); diags.HasError() {
		resp.Diagnostics.Append(diags...)
		return
	}
	if config.IsUnknown() {
		return // known only later
	}
	if config.IsNull() {
		resp.Diagnostics.AddAttributeError(req.Path, fmt.Sprintf("%s = true needs %s", req.Path, configPath),
			fmt.Sprintf("The service needs %s in %s to run this feature; without it the job would be billed and the feature's result empty. "+
				"Set %s = { ... }, or remove %s.", v.needs, configPath, configPath, req.Path))
		return
	}
	if !v.entries {
		return
	}
	// Empty, the required field asks the feature for nothing, as leaving
	// the configuration out does: an empty list, or a map whose lists are
	// all empty (a spelling key with no spelling to replace).
	neededPath := configPath.AtName(v.needs)
	var needed attr.Value
	if diags := req.Config.GetAttribute(ctx, neededPath, &needed); diags.HasError() {
		resp.Diagnostics.Append(diags...)
		return
	}
	if asksForNothing(needed) {
		resp.Diagnostics.AddAttributeError(req.Path, fmt.Sprintf("%s = true needs entries in %s", req.Path, neededPath),
			fmt.Sprintf("%s asks the feature for nothing, as leaving it out does: the job would be billed and the feature's result empty. "+
				"Give %s what the feature should use, or remove %s.", neededPath, neededPath, req.Path))
	}
}

// asksForNothing reports whether a known list or map holds no element, or
// only empty lists.
func asksForNothing(v attr.Value) bool {
	if v == nil || v.IsNull() || v.IsUnknown() {
		return false // a required field left out or unknown has its own check
	}
	switch c := v.(type) {
	case basetypes.ListValue:
		return len(c.Elements()) == 0
	case basetypes.MapValue:
		for _, e := range c.Elements() {
			if !asksForNothing(e) {
				return false
			}
		}
		return true
	default:
		return false
	}
}
