package main

import (
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/types"
)

// wideExtra is how many attributes minimal_wide_job adds to minimal_job's
// three: transcription_job has 43 top-level attributes
// (TestWideJobIsAsWideAsTranscriptionJob keeps the two in step).
const wideExtra = 40

// wideExtraName is the name of extra attribute i (from 0): extra_01, ...
func wideExtraName(i int) string { return fmt.Sprintf("extra_%02d", i+1) }

// wideJobModel is minimal_wide_job's model: minimal_job's and the extra
// attributes, which stay null.
type wideJobModel struct {
	jobModel
	Extra01 types.String `tfsdk:"extra_01"`
	Extra02 types.String `tfsdk:"extra_02"`
	Extra03 types.String `tfsdk:"extra_03"`
	Extra04 types.String `tfsdk:"extra_04"`
	Extra05 types.String `tfsdk:"extra_05"`
	Extra06 types.String `tfsdk:"extra_06"`
	Extra07 types.String `tfsdk:"extra_07"`
	Extra08 types.String `tfsdk:"extra_08"`
	Extra09 types.String `tfsdk:"extra_09"`
	Extra10 types.String `tfsdk:"extra_10"`
	Extra11 types.String `tfsdk:"extra_11"`
	Extra12 types.String `tfsdk:"extra_12"`
	Extra13 types.String `tfsdk:"extra_13"`
	Extra14 types.String `tfsdk:"extra_14"`
	Extra15 types.String `tfsdk:"extra_15"`
	Extra16 types.String `tfsdk:"extra_16"`
	Extra17 types.String `tfsdk:"extra_17"`
	Extra18 types.String `tfsdk:"extra_18"`
	Extra19 types.String `tfsdk:"extra_19"`
	Extra20 types.String `tfsdk:"extra_20"`
	Extra21 types.String `tfsdk:"extra_21"`
	Extra22 types.String `tfsdk:"extra_22"`
	Extra23 types.String `tfsdk:"extra_23"`
	Extra24 types.String `tfsdk:"extra_24"`
	Extra25 types.String `tfsdk:"extra_25"`
	Extra26 types.String `tfsdk:"extra_26"`
	Extra27 types.String `tfsdk:"extra_27"`
	Extra28 types.String `tfsdk:"extra_28"`
	Extra29 types.String `tfsdk:"extra_29"`
	Extra30 types.String `tfsdk:"extra_30"`
	Extra31 types.String `tfsdk:"extra_31"`
	Extra32 types.String `tfsdk:"extra_32"`
	Extra33 types.String `tfsdk:"extra_33"`
	Extra34 types.String `tfsdk:"extra_34"`
	Extra35 types.String `tfsdk:"extra_35"`
	Extra36 types.String `tfsdk:"extra_36"`
	Extra37 types.String `tfsdk:"extra_37"`
	Extra38 types.String `tfsdk:"extra_38"`
	Extra39 types.String `tfsdk:"extra_39"`
	Extra40 types.String `tfsdk:"extra_40"`
}
