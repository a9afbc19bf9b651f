package validators

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
)

var _ validator.Object = requiredInElementValidator{}

// requiredInElementValidator refuses an element of a list of nested objects
// whose attribute name is left out, as the framework refuses a required
// attribute left out. The attribute is optional in the schema: the
// framework (v1.19) reads an attribute of an element that is unknown as a
// whole (an entry from a variable under terraform validate, or from another
// resource) as null, and refused a required one as left out.
type requiredInElementValidator struct {
	name string
}

// RequiredInElement returns a validator, for the elements of a list of
// nested objects, that requires their attribute name.
func RequiredInElement(name string) validator.Object {
	return requiredInElementValidator{name: name}
}

func (v requiredInElementValidator) Description(context.Context) string {
	return v.name + " must be set"
}

func (v requiredInElementValidator) MarkdownDescription(context.Context) string {
	return "`" + v.name + "` must be set"
}

func (v requiredInElementValidator) ValidateObject(_ context.Context, req validator.ObjectRequest, resp *validator.ObjectResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	if a, ok := req.ConfigValue.Attributes()[v.name]; ok && a.IsNull() {
		AddMissingRequired(&resp.Diagnostics, req.Path.AtName(v.name))
	}
}

// AddMissingRequired refuses a required attribute left out, at p, in the
// framework's words.
func AddMissingRequired(diags *diag.Diagnostics, p path.Path) {
	diags.AddAttributeError(p, "Missing Configuration for Required Attribute",
		fmt.Sprintf("Must set a configuration value for the %s attribute as the provider has marked it as required.\n\n", p)+
			"Refer to the provider documentation or contact the provider developers for additional information about configurable attributes that are required.")
}
