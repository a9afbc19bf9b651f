package provider

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-log/tflogtest"
)

// The adapter writes through terraform-plugin-log and masks the key in
// messages and fields.
func TestTflogLogger_masksTheKey(t *testing.T) {
	const key = "sk-live-5ecret"
	var out bytes.Buffer
	ctx := tflogtest.RootLogger(context.Background(), &out)
	l := tflogLogger{secret: key}
	l.Debug(ctx, "request with "+key, map[string]any{"header": key, "url": "https://api.example.com/v2/pre-recorded"})
	l.Trace(ctx, "trace", map[string]any{"nested": "Bearer " + key})
	logged := out.String()
	if !strings.Contains(logged, "https://api.example.com/v2/pre-recorded") || !strings.Contains(logged, `"@level":"trace"`) {
		t.Fatalf("the lines were not written:\n%s", logged)
	}
	if strings.Contains(logged, key) {
		t.Fatalf("the key appears in the log:\n%s", logged)
	}
}
