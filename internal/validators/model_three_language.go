package validators

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/transcription-service/terraform-provider-transcription/internal/client"
)

var (
	_ resource.ConfigValidator = ModelThreeLanguageValidator{}
	_ action.ConfigValidator   = ModelThreeLanguageValidator{}
)

// ModelThreeLanguageValidator enforces the service's rules for model-3:
// exactly one language in language_config.languages, one of the languages
// model-3 transcribes, and no code switching.
type ModelThreeLanguageValidator struct{}

// ModelThreeLanguage returns the validator for a configuration holding model
// and language_config (a job's, or transcription_transcribe's).
func ModelThreeLanguage() ModelThreeLanguageValidator { return ModelThreeLanguageValidator{} }

func (v ModelThreeLanguageValidator) Description(_ context.Context) string {
	return fmt.Sprintf("when model is %s, language_config.languages must hold exactly one of %s and code_switching must not be true",
		client.ModelThree, strings.Join(client.ModelThreeLanguages, ", "))
}

func (v ModelThreeLanguageValidator) MarkdownDescription(ctx context.Context) string {
	return v.Description(ctx)
}

func (v ModelThreeLanguageValidator) ValidateResource(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	v.validate(ctx, req.Config, &resp.Diagnostics)
}

// ValidateAction checks transcription_transcribe's request as the
// resource's.
func (v ModelThreeLanguageValidator) ValidateAction(ctx context.Context, req action.ValidateConfigRequest, resp *action.ValidateConfigResponse) {
	v.validate(ctx, req.Config, &resp.Diagnostics)
}

func (v ModelThreeLanguageValidator) validate(ctx context.Context, config tfsdk.Config, diags *diag.Diagnostics) {
	var model types.String
	var languageConfig types.Object
	diags.Append(config.GetAttribute(ctx, path.Root("model"), &model)...)
	diags.Append(config.GetAttribute(ctx, path.Root("language_config"), &languageConfig)...)
	if diags.HasError() || model.ValueString() != client.ModelThree || languageConfig.IsUnknown() {
		return
	}

	languagesPath := path.Root("language_config").AtName("languages")
	if languageConfig.IsNull() {
		diags.AddAttributeError(path.Root("language_config"), "model-3 needs one language",
			fmt.Sprintf("model = %q needs exactly one language in language_config.languages, and language_config is not set. Set language_config = { languages = [\"en\"] } (one of %s).",
				client.ModelThree, strings.Join(client.ModelThreeLanguages, ", ")))
		return
	}

	var languages types.List
	var codeSwitching types.Bool
	diags.Append(config.GetAttribute(ctx, languagesPath, &languages)...)
	diags.Append(config.GetAttribute(ctx, path.Root("language_config").AtName("code_switching"), &codeSwitching)...)
	if diags.HasError() {
		return
	}

	if codeSwitching.ValueBool() {
		diags.AddAttributeError(path.Root("language_config").AtName("code_switching"), "model-3 does not switch languages",
			fmt.Sprintf("Attribute language_config.code_switching must not be true when model = %q: model-3 transcribes one language, without code switching.", client.ModelThree))
	}
	if languages.IsUnknown() {
		return
	}
	if n := len(languages.Elements()); n != 1 {
		diags.AddAttributeError(languagesPath, "model-3 needs exactly one language",
			fmt.Sprintf("Attribute language_config.languages must hold exactly one language when model = %q, got %d. Use one of %s.",
				client.ModelThree, n, strings.Join(client.ModelThreeLanguages, ", ")))
		return
	}
	lang, ok := languages.Elements()[0].(types.String)
	if !ok || lang.IsNull() || lang.IsUnknown() {
		return
	}
	// A code that is no language of the service at all is reported by the
	// attribute's own validator; one error is enough.
	if client.Contains(client.TranscriptionLanguages, lang.ValueString()) && !client.Contains(client.ModelThreeLanguages, lang.ValueString()) {
		diags.AddAttributeError(languagesPath.AtListIndex(0), "Language not available with model-3",
			fmt.Sprintf("Attribute language_config.languages[0] must be one of %s when model = %q, got: %q.",
				strings.Join(client.ModelThreeLanguages, ", "), client.ModelThree, lang.ValueString()))
	}
}
