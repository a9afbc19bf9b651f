package provider

import (
	"sort"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// warnObjectsSettingNothing warns of every object in config, below the top
// level, that is written but sets none of its arguments. Terraform drops an
// argument it does not know inside an object without an error
// (hashicorp/terraform#33570): `subtitles_config = { format = ["vtt"] }`
// reached the provider as an empty object, and the job was made, and
// billed, with the default formats. The caller warns only where a job is
// made: an empty object written on purpose (the configuration generated for
// an imported job can write `diarization_config = {}`) is not warned of at
// every plan.
func warnObjectsSettingNothing(config tftypes.Value, diags *diag.Diagnostics) {
	walkObjectsSettingNothing(config, path.Empty(), func(p path.Path, names []string) {
		diags.AddAttributeWarning(p, p.String()+" sets none of its arguments",
			p.String()+" is written, but every argument in it is null. Terraform drops an argument whose name it does not know inside an object, without an error "+
				"(hashicorp/terraform#33570), so a misspelled one leaves this: check each name written in it (its arguments are "+strings.Join(names, ", ")+"). "+
				"If you meant none, leave "+p.String()+" out.")
	})
}

// walkObjectsSettingNothing calls found for every object below v's top
// level (through objects, lists, sets and maps) that sets nothing, with its
// path and its arguments' names.
func walkObjectsSettingNothing(v tftypes.Value, p path.Path, found func(path.Path, []string)) {
	if v.IsNull() || !v.IsKnown() {
		return
	}
	typ := v.Type()
	switch {
	case typ.Is(tftypes.Object{}):
		var attrs map[string]tftypes.Value
		if v.As(&attrs) != nil {
			return
		}
		if !p.Equal(path.Empty()) && setsNothing(v) {
			names := make([]string, 0, len(attrs))
			for name := range attrs {
				names = append(names, name)
			}
			sort.Strings(names)
			found(p, names)
			return
		}
		for name, attr := range attrs {
			walkObjectsSettingNothing(attr, p.AtName(name), found)
		}
	case typ.Is(tftypes.List{}), typ.Is(tftypes.Set{}):
		var elems []tftypes.Value
		if v.As(&elems) != nil {
			return
		}
		for i, e := range elems {
			if typ.Is(tftypes.Set{}) {
				// Named by the set: an element's value is no name for a user.
				walkObjectsSettingNothing(e, p, found)
				continue
			}
			walkObjectsSettingNothing(e, p.AtListIndex(i), found)
		}
	case typ.Is(tftypes.Map{}):
		var elems map[string]tftypes.Value
		if v.As(&elems) != nil {
			return
		}
		for k, e := range elems {
			walkObjectsSettingNothing(e, p.AtMapKey(k), found)
		}
	}
}

// setsNothing reports whether v is a known object with arguments, all
// null.
func setsNothing(v tftypes.Value) bool {
	var attrs map[string]tftypes.Value
	if v.IsNull() || !v.IsKnown() || !v.Type().Is(tftypes.Object{}) || v.As(&attrs) != nil || len(attrs) == 0 {
		return false
	}
	for _, a := range attrs {
		if !a.IsNull() {
			return false
		}
	}
	return true
}
