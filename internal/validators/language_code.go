package validators

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
)

var _ validator.String = languageCodeValidator{}

// languageCodeValidator is stringvalidator.OneOf for a language code, with
// a hint for the two mistakes a list of a hundred codes does not point at:
// a code written in capitals, and a code that is a translation target only
// (`wo`) where a transcription language is asked for.
type languageCodeValidator struct {
	validator.String
	allowed         []string
	translationOnly []string
	// The descriptions, formatted once: the framework asks for them twice
	// at every call, for its trace log, logged or not, and OneOf formats
	// its hundred codes each time (half of validating a vocabulary entry).
	description, markdownDescription string
}

// LanguageCode allows the codes of allowed; translationOnly are codes
// allowed only as translation targets, which a refusal names as such.
func LanguageCode(allowed, translationOnly []string) validator.String {
	oneOf := stringvalidator.OneOf(allowed...)
	ctx := context.Background()
	return languageCodeValidator{String: oneOf, allowed: allowed, translationOnly: translationOnly,
		description: oneOf.Description(ctx), markdownDescription: oneOf.MarkdownDescription(ctx)}
}

func (v languageCodeValidator) Description(context.Context) string { return v.description }

func (v languageCodeValidator) MarkdownDescription(context.Context) string {
	return v.markdownDescription
}

func (v languageCodeValidator) ValidateString(ctx context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	var oneOf validator.StringResponse
	v.String.ValidateString(ctx, req, &oneOf)
	value := req.ConfigValue.ValueString()
	lower := strings.ToLower(value)
	hint := ""
	switch {
	case !oneOf.Diagnostics.HasError():
	case slices.Contains(v.translationOnly, lower):
		hint = fmt.Sprintf("%q is a translation target only (translation_config.target_languages), not a language the service transcribes.", lower)
	case value != lower && slices.Contains(v.allowed, lower):
		hint = fmt.Sprintf("Codes are written in lowercase: %q.", lower)
	}
	if hint == "" {
		resp.Diagnostics.Append(oneOf.Diagnostics...)
		return
	}
	for _, d := range oneOf.Diagnostics {
		resp.Diagnostics.Append(diag.NewAttributeErrorDiagnostic(req.Path, d.Summary(), strings.TrimSuffix(d.Detail(), ".")+". "+hint))
	}
}
