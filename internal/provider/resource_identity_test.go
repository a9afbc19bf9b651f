package provider

import (
	"context"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// A job whose identity in state names another id than its own (a state
// edited by hand) is refused at refresh with an error naming both ids,
// where the framework's own error named neither and blamed the provider;
// an identity that agrees, or none (state from before identities), reads.
func TestJobRead_identityThatDisagreesWithTheID(t *testing.T) {
	j := newJobBench(t, "https://example.com/a.wav", "")
	state := j.apply(j.planCreate())
	value, err := state.Unmarshal(j.typ)
	if err != nil {
		t.Fatal(err)
	}
	var attrs map[string]tftypes.Value
	var id string
	if err := value.As(&attrs); err != nil || attrs["id"].As(&id) != nil {
		t.Fatalf("state %v: %v", value, err)
	}
	identityType := tftypes.Object{AttributeTypes: map[string]tftypes.Type{"id": tftypes.String}}
	identity := func(id string) *tfprotov6.ResourceIdentityData {
		dv, err := tfprotov6.NewDynamicValue(identityType, tftypes.NewValue(identityType, map[string]tftypes.Value{"id": tftypes.NewValue(tftypes.String, id)}))
		if err != nil {
			t.Fatal(err)
		}
		return &tfprotov6.ResourceIdentityData{IdentityData: &dv}
	}
	const other = "2071cfd3-0000-4000-8000-000000000000"
	for _, tc := range []struct {
		name     string
		identity *tfprotov6.ResourceIdentityData
		refused  bool
	}{
		{"another id", identity(other), true},
		{"its id", identity(id), false},
		{"none", nil, false},
	} {
		resp, err := j.server.ReadResource(context.Background(), &tfprotov6.ReadResourceRequest{TypeName: jobResourceTypeName, CurrentState: state, CurrentIdentity: tc.identity})
		if err != nil {
			t.Fatal(err)
		}
		refused := len(resp.Diagnostics) == 1 && resp.Diagnostics[0].Summary == "The resource's identity does not match its id" &&
			strings.Contains(resp.Diagnostics[0].Detail, id) && strings.Contains(resp.Diagnostics[0].Detail, other) && strings.Contains(resp.Diagnostics[0].Detail, "terraform state rm")
		if refused != tc.refused {
			t.Errorf("%s: diagnostics %v, want refused %t", tc.name, resp.Diagnostics, tc.refused)
		}
		if !tc.refused && len(resp.Diagnostics) > 0 {
			t.Errorf("%s: diagnostics %v, want none", tc.name, resp.Diagnostics)
		}
	}
}
