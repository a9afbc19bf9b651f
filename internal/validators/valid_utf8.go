package validators

import (
	"context"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
)

var _ validator.String = validUTF8Validator{}

// validUTF8Validator requires text in UTF-8. Terraform carries a string's
// bytes as given (a file name from fileset() in another encoding, such as
// Latin-1), but state keeps it with U+FFFD in place of the invalid bytes:
// the value in state then never equals the configuration's.
type validUTF8Validator struct{}

// ValidUTF8 returns a validator requiring valid UTF-8.
func ValidUTF8() validator.String { return validUTF8Validator{} }

func (validUTF8Validator) Description(context.Context) string {
	return "value must be valid UTF-8 text"
}

func (v validUTF8Validator) MarkdownDescription(ctx context.Context) string {
	return v.Description(ctx)
}

func (v validUTF8Validator) ValidateString(ctx context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() || utf8.ValidString(req.ConfigValue.ValueString()) {
		return
	}
	resp.Diagnostics.AddAttributeError(req.Path, "Invalid text encoding",
		fmt.Sprintf("Attribute %s %s, got %q: Terraform would keep it in state with the invalid bytes replaced, so it would never match the configuration again. "+
			"A file named in another encoding (Latin-1, for example) needs renaming to UTF-8 (convmv -f latin1 -t utf8, for example).",
			req.Path, v.Description(ctx), strings.ToValidUTF8(req.ConfigValue.ValueString(), "\uFFFD")))
}
