package validators

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"
)

var _ validator.List = noDuplicatesValidator{}

// noDuplicatesValidator refuses a list of strings that holds a value twice,
// naming the attribute and the value (listvalidator.UniqueValues names
// neither in its message's text).
type noDuplicatesValidator struct{}

// NoDuplicates refuses a list of strings that holds a value twice.
func NoDuplicates() validator.List { return noDuplicatesValidator{} }

func (noDuplicatesValidator) Description(context.Context) string {
	return "each value may appear once"
}

func (v noDuplicatesValidator) MarkdownDescription(ctx context.Context) string {
	return v.Description(ctx)
}

func (noDuplicatesValidator) ValidateList(_ context.Context, req validator.ListRequest, resp *validator.ListResponse) {
	seen := map[string]bool{}
	for _, e := range req.ConfigValue.Elements() {
		s, ok := e.(basetypes.StringValue)
		if !ok || s.IsNull() || s.IsUnknown() {
			continue
		}
		if seen[s.ValueString()] {
			resp.Diagnostics.AddAttributeError(req.Path, "Duplicate list value",
				fmt.Sprintf("Attribute %s lists %q more than once: each value may appear once.", req.Path, s.ValueString()))
			return
		}
		seen[s.ValueString()] = true
	}
}
