package provider

// The data sources and the action declare what transcription_job declares
// (its request's arguments, its computed views) in their own schema types;
// these converters derive them from the resource's attributes, so that each
// is written once.

import (
	"fmt"

	actionschema "github.com/hashicorp/terraform-plugin-framework/action/schema"
	dschema "github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	rschema "github.com/hashicorp/terraform-plugin-framework/resource/schema"
)

// computedDataSourceAttribute converts a resource attribute to a computed
// data source attribute with the same type, description and sensitivity.
func computedDataSourceAttribute(a rschema.Attribute) dschema.Attribute {
	desc, sensitive := a.GetMarkdownDescription(), a.IsSensitive()
	switch n := a.(type) {
	case rschema.SingleNestedAttribute:
		return dschema.SingleNestedAttribute{MarkdownDescription: desc, Computed: true, Sensitive: sensitive, Attributes: computedDataSourceAttributes(n.Attributes)}
	case rschema.ListNestedAttribute:
		return dschema.ListNestedAttribute{MarkdownDescription: desc, Computed: true, Sensitive: sensitive,
			NestedObject: dschema.NestedAttributeObject{Attributes: computedDataSourceAttributes(n.NestedObject.Attributes)}}
	case rschema.ObjectAttribute:
		return dschema.ObjectAttribute{MarkdownDescription: desc, Computed: true, Sensitive: sensitive, AttributeTypes: n.AttributeTypes}
	case rschema.StringAttribute:
		return dschema.StringAttribute{MarkdownDescription: desc, Computed: true, Sensitive: sensitive, CustomType: n.CustomType}
	case rschema.BoolAttribute:
		return dschema.BoolAttribute{MarkdownDescription: desc, Computed: true, Sensitive: sensitive}
	case rschema.Int64Attribute:
		return dschema.Int64Attribute{MarkdownDescription: desc, Computed: true, Sensitive: sensitive, CustomType: n.CustomType}
	case rschema.Float64Attribute:
		return dschema.Float64Attribute{MarkdownDescription: desc, Computed: true, Sensitive: sensitive, CustomType: n.CustomType}
	case rschema.ListAttribute:
		return dschema.ListAttribute{MarkdownDescription: desc, Computed: true, Sensitive: sensitive, ElementType: n.ElementType}
	case rschema.MapAttribute:
		return dschema.MapAttribute{MarkdownDescription: desc, Computed: true, Sensitive: sensitive, ElementType: n.ElementType}
	}
	panic(fmt.Sprintf("cannot convert a resource attribute of type %T (%s) to a data source attribute", a, a.GetType()))
}

func computedDataSourceAttributes(attrs map[string]rschema.Attribute) map[string]dschema.Attribute {
	out := make(map[string]dschema.Attribute, len(attrs))
	for name, a := range attrs {
		out[name] = computedDataSourceAttribute(a)
	}
	return out
}

// actionAttribute converts a request attribute of the transcription_job
// resource to the action's schema: the same type, description and
// validators, optional unless required (the service applies its defaults to
// what the action leaves out, as for the resource). Action attributes cannot
// be sensitive; the action's description says how to keep callback URLs
// out of plan output.
func actionAttribute(a rschema.Attribute) actionschema.Attribute {
	desc, required, optional := a.GetMarkdownDescription(), a.IsRequired(), !a.IsRequired()
	switch n := a.(type) {
	case rschema.StringAttribute:
		return actionschema.StringAttribute{MarkdownDescription: desc, Required: required, Optional: optional,
			DeprecationMessage: n.DeprecationMessage, CustomType: n.CustomType, Validators: n.Validators}
	case rschema.BoolAttribute:
		return actionschema.BoolAttribute{MarkdownDescription: desc, Required: required, Optional: optional, Validators: n.Validators}
	case rschema.Int64Attribute:
		return actionschema.Int64Attribute{MarkdownDescription: desc, Required: required, Optional: optional, CustomType: n.CustomType, Validators: n.Validators}
	case rschema.Float64Attribute:
		return actionschema.Float64Attribute{MarkdownDescription: desc, Required: required, Optional: optional, CustomType: n.CustomType, Validators: n.Validators}
	case rschema.ListAttribute:
		return actionschema.ListAttribute{MarkdownDescription: desc, Required: required, Optional: optional, ElementType: n.ElementType, Validators: n.Validators}
	case rschema.MapAttribute:
		return actionschema.MapAttribute{MarkdownDescription: desc, Required: required, Optional: optional, ElementType: n.ElementType, Validators: n.Validators}
	case rschema.SingleNestedAttribute:
		return actionschema.SingleNestedAttribute{MarkdownDescription: desc, Required: required, Optional: optional,
			Attributes: actionAttributes(n.Attributes), Validators: n.Validators}
	case rschema.ListNestedAttribute:
		return actionschema.ListNestedAttribute{MarkdownDescription: desc, Required: required, Optional: optional,
			NestedObject: actionschema.NestedAttributeObject{Attributes: actionAttributes(n.NestedObject.Attributes), Validators: n.NestedObject.Validators}, Validators: n.Validators}
	}
	panic(fmt.Sprintf("cannot convert a resource attribute of type %T to an action attribute", a))
}

func actionAttributes(attrs map[string]rschema.Attribute) map[string]actionschema.Attribute {
	out := make(map[string]actionschema.Attribute, len(attrs))
	for name, a := range attrs {
		out[name] = actionAttribute(a)
	}
	return out
}
