package provider

import (
	"context"

	actionschema "github.com/hashicorp/terraform-plugin-framework/action/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// validateActionAttributes runs the validators of attrs, found below parent
// in config, as the framework does for ValidateActionConfig. Terraform
// validates and plans an action only with the values known at plan time,
// and invokes it with the final ones unchecked: an action checks those
// itself with this, before any request. It knows the attribute kinds
// actionAttribute makes.
func validateActionAttributes(ctx context.Context, config tfsdk.Config, attrs map[string]actionschema.Attribute, parent path.Path, diags *diag.Diagnostics) {
	for name, a := range attrs {
		p := parent.AtName(name)
		switch a := a.(type) {
		case actionschema.StringAttribute:
			var v types.String
			if !getActionValue(ctx, config, p, &v, diags) {
				return
			}
			for _, vd := range a.Validators {
				resp := &validator.StringResponse{}
				vd.ValidateString(ctx, validator.StringRequest{Path: p, PathExpression: p.Expression(), Config: config, ConfigValue: v}, resp)
				diags.Append(resp.Diagnostics...)
			}
		case actionschema.BoolAttribute:
			var v types.Bool
			if !getActionValue(ctx, config, p, &v, diags) {
				return
			}
			for _, vd := range a.Validators {
				resp := &validator.BoolResponse{}
				vd.ValidateBool(ctx, validator.BoolRequest{Path: p, PathExpression: p.Expression(), Config: config, ConfigValue: v}, resp)
				diags.Append(resp.Diagnostics...)
			}
		case actionschema.Int64Attribute:
			var v types.Int64
			if !getActionValue(ctx, config, p, &v, diags) {
				return
			}
			for _, vd := range a.Validators {
				resp := &validator.Int64Response{}
				vd.ValidateInt64(ctx, validator.Int64Request{Path: p, PathExpression: p.Expression(), Config: config, ConfigValue: v}, resp)
				diags.Append(resp.Diagnostics...)
			}
		case actionschema.Float64Attribute:
			var v types.Float64
			if !getActionValue(ctx, config, p, &v, diags) {
				return
			}
			for _, vd := range a.Validators {
				resp := &validator.Float64Response{}
				vd.ValidateFloat64(ctx, validator.Float64Request{Path: p, PathExpression: p.Expression(), Config: config, ConfigValue: v}, resp)
				diags.Append(resp.Diagnostics...)
			}
		case actionschema.ListAttribute:
			var v types.List
			if !getActionValue(ctx, config, p, &v, diags) {
				return
			}
			validateActionList(ctx, config, p, v, a.Validators, diags)
		case actionschema.MapAttribute:
			var v types.Map
			if !getActionValue(ctx, config, p, &v, diags) {
				return
			}
			for _, vd := range a.Validators {
				resp := &validator.MapResponse{}
				vd.ValidateMap(ctx, validator.MapRequest{Path: p, PathExpression: p.Expression(), Config: config, ConfigValue: v}, resp)
				diags.Append(resp.Diagnostics...)
			}
		case actionschema.SingleNestedAttribute:
			var v types.Object
			if !getActionValue(ctx, config, p, &v, diags) {
				return
			}
			for _, vd := range a.Validators {
				resp := &validator.ObjectResponse{}
				vd.ValidateObject(ctx, validator.ObjectRequest{Path: p, PathExpression: p.Expression(), Config: config, ConfigValue: v}, resp)
				diags.Append(resp.Diagnostics...)
			}
			if !v.IsNull() && !v.IsUnknown() {
				validateActionAttributes(ctx, config, a.Attributes, p, diags)
			}
		case actionschema.ListNestedAttribute:
			var v types.List
			if !getActionValue(ctx, config, p, &v, diags) {
				return
			}
			validateActionList(ctx, config, p, v, a.Validators, diags)
			if !v.IsNull() && !v.IsUnknown() {
				for i := range v.Elements() {
					validateActionAttributes(ctx, config, a.NestedObject.Attributes, p.AtListIndex(i), diags)
				}
			}
		}
	}
}

func validateActionList(ctx context.Context, config tfsdk.Config, p path.Path, v types.List, validators []validator.List, diags *diag.Diagnostics) {
	for _, vd := range validators {
		resp := &validator.ListResponse{}
		vd.ValidateList(ctx, validator.ListRequest{Path: p, PathExpression: p.Expression(), Config: config, ConfigValue: v}, resp)
		diags.Append(resp.Diagnostics...)
	}
}

// getActionValue reads the value at p into target, reporting whether it could.
func getActionValue(ctx context.Context, config tfsdk.Config, p path.Path, target any, diags *diag.Diagnostics) bool {
	d := config.GetAttribute(ctx, p, target)
	diags.Append(d...)
	return !d.HasError()
}
