package planmodifiers

import (
	"context"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/transcription-service/terraform-provider-transcription/internal/frameworktest"
)

func TestUseStateWhenJobFinal(t *testing.T) {
	s := schema.Schema{Attributes: map[string]schema.Attribute{
		"status":             schema.StringAttribute{Computed: true},
		"completed_at":       schema.StringAttribute{Computed: true},
		"include_raw_result": schema.BoolAttribute{Optional: true},
		"retained":           schema.BoolAttribute{Computed: true},
	}}
	state := func(status string, raw bool) tfsdk.State {
		return tfsdk.State{Schema: s, Raw: frameworktest.Object(t, s.Type(), map[string]tftypes.Value{
			"status": frameworktest.String(status), "include_raw_result": frameworktest.Bool(raw), "completed_at": frameworktest.String("2024-05-01T12:00:00.000Z"),
		})}
	}
	// gone is a done job the service no longer has.
	gone := tfsdk.State{Schema: s, Raw: frameworktest.Object(t, s.Type(), map[string]tftypes.Value{
		"status": frameworktest.String("done"), "include_raw_result": frameworktest.Bool(false), "completed_at": frameworktest.String("2024-05-01T12:00:00.000Z"),
		"retained": frameworktest.Bool(false),
	})}
	// kept is a done job the service still has.
	kept := tfsdk.State{Schema: s, Raw: frameworktest.Object(t, s.Type(), map[string]tftypes.Value{
		"status": frameworktest.String("done"), "include_raw_result": frameworktest.Bool(false), "completed_at": frameworktest.String("2024-05-01T12:00:00.000Z"),
		"retained": frameworktest.Bool(true),
	})}
	// goneUnseen is a job last seen queued that the service no longer has
	// (it ended unseen), and goneUnread one never read (zero data
	// retention): nothing of either can be read again.
	goneWith := func(status tftypes.Value) tfsdk.State {
		return tfsdk.State{Schema: s, Raw: frameworktest.Object(t, s.Type(), map[string]tftypes.Value{
			"status": status, "include_raw_result": frameworktest.Bool(false), "completed_at": tftypes.NewValue(tftypes.String, nil),
			"retained": frameworktest.Bool(false),
		})}
	}
	goneUnseen, goneUnread := goneWith(frameworktest.String("queued")), goneWith(tftypes.NewValue(tftypes.String, nil))
	plan := func(raw bool) tfsdk.Plan {
		return tfsdk.Plan{Schema: s, Raw: frameworktest.Object(t, s.Type(), map[string]tftypes.Value{"include_raw_result": frameworktest.Bool(raw)})}
	}
	tests := map[string]struct {
		state    tfsdk.State
		plan     tfsdk.Plan
		planned  types.String
		wantKept bool
	}{
		"done":               {state: state("done", false), plan: plan(false), planned: types.StringUnknown(), wantKept: true},
		"error":              {state: state("error", false), plan: plan(false), planned: types.StringUnknown(), wantKept: true},
		"processing":         {state: state("processing", false), plan: plan(false), planned: types.StringUnknown()},
		"queued":             {state: state("queued", false), plan: plan(false), planned: types.StringUnknown()},
		"dependency changed": {state: state("done", false), plan: plan(true), planned: types.StringUnknown()},
		// Known only at apply, the dependency may change: the value may be
		// read again and so stays unknown.
		"dependency unknown": {state: state("done", false), plan: tfsdk.Plan{Schema: s, Raw: frameworktest.Object(t, s.Type(), map[string]tftypes.Value{"include_raw_result": tftypes.NewValue(tftypes.Bool, tftypes.UnknownValue)})}, planned: types.StringUnknown()},
		// Nothing can be read again.
		"dependency changed, job gone": {state: gone, plan: plan(true), planned: types.StringUnknown(), wantKept: true},
		// Gone, and the dependency not yet known: what it leaves out of the
		// value is not known either.
		"dependency unknown, job gone":     {state: gone, plan: tfsdk.Plan{Schema: s, Raw: frameworktest.Object(t, s.Type(), map[string]tftypes.Value{"include_raw_result": tftypes.NewValue(tftypes.Bool, tftypes.UnknownValue)})}, planned: types.StringUnknown()},
		"dependency changed, job retained": {state: kept, plan: plan(true), planned: types.StringUnknown()},
		"queued, job gone":                 {state: goneUnseen, plan: plan(false), planned: types.StringUnknown(), wantKept: true},
		"never read, job gone":             {state: goneUnread, plan: plan(true), planned: types.StringUnknown(), wantKept: true},
		"job retained":                     {state: kept, plan: plan(false), planned: types.StringUnknown(), wantKept: true},
		"creation":                         {state: tfsdk.State{Schema: s, Raw: tftypes.NewValue(s.Type().TerraformType(context.Background()), nil)}, plan: plan(false), planned: types.StringUnknown()},
		"planned value known":              {state: state("done", false), plan: plan(false), planned: types.StringValue("x")},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			var stateValue types.String
			if !tc.state.Raw.IsNull() {
				tc.state.GetAttribute(context.Background(), path.Root("completed_at"), &stateValue)
			}
			req := planmodifier.StringRequest{Path: path.Root("completed_at"), State: tc.state, Plan: tc.plan, PlanValue: tc.planned, StateValue: stateValue}
			resp := &planmodifier.StringResponse{PlanValue: tc.planned}
			UseStateWhenJobFinal(path.Root("include_raw_result")).PlanModifyString(context.Background(), req, resp)
			if kept := resp.PlanValue.Equal(stateValue) && !tc.planned.Equal(stateValue); kept != tc.wantKept {
				t.Errorf("planned %s, want kept = %t", resp.PlanValue, tc.wantKept)
			}
		})
	}
}

// Each kind of attribute the modifier serves keeps its prior value for a
// final job and stays unknown for a running one.
func TestUseStateWhenJobFinal_kinds(t *testing.T) {
	obj := types.ObjectType{AttrTypes: map[string]attr.Type{"n": types.Int64Type}}
	s := schema.Schema{Attributes: map[string]schema.Attribute{
		"status":   schema.StringAttribute{Computed: true},
		"count":    schema.Int64Attribute{Computed: true},
		"flag":     schema.BoolAttribute{Computed: true},
		"detail":   schema.ObjectAttribute{Computed: true, AttributeTypes: obj.AttrTypes},
		"retained": schema.BoolAttribute{Computed: true},
	}}
	ctx := context.Background()
	m := UseStateWhenJobFinal()
	for _, status := range []string{"done", "processing"} {
		st := tfsdk.State{Schema: s, Raw: frameworktest.Object(t, s.Type(), map[string]tftypes.Value{
			"status": frameworktest.String(status), "count": frameworktest.Number(7), "flag": frameworktest.Bool(true),
			"detail": frameworktest.Object(t, obj, map[string]tftypes.Value{"n": frameworktest.Number(3)}),
		})}
		pl := tfsdk.Plan{Schema: s, Raw: frameworktest.Object(t, s.Type(), nil)}
		wantKept := status == "done"
		t.Run(status, func(t *testing.T) {
			var count types.Int64
			var flag types.Bool
			var detail types.Object
			st.GetAttribute(ctx, path.Root("count"), &count)
			st.GetAttribute(ctx, path.Root("flag"), &flag)
			st.GetAttribute(ctx, path.Root("detail"), &detail)

			intResp := &planmodifier.Int64Response{PlanValue: types.Int64Unknown()}
			m.PlanModifyInt64(ctx, planmodifier.Int64Request{Path: path.Root("count"), State: st, Plan: pl, StateValue: count, PlanValue: types.Int64Unknown()}, intResp)
			boolResp := &planmodifier.BoolResponse{PlanValue: types.BoolUnknown()}
			m.PlanModifyBool(ctx, planmodifier.BoolRequest{Path: path.Root("flag"), State: st, Plan: pl, StateValue: flag, PlanValue: types.BoolUnknown()}, boolResp)
			objResp := &planmodifier.ObjectResponse{PlanValue: types.ObjectUnknown(obj.AttrTypes)}
			m.PlanModifyObject(ctx, planmodifier.ObjectRequest{Path: path.Root("detail"), State: st, Plan: pl, StateValue: detail, PlanValue: types.ObjectUnknown(obj.AttrTypes)}, objResp)

			// A value the plan knows is left as planned, even for a final job.
			known := types.ObjectValueMust(obj.AttrTypes, map[string]attr.Value{"n": types.Int64Value(4)})
			intKnown := &planmodifier.Int64Response{PlanValue: types.Int64Value(8)}
			m.PlanModifyInt64(ctx, planmodifier.Int64Request{Path: path.Root("count"), State: st, Plan: pl, StateValue: count, PlanValue: types.Int64Value(8)}, intKnown)
			boolKnown := &planmodifier.BoolResponse{PlanValue: types.BoolValue(false)}
			m.PlanModifyBool(ctx, planmodifier.BoolRequest{Path: path.Root("flag"), State: st, Plan: pl, StateValue: flag, PlanValue: types.BoolValue(false)}, boolKnown)
			objKnown := &planmodifier.ObjectResponse{PlanValue: known}
			m.PlanModifyObject(ctx, planmodifier.ObjectRequest{Path: path.Root("detail"), State: st, Plan: pl, StateValue: detail, PlanValue: known}, objKnown)
			if !intKnown.PlanValue.Equal(types.Int64Value(8)) || !boolKnown.PlanValue.Equal(types.BoolValue(false)) || !objKnown.PlanValue.Equal(known) {
				t.Errorf("known planned values changed: %s, %s, %s", intKnown.PlanValue, boolKnown.PlanValue, objKnown.PlanValue)
			}

			for name, got := range map[string]struct {
				planned, prior attr.Value
			}{"int64": {intResp.PlanValue, count}, "bool": {boolResp.PlanValue, flag}, "object": {objResp.PlanValue, detail}} {
				if kept := got.planned.Equal(got.prior); kept != wantKept {
					t.Errorf("%s: planned %s, want kept = %t", name, got.planned, wantKept)
				}
				if !wantKept && !got.planned.IsUnknown() {
					t.Errorf("%s: planned %s, want unknown", name, got.planned)
				}
			}
		})
	}
}

// A dependency the schema does not hold is the provider's mistake: it
// cannot be compared, so the value is not kept (it stays unknown, as for
// a dependency that changed) rather than read as unchanged.
func TestUseStateWhenJobFinal_unreadableDependency(t *testing.T) {
	s := schema.Schema{Attributes: map[string]schema.Attribute{
		"status":       schema.StringAttribute{Computed: true},
		"completed_at": schema.StringAttribute{Computed: true},
	}}
	st := tfsdk.State{Schema: s, Raw: frameworktest.Object(t, s.Type(), map[string]tftypes.Value{
		"status": frameworktest.String("done"), "completed_at": frameworktest.String("2024-05-01T12:00:00.000Z"),
	})}
	pl := tfsdk.Plan{Schema: s, Raw: frameworktest.Object(t, s.Type(), nil)}
	req := planmodifier.StringRequest{
		Path: path.Root("completed_at"), State: st, Plan: pl,
		PlanValue: types.StringUnknown(), StateValue: types.StringValue("2024-05-01T12:00:00.000Z"),
	}
	resp := &planmodifier.StringResponse{PlanValue: types.StringUnknown()}
	UseStateWhenJobFinal(path.Root("no_such_attribute")).PlanModifyString(context.Background(), req, resp)
	if !resp.PlanValue.IsUnknown() {
		t.Errorf("planned %s, want unknown: the dependency cannot be compared", resp.PlanValue)
	}
}
