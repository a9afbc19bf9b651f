package validators

import (
	"context"
	"fmt"
	"maps"
	"slices"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
)

var (
	_ validator.List = NoNullElementsValidator{}
	_ validator.Map  = NoNullElementsValidator{}
)

// NoNullElementsValidator refuses a list holding a null element or a map
// holding a null value, naming the attribute and the element; one type
// serves both kinds.
// listvalidator.NoNullValues and mapvalidator.NoNullValues name neither
// ("This attribute contains a null value."), and Terraform 1.8 and OpenTofu
// show the whole resource block for an attribute nested in an object, so
// their error left the user to search for it.
type NoNullElementsValidator struct{}

// NoNullElements returns the validator of a list's elements or a map's
// values.
func NoNullElements() NoNullElementsValidator { return NoNullElementsValidator{} }

func (NoNullElementsValidator) Description(context.Context) string {
	return "no element may be null"
}

func (v NoNullElementsValidator) MarkdownDescription(ctx context.Context) string {
	return v.Description(ctx)
}

func (NoNullElementsValidator) ValidateList(_ context.Context, req validator.ListRequest, resp *validator.ListResponse) {
	for i, e := range req.ConfigValue.Elements() {
		if e.IsNull() {
			refuseNull(&resp.Diagnostics, req.Path, req.Path.AtListIndex(i), fmt.Sprintf("its element %d", i))
		}
	}
}

func (NoNullElementsValidator) ValidateMap(_ context.Context, req validator.MapRequest, resp *validator.MapResponse) {
	elements := req.ConfigValue.Elements()
	// In key order, so that the same configuration gets the same error.
	for _, k := range slices.Sorted(maps.Keys(elements)) {
		if elements[k].IsNull() {
			refuseNull(&resp.Diagnostics, req.Path, req.Path.AtMapKey(k), fmt.Sprintf("the value of %q", k))
		}
	}
}

// refuseNull reports a null element of the attribute at p, at the
// element's path. Each null element gets its error: with only the first
// reported, making it unknown would bring up the next one's, an error that
// a value known only at apply seemed to cause.
func refuseNull(diags *diag.Diagnostics, p, element path.Path, which string) {
	diags.AddAttributeError(element, "Null element",
		fmt.Sprintf("Attribute %s must not hold null, and %s is null: give it a value or leave it out.", p, which))
}
