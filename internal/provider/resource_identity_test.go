package provider

import (
	"context"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// A job or upload whose identity in state names another id than its own (a
// state edited by hand) is refused at refresh with an error naming both ids
// and a way out that the resource allows (an upload cannot be imported),
// where the framework's own error named neither and blamed the provider; an
// identity that agrees, or none (state from before identities), reads.
func TestRead_identityThatDisagreesWithTheID(t *testing.T) {
	j := newJobBench(t, "https://example.com/a.wav", "")
	u, uploaded := madeUpload(t)
	for _, r := range []struct {
		typeName string
		server   tfprotov6.ProviderServer
		typ      tftypes.Object
		state    *tfprotov6.DynamicValue
		remedy   string
	}{
		{jobResourceTypeName, j.server, j.typ, j.apply(j.planCreate()), "terraform state rm"},
		{uploadTypeName, u.server, u.typ, uploaded, "terraform state push"},
	} {
		value, err := r.state.Unmarshal(r.typ)
		if err != nil {
			t.Fatal(err)
		}
		var attrs map[string]tftypes.Value
		var id string
		if err := value.As(&attrs); err != nil || attrs["id"].As(&id) != nil {
			t.Fatalf("%s state %v: %v", r.typeName, value, err)
		}
		const other = "2071cfd3-0000-4000-8000-000000000000"
		for _, tc := range []struct {
			name     string
			identity *tfprotov6.ResourceIdentityData
			refused  bool
		}{
			{"another id", identityOf(t, other), true},
			{"its id", identityOf(t, id), false},
			{"none", nil, false},
		} {
			resp, err := r.server.ReadResource(context.Background(), &tfprotov6.ReadResourceRequest{TypeName: r.typeName, CurrentState: r.state, CurrentIdentity: tc.identity})
			if err != nil {
				t.Fatal(err)
			}
			refused := len(resp.Diagnostics) == 1 && resp.Diagnostics[0].Summary == "The resource's identity does not match its id" &&
				strings.Contains(resp.Diagnostics[0].Detail, id) && strings.Contains(resp.Diagnostics[0].Detail, other) && strings.Contains(resp.Diagnostics[0].Detail, r.remedy)
			if refused != tc.refused {
				t.Errorf("%s, %s: diagnostics %v, want refused %t", r.typeName, tc.name, resp.Diagnostics, tc.refused)
			}
			if !tc.refused && len(resp.Diagnostics) > 0 {
				t.Errorf("%s, %s: diagnostics %v, want none", r.typeName, tc.name, resp.Diagnostics)
			}
		}
	}
}

// identityOf is a resource identity holding id.
func identityOf(t *testing.T, id string) *tfprotov6.ResourceIdentityData {
	t.Helper()
	typ := tftypes.Object{AttributeTypes: map[string]tftypes.Type{"id": tftypes.String}}
	dv, err := tfprotov6.NewDynamicValue(typ, tftypes.NewValue(typ, map[string]tftypes.Value{"id": tftypes.NewValue(tftypes.String, id)}))
	if err != nil {
		t.Fatal(err)
	}
	return &tfprotov6.ResourceIdentityData{IdentityData: &dv}
}
