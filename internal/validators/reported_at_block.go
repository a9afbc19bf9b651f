package validators

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
)

var _ validator.String = reportedAtBlockValidator{}

// reportedAtBlockValidator runs another validator and reports its
// diagnostics without the attribute's path. The CLI prints the source line
// of the attribute a diagnostic names (Terraform 1.16 even inside an
// object), and an attribute written on one line beside a secret
// (`callback_config = { url = "...token...", method = "post" }`) would have
// the secret printed with it; without a path the CLI shows the block's
// first line. The inner validator's text must name the attribute, as the
// framework's validators do ("Attribute callback_config.method value ...").
type reportedAtBlockValidator struct {
	inner validator.String
}

// ReportedAtBlock is inner with its diagnostics pointing at the resource's
// block instead of the attribute, for attributes that sit beside a secret.
func ReportedAtBlock(inner validator.String) validator.String {
	return reportedAtBlockValidator{inner: inner}
}

func (v reportedAtBlockValidator) Description(ctx context.Context) string {
	return v.inner.Description(ctx)
}

func (v reportedAtBlockValidator) MarkdownDescription(ctx context.Context) string {
	return v.inner.MarkdownDescription(ctx)
}

func (v reportedAtBlockValidator) ValidateString(ctx context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	inner := &validator.StringResponse{}
	v.inner.ValidateString(ctx, req, inner)
	for _, d := range inner.Diagnostics {
		switch d.Severity() {
		case diag.SeverityError:
			resp.Diagnostics.AddError(d.Summary(), d.Detail())
		default:
			resp.Diagnostics.AddWarning(d.Summary(), d.Detail())
		}
	}
}
