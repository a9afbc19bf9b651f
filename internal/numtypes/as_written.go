package numtypes

import (
	"fmt"
	"math/big"

	"github.com/hashicorp/terraform-plugin-framework/attr/xattr"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// asWritten is a configured number that its attribute's type cannot hold,
// kept as written so that it round-trips to Terraform unchanged; f is nil
// for a number the type holds.
type asWritten struct{ f *big.Float }

func (w asWritten) equal(o asWritten) bool {
	if w.f == nil || o.f == nil {
		return w.f == nil && o.f == nil
	}
	return w.f.Cmp(o.f) == 0
}

func (w asWritten) terraformValue() tftypes.Value { return tftypes.NewValue(tftypes.Number, w.f) }

// String writes the number as a user would: the digits of a whole number
// of sensible size (1e20 is 100000000000000000000), an exponent beyond and
// for fractions (1e-400).
func (w asWritten) String() string {
	if w.f.IsInt() && w.f.MantExp(nil) <= 128 {
		return w.f.Text('f', 0)
	}
	return w.f.Text('g', -1)
}

// refuse reports the number at the request's attribute, which must be
// rule.
func (w asWritten) refuse(req xattr.ValidateAttributeRequest, resp *xattr.ValidateAttributeResponse, summary, rule string) {
	resp.Diagnostics.AddAttributeError(req.Path, summary,
		fmt.Sprintf("Attribute %s must be %s, got: %s", req.Path, rule, w))
}
