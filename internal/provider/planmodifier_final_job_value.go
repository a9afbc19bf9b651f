package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/transcription-service/terraform-provider-transcription/internal/client"
)

var (
	_ planmodifier.String = finalJobValueModifier{}
	_ planmodifier.Int64  = finalJobValueModifier{}
	_ planmodifier.Bool   = finalJobValueModifier{}
	_ planmodifier.Object = finalJobValueModifier{}
)

// finalJobValueModifier plans a computed attribute that follows the job's
// life (status, result, ...) as its prior state value once the job is final
// (`done` or `error`): such a job never changes again. Before that the value
// stays unknown whenever the framework marks it so, because an update may
// see the job move on: planning it as known would break Terraform's
// "planned value = applied value" rule.
//
// dependsOn lists attributes that change how the value is rendered (such as
// include_raw_result): when one of them changes, the value is re-read and so
// stays unknown even for a final job.
type finalJobValueModifier struct {
	dependsOn []path.Path
}

// useStateWhenJobFinal returns the modifier; see finalJobValueModifier.
func useStateWhenJobFinal(dependsOn ...path.Path) finalJobValueModifier {
	return finalJobValueModifier{dependsOn: dependsOn}
}

func (m finalJobValueModifier) Description(_ context.Context) string {
	return "Once the job is final (done or error), the value does not change."
}

func (m finalJobValueModifier) MarkdownDescription(ctx context.Context) string {
	return m.Description(ctx)
}

// keep reports whether the prior state value is the planned value.
func (m finalJobValueModifier) keep(ctx context.Context, state tfsdk.State, plan tfsdk.Plan, planUnknown bool) bool {
	if !planUnknown || state.Raw.IsNull() {
		return false
	}
	var status types.String
	if diags := state.GetAttribute(ctx, pathStatus, &status); diags.HasError() || !client.IsFinal(status.ValueString()) {
		return false
	}
	for _, p := range m.dependsOn {
		var before, after types.Bool
		if state.GetAttribute(ctx, p, &before).HasError() || plan.GetAttribute(ctx, p, &after).HasError() || !before.Equal(after) {
			return false
		}
	}
	return true
}

func (m finalJobValueModifier) PlanModifyString(ctx context.Context, req planmodifier.StringRequest, resp *planmodifier.StringResponse) {
	if m.keep(ctx, req.State, req.Plan, req.PlanValue.IsUnknown()) {
		resp.PlanValue = req.StateValue
	}
}

func (m finalJobValueModifier) PlanModifyInt64(ctx context.Context, req planmodifier.Int64Request, resp *planmodifier.Int64Response) {
	if m.keep(ctx, req.State, req.Plan, req.PlanValue.IsUnknown()) {
		resp.PlanValue = req.StateValue
	}
}

func (m finalJobValueModifier) PlanModifyBool(ctx context.Context, req planmodifier.BoolRequest, resp *planmodifier.BoolResponse) {
	if m.keep(ctx, req.State, req.Plan, req.PlanValue.IsUnknown()) {
		resp.PlanValue = req.StateValue
	}
}

func (m finalJobValueModifier) PlanModifyObject(ctx context.Context, req planmodifier.ObjectRequest, resp *planmodifier.ObjectResponse) {
	if m.keep(ctx, req.State, req.Plan, req.PlanValue.IsUnknown()) {
		resp.PlanValue = req.StateValue
	}
}
