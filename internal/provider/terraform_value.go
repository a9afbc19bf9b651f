package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// terraformValue converts v, a value of Terraform type t, to its Terraform
// value. v.ToTerraformValue computes the Terraform type of every object and
// list afresh from its framework type; this takes the types from t, computed
// once by the caller, which for a listing of thousands of items was the
// largest allocation of the read. Objects, lists and maps are walked; other
// values convert themselves and must come out of type t.
func terraformValue(ctx context.Context, t tftypes.Type, v attr.Value) (tftypes.Value, error) {
	if v == nil {
		return tftypes.Value{}, fmt.Errorf("no value of type %s", t)
	}
	if v.IsNull() {
		return tftypes.NewValue(t, nil), nil
	}
	if v.IsUnknown() {
		return tftypes.NewValue(t, tftypes.UnknownValue), nil
	}
	switch t := t.(type) {
	case tftypes.Object:
		o, ok := v.(basetypes.ObjectValue)
		if !ok {
			return tftypes.Value{}, fmt.Errorf("%T is not an object value", v)
		}
		attrs := o.Attributes()
		if len(attrs) != len(t.AttributeTypes) {
			return tftypes.Value{}, fmt.Errorf("object has %d attributes, its type %d", len(attrs), len(t.AttributeTypes))
		}
		out := make(map[string]tftypes.Value, len(attrs))
		for name, at := range t.AttributeTypes {
			a, ok := attrs[name]
			if !ok {
				return tftypes.Value{}, fmt.Errorf("object lacks attribute %q", name)
			}
			tv, err := terraformValue(ctx, at, a)
			if err != nil {
				return tftypes.Value{}, fmt.Errorf("attribute %q: %w", name, err)
			}
			out[name] = tv
		}
		return tftypes.NewValue(t, out), nil
	case tftypes.List:
		l, ok := v.(basetypes.ListValue)
		if !ok {
			return tftypes.Value{}, fmt.Errorf("%T is not a list value", v)
		}
		return terraformList(ctx, t, l.Elements())
	case tftypes.Map:
		m, ok := v.(basetypes.MapValue)
		if !ok {
			return tftypes.Value{}, fmt.Errorf("%T is not a map value", v)
		}
		elems := m.Elements()
		out := make(map[string]tftypes.Value, len(elems))
		for k, e := range elems {
			tv, err := terraformValue(ctx, t.ElementType, e)
			if err != nil {
				return tftypes.Value{}, fmt.Errorf("element %q: %w", k, err)
			}
			out[k] = tv
		}
		return tftypes.NewValue(t, out), nil
	}
	tv, err := v.ToTerraformValue(ctx)
	if err != nil {
		return tftypes.Value{}, err
	}
	if !tv.Type().Equal(t) {
		return tftypes.Value{}, fmt.Errorf("value of type %s, want %s", tv.Type(), t)
	}
	return tv, nil
}

// terraformList converts elems to a Terraform list of type t (see
// terraformValue).
func terraformList(ctx context.Context, t tftypes.List, elems []attr.Value) (tftypes.Value, error) {
	out := make([]tftypes.Value, len(elems))
	for i, e := range elems {
		tv, err := terraformValue(ctx, t.ElementType, e)
		if err != nil {
			return tftypes.Value{}, fmt.Errorf("element %d: %w", i, err)
		}
		out[i] = tv
	}
	return tftypes.NewValue(t, out), nil
}
