package provider

import (
	"context"
	"encoding/json"

	"github.com/hashicorp/terraform-plugin-framework/diag"
)

// privateState is what private state is read through: a request's
// (nil-safe: the framework's answers nothing for a nil one).
type privateState interface {
	GetKey(ctx context.Context, key string) ([]byte, diag.Diagnostics)
}

// privateStateWriter is what private state is written through: a
// response's.
type privateStateWriter interface {
	SetKey(ctx context.Context, key string, value []byte) diag.Diagnostics
}

// privateString is the text recorded under key, "" for none (or private
// nil).
func privateString(ctx context.Context, private privateState, key string) string {
	var s string
	if private == nil {
		return s
	}
	if raw, _ := private.GetKey(ctx, key); json.Unmarshal(raw, &s) != nil {
		return ""
	}
	return s
}

// setPrivateString records s under key in to ("" removes it).
func setPrivateString(ctx context.Context, to privateStateWriter, key, s string, diags *diag.Diagnostics) {
	var value []byte
	if s != "" {
		value, _ = json.Marshal(s)
	}
	diags.Append(to.SetKey(ctx, key, value)...)
}
