// Package frameworktest builds what unit tests hand to validators, plan
// modifiers and resources of terraform-plugin-framework: configurations of a
// schema, object values with every attribute not given null, short
// constructors of tftypes values, and a check of diagnostics. Written once
// for the provider's and the validators' tests.
package frameworktest

import (
	"context"
	"math/big"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// Config is a configuration of s holding values, every other attribute null.
func Config(tb testing.TB, s schema.Schema, values map[string]tftypes.Value) tfsdk.Config {
	tb.Helper()
	return tfsdk.Config{Schema: s, Raw: Object(tb, s.Type(), values)}
}

// Object is a value of the object type typ holding values, every other
// attribute null.
func Object(tb testing.TB, typ attr.Type, values map[string]tftypes.Value) tftypes.Value {
	tb.Helper()
	objType, ok := typ.TerraformType(context.Background()).(tftypes.Object)
	if !ok {
		tb.Fatalf("%s is not an object type", typ)
	}
	all := make(map[string]tftypes.Value, len(objType.AttributeTypes))
	for name, at := range objType.AttributeTypes {
		all[name] = tftypes.NewValue(at, nil)
	}
	for name, v := range values {
		if _, ok := all[name]; !ok {
			tb.Fatalf("no attribute %s", name)
		}
		all[name] = v
	}
	return tftypes.NewValue(objType, all)
}

// Short constructors of tftypes values for tests' tables.

// UnknownNumber is a number known only after apply.
var UnknownNumber = tftypes.NewValue(tftypes.Number, tftypes.UnknownValue)

func Number(f float64) tftypes.Value { return tftypes.NewValue(tftypes.Number, big.NewFloat(f)) }
func String(s string) tftypes.Value  { return tftypes.NewValue(tftypes.String, s) }
func Bool(b bool) tftypes.Value      { return tftypes.NewValue(tftypes.Bool, b) }

// NumberText is the number text stands for, read as Terraform reads a
// number from a configuration: at 512 bits of precision (0.1 is then not
// the float64 0.1), and beyond what a float64 or an int64 holds.
func NumberText(tb testing.TB, text string) tftypes.Value {
	tb.Helper()
	f, _, err := big.ParseFloat(text, 10, 512, big.ToNearestEven)
	if err != nil {
		tb.Fatal(err)
	}
	return tftypes.NewValue(tftypes.Number, f)
}

// Strings is a list of strings.
func Strings(values ...string) tftypes.Value {
	elems := make([]tftypes.Value, len(values))
	for i, v := range values {
		elems[i] = String(v)
	}
	return tftypes.NewValue(tftypes.List{ElementType: tftypes.String}, elems)
}

// CheckDiagnostics expects exactly one diagnostic whose detail contains
// want, or none when want is empty.
func CheckDiagnostics[D interface{ Detail() string }](tb testing.TB, got []D, want string) {
	tb.Helper()
	if want == "" {
		if len(got) != 0 {
			tb.Fatalf("unexpected diagnostics: %v", got[0].Detail())
		}
		return
	}
	if len(got) != 1 {
		tb.Fatalf("got %d diagnostics, want 1 containing %q", len(got), want)
	}
	if !strings.Contains(got[0].Detail(), want) {
		tb.Fatalf("diagnostic %q does not contain %q", got[0].Detail(), want)
	}
}
