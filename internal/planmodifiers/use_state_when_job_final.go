// Package planmodifiers holds the plan modifiers of the provider's schemas.
package planmodifiers

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/transcription-service/terraform-provider-transcription/internal/client"
)

var (
	_ planmodifier.String = FinalJobValueModifier{}
	_ planmodifier.Int64  = FinalJobValueModifier{}
	_ planmodifier.Bool   = FinalJobValueModifier{}
	_ planmodifier.Object = FinalJobValueModifier{}
)

// FinalJobValueModifier plans a computed attribute that follows a job's
// life (status, result, ...) as its prior state value once the job, whose
// status is the resource's `status` attribute, is final
// (`done` or `error`): such a job never changes again; so does it for a job
// the service no longer has (`retained` false), whatever its status when
// last seen: nothing of it can be read again. Before that the value
// stays unknown whenever the framework marks it so, because an update may
// see the job move on: planning it as known would break Terraform's
// "planned value = applied value" rule.
//
// dependsOn lists attributes that change how the value is rendered (such as
// include_raw_result): when one of them changes, the value is re-read and so
// stays unknown even for a final job, unless the service no longer has the
// job (the resource's `retained` is false): nothing can be read then, and
// the value stays as it is, or loses what the new setting leaves out, which
// the resource plans itself. One of them not yet known leaves the value
// unknown even then: what it will leave out is not known either.
type FinalJobValueModifier struct {
	dependsOn []path.Path
}

// UseStateWhenJobFinal returns the modifier; see FinalJobValueModifier.
func UseStateWhenJobFinal(dependsOn ...path.Path) FinalJobValueModifier {
	return FinalJobValueModifier{dependsOn: dependsOn}
}

func (m FinalJobValueModifier) Description(_ context.Context) string {
	return "Once the job is final (done or error), the value does not change."
}

func (m FinalJobValueModifier) MarkdownDescription(ctx context.Context) string {
	return m.Description(ctx)
}

// keep reports whether the prior state value is the planned value.
func (m FinalJobValueModifier) keep(ctx context.Context, state tfsdk.State, plan tfsdk.Plan, planUnknown bool) bool {
	if !planUnknown || state.Raw.IsNull() {
		return false
	}
	var retained types.Bool
	// Gone from the service (or never readable, under zero data retention):
	// nothing is read again, whatever the status last seen.
	gone := !state.GetAttribute(ctx, path.Root("retained"), &retained).HasError() && !retained.IsNull() && !retained.ValueBool()
	var status types.String
	if diags := state.GetAttribute(ctx, path.Root("status"), &status); diags.HasError() || !gone && !client.IsFinal(status.ValueString()) {
		return false
	}
	for _, p := range m.dependsOn {
		var before, after types.Bool
		if state.GetAttribute(ctx, p, &before).HasError() || plan.GetAttribute(ctx, p, &after).HasError() || after.IsUnknown() || !gone && !before.Equal(after) {
			return false
		}
	}
	return true
}

func (m FinalJobValueModifier) PlanModifyString(ctx context.Context, req planmodifier.StringRequest, resp *planmodifier.StringResponse) {
	if m.keep(ctx, req.State, req.Plan, req.PlanValue.IsUnknown()) {
		resp.PlanValue = req.StateValue
	}
}

func (m FinalJobValueModifier) PlanModifyInt64(ctx context.Context, req planmodifier.Int64Request, resp *planmodifier.Int64Response) {
	if m.keep(ctx, req.State, req.Plan, req.PlanValue.IsUnknown()) {
		resp.PlanValue = req.StateValue
	}
}

func (m FinalJobValueModifier) PlanModifyBool(ctx context.Context, req planmodifier.BoolRequest, resp *planmodifier.BoolResponse) {
	if m.keep(ctx, req.State, req.Plan, req.PlanValue.IsUnknown()) {
		resp.PlanValue = req.StateValue
	}
}

func (m FinalJobValueModifier) PlanModifyObject(ctx context.Context, req planmodifier.ObjectRequest, resp *planmodifier.ObjectResponse) {
	if m.keep(ctx, req.State, req.Plan, req.PlanValue.IsUnknown()) {
		resp.PlanValue = req.StateValue
	}
}
