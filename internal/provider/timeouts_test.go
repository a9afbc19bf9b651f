package provider

import (
	"context"
	"fmt"
	"net/http"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/action"
	actionschema "github.com/hashicorp/terraform-plugin-framework/action/schema"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	dschema "github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/transcription-service/terraform-provider-transcription/internal/acctest"
	"github.com/transcription-service/terraform-provider-transcription/internal/client"
	"github.com/transcription-service/terraform-provider-transcription/internal/fakeserver"
	"github.com/transcription-service/terraform-provider-transcription/internal/frameworktest"
)

// TestTimeoutsRefuseOnceNamingTheAttribute: every duration of the timeouts
// package's attributes, in every schema that has one, refuses a value that
// is not a duration with one error that names it (the package's own check,
// which does not, is replaced), and a duration of zero or less.
func TestTimeoutsRefuseOnceNamingTheAttribute(t *testing.T) {
	ctx := context.Background()
	durations := map[string][]validator.String{}
	for name, r := range map[string]resource.Resource{"transcription_job": &jobResource{}, "transcription_upload": &uploadResource{}} {
		var resp resource.SchemaResponse
		r.Schema(ctx, resource.SchemaRequest{}, &resp)
		for field, a := range resp.Schema.Attributes["timeouts"].(schema.SingleNestedAttribute).Attributes {
			durations[name+".timeouts."+field] = a.(schema.StringAttribute).Validators
		}
	}
	var dsResp datasource.SchemaResponse
	(&jobDataSource{}).Schema(ctx, datasource.SchemaRequest{}, &dsResp)
	for field, a := range dsResp.Schema.Attributes["timeouts"].(dschema.SingleNestedAttribute).Attributes {
		durations["data.transcription_job.timeouts."+field] = a.(dschema.StringAttribute).Validators
	}
	var actionResp action.SchemaResponse
	(&transcribeAction{}).Schema(ctx, action.SchemaRequest{}, &actionResp)
	for field, a := range actionResp.Schema.Attributes["timeouts"].(actionschema.SingleNestedAttribute).Attributes {
		durations["action.transcription_transcribe.timeouts."+field] = a.(actionschema.StringAttribute).Validators
	}
	for _, want := range []string{"transcription_job.timeouts.create", "transcription_job.timeouts.delete", "transcription_upload.timeouts.create",
		"data.transcription_job.timeouts.read", "action.transcription_transcribe.timeouts.invoke"} {
		if _, ok := durations[want]; !ok {
			t.Errorf("no duration %s among %v", want, durations)
		}
	}
	for name, vs := range durations {
		for value, want := range map[string]string{"30 minutes": "must be a Go duration", "0s": "would end before it starts", "90m": ""} {
			p := path.Root("timeouts").AtName("x")
			var errs []string
			for _, v := range vs {
				var resp validator.StringResponse
				v.ValidateString(ctx, validator.StringRequest{Path: p, PathExpression: p.Expression(), ConfigValue: types.StringValue(value)}, &resp)
				for _, d := range resp.Diagnostics.Errors() {
					errs = append(errs, d.Detail())
				}
			}
			switch {
			case want == "" && len(errs) != 0:
				t.Errorf("%s = %q: unexpected errors %q", name, value, errs)
			case want != "" && (len(errs) != 1 || !strings.Contains(errs[0], want) || !strings.Contains(errs[0], "Attribute timeouts.x")):
				t.Errorf("%s = %q: errors %q, want one naming timeouts.x and saying %q", name, value, errs, want)
			}
		}
	}
}

// deadlineRecorder passes requests on to http.DefaultTransport and records,
// for each whose method and path start match, how long its context had left
// before its deadline (zero when it had none).
type deadlineRecorder struct {
	method, pathPrefix string
	mu                 sync.Mutex
	left               []time.Duration
}

func (d *deadlineRecorder) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Method == d.method && strings.HasPrefix(req.URL.Path, d.pathPrefix) {
		var left time.Duration
		if deadline, ok := req.Context().Deadline(); ok {
			left = time.Until(deadline)
		}
		d.mu.Lock()
		d.left = append(d.left, left)
		d.mu.Unlock()
	}
	return http.DefaultTransport.RoundTrip(req)
}

// TestWaitLimits_defaultsAndSettings: each wait is bounded by its own
// timeouts setting, and by the documented default when it is left out (an
// upload by none): seen from the requests' contexts, which carry the
// deadline, so no test waits the hour of a default. Only the docs said
// which default each wait had.
func TestWaitLimits_defaultsAndSettings(t *testing.T) {
	ctx := context.Background()
	_, url := acctest.FakeServer(t, fakeserver.Options{})
	type wait struct {
		name    string
		method  string
		path    string
		setting string        // the timeouts attribute that bounds it
		def     time.Duration // its default; zero for none
		run     func(t *testing.T, c *client.Client, setting tftypes.Value) diag.Diagnostics
	}
	// timeoutsObject is a timeouts value with only setting given.
	timeoutsObject := func(typ tftypes.Type, setting string, v tftypes.Value) tftypes.Value {
		return objectValue(typ.(tftypes.Object), map[string]tftypes.Value{setting: v})
	}
	// dataSourceRead reads a job through the data source, waiting for it
	// to end or not.
	dataSourceRead := func(wait bool) func(t *testing.T, c *client.Client, v tftypes.Value) diag.Diagnostics {
		return func(t *testing.T, c *client.Client, v tftypes.Value) diag.Diagnostics {
			job, err := c.CreatePreRecorded(ctx, &client.InitTranscriptionRequest{AudioURL: "https://example.com/standup.wav"})
			if err != nil {
				t.Fatal(err)
			}
			d := &jobDataSource{data: &ProviderData{Client: c}, poll: testPollSchedule}
			var schemaResp datasource.SchemaResponse
			d.Schema(ctx, datasource.SchemaRequest{}, &schemaResp)
			typ := schemaResp.Schema.Type().TerraformType(ctx).(tftypes.Object)
			config := tfsdk.Config{Schema: schemaResp.Schema, Raw: frameworktest.Object(t, schemaResp.Schema.Type(), map[string]tftypes.Value{
				"id":                  frameworktest.String(job.ID),
				"wait_for_completion": tftypes.NewValue(tftypes.Bool, wait),
				"timeouts":            timeoutsObject(typ.AttributeTypes["timeouts"], "read", v),
			})}
			resp := datasource.ReadResponse{State: tfsdk.State{Schema: schemaResp.Schema, Raw: tftypes.NewValue(typ, nil)}}
			d.Read(ctx, datasource.ReadRequest{Config: config}, &resp)
			return resp.Diagnostics
		}
	}
	waits := []wait{
		{"resource create", http.MethodGet, "/v2/pre-recorded/", "create", defaultWaitTimeout, func(t *testing.T, c *client.Client, v tftypes.Value) diag.Diagnostics {
			r := &jobResource{data: &ProviderData{Client: c}, poll: testPollSchedule}
			return createJobInProcess(t, r, func(typ tftypes.Object) map[string]tftypes.Value {
				return map[string]tftypes.Value{
					"audio_url":           frameworktest.String("https://example.com/standup.wav"),
					"wait_for_completion": tftypes.NewValue(tftypes.Bool, true),
					"timeouts":            timeoutsObject(typ.AttributeTypes["timeouts"], "create", v),
				}
			}).Diagnostics
		}},
		{"resource delete", http.MethodDelete, "/v2/pre-recorded/", "delete", defaultDeleteTimeout, func(t *testing.T, c *client.Client, v tftypes.Value) diag.Diagnostics {
			job, err := c.CreatePreRecorded(ctx, &client.InitTranscriptionRequest{AudioURL: "https://example.com/standup.wav"})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := waitForFinalJob(ctx, c, job.ID, testPollSchedule, client.FullDetail, nil); err != nil {
				t.Fatal(err)
			}
			r := &jobResource{data: &ProviderData{Client: c}, poll: testPollSchedule}
			s := jobSchema(ctx)
			typ := s.Type().TerraformType(ctx).(tftypes.Object)
			state := tfsdk.State{Schema: s, Raw: frameworktest.Object(t, s.Type(), map[string]tftypes.Value{
				"id":       frameworktest.String(job.ID),
				"timeouts": timeoutsObject(typ.AttributeTypes["timeouts"], "delete", v),
			})}
			var resp resource.DeleteResponse
			r.Delete(ctx, resource.DeleteRequest{State: state}, &resp)
			return resp.Diagnostics
		}},
		{"resource refresh", http.MethodGet, "/v2/pre-recorded/", "read", defaultReadTimeout, func(t *testing.T, c *client.Client, v tftypes.Value) diag.Diagnostics {
			job, err := c.CreatePreRecorded(ctx, &client.InitTranscriptionRequest{AudioURL: "https://example.com/standup.wav"})
			if err != nil {
				t.Fatal(err)
			}
			// Last seen queued: a job that has ended is not read again.
			return readJobState(ctx, t, &ProviderData{Client: c}, map[string]tftypes.Value{
				"id":        frameworktest.String(job.ID),
				"audio_url": frameworktest.String("https://example.com/standup.wav"),
				"status":    frameworktest.String(client.StatusQueued),
				"timeouts":  timeoutsObject(jobTimeoutsType(ctx), "read", v),
			}).Diagnostics
		}},
		{"data source read", http.MethodGet, "/v2/pre-recorded/", "read", defaultWaitTimeout, dataSourceRead(true)},
		{"data source read without waiting", http.MethodGet, "/v2/pre-recorded/", "read", defaultWaitTimeout, dataSourceRead(false)},
		{"action invoke", http.MethodGet, "/v2/pre-recorded/", "invoke", defaultWaitTimeout, func(t *testing.T, c *client.Client, v tftypes.Value) diag.Diagnostics {
			a := &transcribeAction{data: &ProviderData{Client: c}, poll: testPollSchedule}
			var schemaResp action.SchemaResponse
			a.Schema(ctx, action.SchemaRequest{}, &schemaResp)
			typ := schemaResp.Schema.Type().TerraformType(ctx).(tftypes.Object)
			config := tfsdk.Config{Schema: schemaResp.Schema, Raw: frameworktest.Object(t, schemaResp.Schema.Type(), map[string]tftypes.Value{
				"audio_url": frameworktest.String("https://example.com/standup.wav"),
				"timeouts":  timeoutsObject(typ.AttributeTypes["timeouts"], "invoke", v),
			})}
			resp := &action.InvokeResponse{SendProgress: func(action.InvokeProgressEvent) {}}
			a.Invoke(ctx, action.InvokeRequest{Config: config}, resp)
			return resp.Diagnostics
		}},
		{"upload", http.MethodPost, "/v2/upload", "create", 0, func(t *testing.T, c *client.Client, v tftypes.Value) diag.Diagnostics {
			source := filepath.Join(t.TempDir(), "note.wav")
			writeTestWAV(t, source, 0.1, 1, 8000, 440)
			r := &uploadResource{data: &ProviderData{Client: c}}
			var schemaResp resource.SchemaResponse
			r.Schema(ctx, resource.SchemaRequest{}, &schemaResp)
			var idResp resource.IdentitySchemaResponse
			r.IdentitySchema(ctx, resource.IdentitySchemaRequest{}, &idResp)
			typ := schemaResp.Schema.Type().TerraformType(ctx).(tftypes.Object)
			raw := frameworktest.Object(t, schemaResp.Schema.Type(), map[string]tftypes.Value{
				"source":   frameworktest.String(source),
				"timeouts": timeoutsObject(typ.AttributeTypes["timeouts"], "create", v),
			})
			resp := resource.CreateResponse{
				State:    tfsdk.State{Schema: schemaResp.Schema, Raw: tftypes.NewValue(typ, nil)},
				Identity: &tfsdk.ResourceIdentity{Schema: idResp.IdentitySchema, Raw: tftypes.NewValue(idResp.IdentitySchema.Type().TerraformType(ctx), nil)},
			}
			r.Create(ctx, resource.CreateRequest{Plan: tfsdk.Plan{Schema: schemaResp.Schema, Raw: raw}, Config: tfsdk.Config{Schema: schemaResp.Schema, Raw: raw}}, &resp)
			return resp.Diagnostics
		}},
	}
	for _, w := range waits {
		for _, tc := range []struct {
			name    string
			setting tftypes.Value
			want    time.Duration
		}{
			{"default", tftypes.NewValue(tftypes.String, nil), w.def},
			{"7m", frameworktest.String("7m"), 7 * time.Minute},
		} {
			t.Run(fmt.Sprintf("%s/timeouts.%s=%s", w.name, w.setting, tc.name), func(t *testing.T) {
				rec := &deadlineRecorder{method: w.method, pathPrefix: w.path}
				c, err := client.New(client.Config{BaseURL: url, APIKey: acctest.APIKey, HTTPClient: &http.Client{Transport: rec}})
				if err != nil {
					t.Fatal(err)
				}
				if diags := w.run(t, c, tc.setting); diags.HasError() {
					t.Fatalf("diagnostics: %v", diags)
				}
				rec.mu.Lock()
				defer rec.mu.Unlock()
				if len(rec.left) == 0 {
					t.Fatalf("no %s %s… request was made", w.method, w.path)
				}
				// The first request is made at once, so its deadline is the
				// limit less a few milliseconds (a minute's margin for slow
				// machines); none at all (zero left) without a limit.
				if got := rec.left[0]; got > tc.want || got < tc.want-time.Minute {
					t.Errorf("the first %s had %s left before its deadline, want the limit of timeouts.%s, %s", w.method, got, w.setting, tc.want)
				}
			})
		}
	}
}

// timeoutsRewritten takes the applied timeouts written another way as
// unchanged, and nothing else: a duration that differs, one set or unset,
// a value not yet known, or none at all.
func TestTimeoutsRewritten(t *testing.T) {
	durations := tftypes.Object{AttributeTypes: map[string]tftypes.Type{"create": tftypes.String, "read": tftypes.String}}
	resourceType := tftypes.Object{AttributeTypes: map[string]tftypes.Type{"timeouts": durations}}
	str := func(s string) tftypes.Value { return tftypes.NewValue(tftypes.String, s) }
	null := tftypes.NewValue(tftypes.String, nil)
	withTimeouts := func(create, read tftypes.Value) tftypes.Value {
		return tftypes.NewValue(resourceType, map[string]tftypes.Value{"timeouts": tftypes.NewValue(durations, map[string]tftypes.Value{"create": create, "read": read})})
	}
	noTimeouts := tftypes.NewValue(resourceType, map[string]tftypes.Value{"timeouts": tftypes.NewValue(durations, nil)})
	applied := withTimeouts(str("1h"), str("20m"))
	for name, tc := range map[string]struct {
		config, state tftypes.Value
		want          bool
	}{
		"same durations written otherwise": {withTimeouts(str("60m"), str("1200s")), applied, true},
		"one written otherwise":            {withTimeouts(str("1h0m0s"), str("20m")), applied, true},
		"written alike":                    {applied, applied, false},
		"a longer duration":                {withTimeouts(str("61m"), str("20m")), applied, false},
		"one unset":                        {withTimeouts(str("60m"), null), applied, false},
		"one set":                          {withTimeouts(str("60m"), str("20m")), withTimeouts(str("1h"), null), false},
		"not yet known":                    {withTimeouts(tftypes.NewValue(tftypes.String, tftypes.UnknownValue), str("20m")), applied, false},
		"not a duration":                   {withTimeouts(str("an hour"), str("20m")), applied, false},
		"none configured":                  {noTimeouts, applied, false},
		"none applied":                     {withTimeouts(str("60m"), str("20m")), noTimeouts, false},
	} {
		t.Run(name, func(t *testing.T) {
			if got := timeoutsRewritten(tc.config, tc.state); got != tc.want {
				t.Errorf("timeoutsRewritten = %t, want %t", got, tc.want)
			}
		})
	}
}
