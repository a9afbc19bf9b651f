package planmodifiers

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

var _ planmodifier.String = NullWhenSwitchOffModifier{}

// NullWhenSwitchOffModifier plans a computed string null when the boolean
// attribute that decides whether state keeps it (such as
// include_raw_result for result_json) is planned known and false: it will
// be null after the apply whatever the service answers, so the plan shows
// it as such rather than "(known after apply)", on creation and on an
// update of a job still running alike. A switch not yet known leaves the
// value to the modifiers after this one.
type NullWhenSwitchOffModifier struct {
	switchPath path.Path
}

// NullWhenSwitchOff returns the modifier; see NullWhenSwitchOffModifier.
func NullWhenSwitchOff(switchPath path.Path) NullWhenSwitchOffModifier {
	return NullWhenSwitchOffModifier{switchPath: switchPath}
}

func (m NullWhenSwitchOffModifier) Description(_ context.Context) string {
	return fmt.Sprintf("Null when %s is false.", m.switchPath)
}

func (m NullWhenSwitchOffModifier) MarkdownDescription(ctx context.Context) string {
	return m.Description(ctx)
}

func (m NullWhenSwitchOffModifier) PlanModifyString(ctx context.Context, req planmodifier.StringRequest, resp *planmodifier.StringResponse) {
	if req.Plan.Raw.IsNull() || !req.PlanValue.IsUnknown() {
		return
	}
	var on types.Bool
	if req.Plan.GetAttribute(ctx, m.switchPath, &on).HasError() || on.IsUnknown() || on.IsNull() || on.ValueBool() {
		return
	}
	resp.PlanValue = types.StringNull()
}
