package provider

import (
	"cmp"
	"fmt"

	actionschema "github.com/hashicorp/terraform-plugin-framework/action/schema"
	dschema "github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"

	"github.com/transcription-service/terraform-provider-transcription/internal/validators"
)

// documentedPositiveTimeouts completes every duration of a timeouts
// package's attribute (its Attributes) with documentedPositiveTimeout.
func documentedPositiveTimeouts[A any](durations map[string]A) {
	for name, d := range durations {
		completed, ok := documentedPositiveTimeout(d).(A)
		if !ok {
			panic(fmt.Sprintf("the timeouts package's duration %s is a %T", name, d))
		}
		durations[name] = completed
	}
}

// documentedPositiveTimeout completes a duration of the timeouts package's
// attributes (of a resource, a data source or an action): it gets the
// Markdown description the documentation reads (the package writes
// Description only), and PositiveDuration in place of the package's check,
// which does not name the attribute, so that a bad value gets one error,
// naming it.
func documentedPositiveTimeout(a any) any {
	switch s := a.(type) {
	case schema.StringAttribute:
		s.MarkdownDescription = cmp.Or(s.MarkdownDescription, s.Description)
		s.Validators = []validator.String{validators.PositiveDuration()}
		return s
	case dschema.StringAttribute:
		s.MarkdownDescription = cmp.Or(s.MarkdownDescription, s.Description)
		s.Validators = []validator.String{validators.PositiveDuration()}
		return s
	case actionschema.StringAttribute:
		s.MarkdownDescription = cmp.Or(s.MarkdownDescription, s.Description)
		s.Validators = []validator.String{validators.PositiveDuration()}
		return s
	}
	panic(fmt.Sprintf("the timeouts package's duration is a %T, no longer a string attribute", a))
}
