package provider

import (
	"context"
	"fmt"

	actionschema "github.com/hashicorp/terraform-plugin-framework/action/schema"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"

	"github.com/transcription-service/terraform-provider-transcription/internal/validators"
)

// validateActionAttributes runs the validators of attrs, found below parent
// in config, and refuses a required one that is null, as the framework does
// for ValidateActionConfig. Terraform
// validates and plans an action only with the values known at plan time,
// and invokes it with the final ones unchecked: an action checks those
// itself with this, before any request. It knows the attribute kinds
// actionAttribute makes.
func validateActionAttributes(ctx context.Context, config tfsdk.Config, attrs map[string]actionschema.Attribute, parent path.Path, diags *diag.Diagnostics) {
	for name, a := range attrs {
		p := parent.AtName(name)
		if a.IsRequired() {
			requireValue(ctx, config, p, diags)
		}
		switch a := a.(type) {
		case actionschema.StringAttribute:
			runValidators(ctx, config, p, a.Validators, diags, func(vd validator.String, v types.String) diag.Diagnostics {
				var resp validator.StringResponse
				vd.ValidateString(ctx, validator.StringRequest{Path: p, PathExpression: p.Expression(), Config: config, ConfigValue: v}, &resp)
				return resp.Diagnostics
			})
		case actionschema.BoolAttribute:
			runValidators(ctx, config, p, a.Validators, diags, func(vd validator.Bool, v types.Bool) diag.Diagnostics {
				var resp validator.BoolResponse
				vd.ValidateBool(ctx, validator.BoolRequest{Path: p, PathExpression: p.Expression(), Config: config, ConfigValue: v}, &resp)
				return resp.Diagnostics
			})
		case actionschema.Int64Attribute:
			runValidators(ctx, config, p, a.Validators, diags, func(vd validator.Int64, v types.Int64) diag.Diagnostics {
				var resp validator.Int64Response
				vd.ValidateInt64(ctx, validator.Int64Request{Path: p, PathExpression: p.Expression(), Config: config, ConfigValue: v}, &resp)
				return resp.Diagnostics
			})
		case actionschema.Float64Attribute:
			runValidators(ctx, config, p, a.Validators, diags, func(vd validator.Float64, v types.Float64) diag.Diagnostics {
				var resp validator.Float64Response
				vd.ValidateFloat64(ctx, validator.Float64Request{Path: p, PathExpression: p.Expression(), Config: config, ConfigValue: v}, &resp)
				return resp.Diagnostics
			})
		case actionschema.MapAttribute:
			runValidators(ctx, config, p, a.Validators, diags, func(vd validator.Map, v types.Map) diag.Diagnostics {
				var resp validator.MapResponse
				vd.ValidateMap(ctx, validator.MapRequest{Path: p, PathExpression: p.Expression(), Config: config, ConfigValue: v}, &resp)
				return resp.Diagnostics
			})
		case actionschema.ListAttribute:
			runValidators(ctx, config, p, a.Validators, diags, listCheck(ctx, config, p))
		case actionschema.ListNestedAttribute:
			v, ok := runValidators(ctx, config, p, a.Validators, diags, listCheck(ctx, config, p))
			if ok && !v.IsNull() && !v.IsUnknown() {
				for i := range v.Elements() {
					ep := p.AtListIndex(i)
					runValidators(ctx, config, ep, a.NestedObject.Validators, diags, func(vd validator.Object, v types.Object) diag.Diagnostics {
						var resp validator.ObjectResponse
						vd.ValidateObject(ctx, validator.ObjectRequest{Path: ep, PathExpression: ep.Expression(), Config: config, ConfigValue: v}, &resp)
						return resp.Diagnostics
					})
					validateActionAttributes(ctx, config, a.NestedObject.Attributes, ep, diags)
				}
			}
		case actionschema.SingleNestedAttribute:
			v, ok := runValidators(ctx, config, p, a.Validators, diags, func(vd validator.Object, v types.Object) diag.Diagnostics {
				var resp validator.ObjectResponse
				vd.ValidateObject(ctx, validator.ObjectRequest{Path: p, PathExpression: p.Expression(), Config: config, ConfigValue: v}, &resp)
				return resp.Diagnostics
			})
			if ok && !v.IsNull() && !v.IsUnknown() {
				validateActionAttributes(ctx, config, a.Attributes, p, diags)
			}
		}
	}
}

// requireValue refuses a null value at p, with the framework's words: a
// required argument known only at apply may turn out null there.
func requireValue(ctx context.Context, config tfsdk.Config, p path.Path, diags *diag.Diagnostics) {
	var v attr.Value
	d := config.GetAttribute(ctx, p, &v)
	diags.Append(d...)
	if d.HasError() || v == nil || !v.IsNull() {
		return
	}
	validators.AddMissingRequired(diags, p)
}

// listCheck runs a list validator, for list and list-nested attributes.
func listCheck(ctx context.Context, config tfsdk.Config, p path.Path) func(validator.List, types.List) diag.Diagnostics {
	return func(vd validator.List, v types.List) diag.Diagnostics {
		var resp validator.ListResponse
		vd.ValidateList(ctx, validator.ListRequest{Path: p, PathExpression: p.Expression(), Config: config, ConfigValue: v}, &resp)
		return resp.Diagnostics
	}
}

// runValidators reads the value at p and runs check with each of
// validators on it, returning the value and whether it could be read. A
// custom type's value is handed to the validators as its base type V, as
// the framework does.
func runValidators[V attr.Value, T any](ctx context.Context, config tfsdk.Config, p path.Path, validators []T, diags *diag.Diagnostics, check func(T, V) diag.Diagnostics) (V, bool) {
	var v V
	var value attr.Value
	d := config.GetAttribute(ctx, p, &value)
	if !d.HasError() {
		v, d = baseValue[V](ctx, p, value)
	}
	diags.Append(d...)
	if d.HasError() {
		return v, false
	}
	for _, vd := range validators {
		diags.Append(check(vd, v)...)
	}
	return v, true
}

// baseValue is value as the framework's base type V: itself, or what its
// custom type converts it to (the action's custom types are numbers and
// the timeouts package's object).
func baseValue[V attr.Value](ctx context.Context, p path.Path, value attr.Value) (V, diag.Diagnostics) {
	if v, ok := value.(V); ok {
		return v, nil
	}
	var base attr.Value
	var diags diag.Diagnostics
	switch n := value.(type) {
	case basetypes.Int64Valuable:
		base, diags = n.ToInt64Value(ctx)
	case basetypes.Float64Valuable:
		base, diags = n.ToFloat64Value(ctx)
	case basetypes.ObjectValuable:
		base, diags = n.ToObjectValue(ctx)
	}
	v, ok := base.(V)
	if !ok && !diags.HasError() {
		diags.AddAttributeError(p, "Unexpected Value Type", fmt.Sprintf("The action cannot check a value of type %T as %T. This is a bug in the provider.", value, v))
	}
	return v, diags
}
