package provider

import (
	"cmp"
	"fmt"
	"time"

	actionschema "github.com/hashicorp/terraform-plugin-framework/action/schema"
	dschema "github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

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

// timeoutsRewritten reports whether the timeouts of a resource's
// configuration are those of its state written another way ("60m" for
// "1h", "1200s" for "20m"): the same durations set, each equal once
// parsed. Such an edit changes no wait, and is planned as no change
// (Terraform accepts the prior value planned in place of the
// configuration's where neither is null).
func timeoutsRewritten(config, state tftypes.Value) bool {
	configured, cerr := config.ApplyTerraform5AttributePathStep(tftypes.AttributeName("timeouts"))
	applied, aerr := state.ApplyTerraform5AttributePathStep(tftypes.AttributeName("timeouts"))
	c, cok := configured.(tftypes.Value)
	a, aok := applied.(tftypes.Value)
	if cerr != nil || aerr != nil || !cok || !aok || c.IsNull() || a.IsNull() || !c.IsFullyKnown() || c.Equal(a) {
		return false
	}
	var cs, as map[string]tftypes.Value
	if c.As(&cs) != nil || a.As(&as) != nil || len(cs) != len(as) {
		return false
	}
	for name, cv := range cs {
		av, ok := as[name]
		if !ok || cv.IsNull() != av.IsNull() {
			return false
		}
		if !cv.IsNull() && !sameDuration(cv, av) {
			return false
		}
	}
	return true
}

// sameDuration reports whether two strings are durations equal once parsed.
func sameDuration(a, b tftypes.Value) bool {
	var as, bs string
	if a.As(&as) != nil || b.As(&bs) != nil {
		return false
	}
	ad, aerr := time.ParseDuration(as)
	bd, berr := time.ParseDuration(bs)
	return aerr == nil && berr == nil && ad == bd
}
