package provider

// In-process tests of transcription_upload's plan and apply: the provider
// behind its protocol-6 server, called as Terraform calls it (see
// protoHarness), against a fake server or a handler of the test's.

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/transcription-service/terraform-provider-transcription/internal/acctest"
	"github.com/transcription-service/terraform-provider-transcription/internal/fakeserver"
)

const uploadTypeName = "transcription_upload"

// uploadBench is one transcription_upload of source, planned and applied
// through a protoHarness.
type uploadBench struct {
	*protoHarness
	typ    tftypes.Object
	source string
	config tfprotov6.DynamicValue
	null   tfprotov6.DynamicValue
}

func newUploadBench(h *protoHarness, source string) *uploadBench {
	typ := h.resourceType(uploadTypeName)
	u := &uploadBench{protoHarness: h, typ: typ, source: source, null: dynamicValue(h.tb, typ, tftypes.NewValue(typ, nil))}
	u.config = u.configOf(source)
	return u
}

// configOf is the configuration of the upload naming source.
func (u *uploadBench) configOf(source string) tfprotov6.DynamicValue {
	return dynamicValue(u.tb, u.typ, objectValue(u.typ, map[string]tftypes.Value{"source": tftypes.NewValue(tftypes.String, source)}))
}

func (u *uploadBench) planCreate() *tfprotov6.DynamicValue {
	return u.planChange(uploadTypeName, &u.null, &u.config, &u.config).PlannedState
}

// tryApply applies planned over prior, errors included.
func (u *uploadBench) tryApply(prior, planned, config *tfprotov6.DynamicValue) *tfprotov6.ApplyResourceChangeResponse {
	u.tb.Helper()
	resp, err := u.server.ApplyResourceChange(context.Background(), &tfprotov6.ApplyResourceChangeRequest{
		TypeName: uploadTypeName, PriorState: prior, PlannedState: planned, Config: config,
	})
	if err != nil {
		u.tb.Fatal(err)
	}
	return resp
}

// attribute is the value of state's attribute name.
func (u *uploadBench) attribute(state *tfprotov6.DynamicValue, name string) tftypes.Value {
	u.tb.Helper()
	return objectAttributes(u.tb, u.typ, state)[name]
}

// madeUpload uploads a short recording, memo.wav, through a harness of
// its own, and returns its bench and state.
func madeUpload(t *testing.T) (*uploadBench, *tfprotov6.DynamicValue) {
	t.Helper()
	source := filepath.Join(t.TempDir(), "memo.wav")
	writeTestWAV(t, source, 0.5, 1, 8000, 440)
	u := newUploadBench(newProtoHarness(t, fakeserver.Options{}), source)
	return u, u.applyChange(uploadTypeName, &u.null, u.planCreate(), &u.config).NewState
}

// sourceError returns the error diagnostic on source of summary, failing
// the test when there is none.
func sourceError(tb testing.TB, diags []*tfprotov6.Diagnostic, summary string) *tfprotov6.Diagnostic {
	tb.Helper()
	for _, d := range diags {
		if d.Severity == tfprotov6.DiagnosticSeverityError && d.Summary == summary &&
			d.Attribute != nil && d.Attribute.Equal(tftypes.NewAttributePath().WithAttributeName("source")) {
			return d
		}
	}
	tb.Fatalf("no error %q on source in %v", summary, diags)
	return nil
}

// The upload's identity is its id on the service, from its creation on,
// and stays so through a refresh and an update to another path of the
// same file.
func TestUploadApply_identityIsTheUploadID(t *testing.T) {
	dir := t.TempDir()
	source := filepath.Join(dir, "memo.wav")
	writeTestWAV(t, source, 0.5, 1, 8000, 440)
	u := newUploadBench(newProtoHarness(t, fakeserver.Options{}), source)

	created := u.applyChange(uploadTypeName, &u.null, u.planCreate(), &u.config)
	expectIdentityID(t, "create", created.NewIdentity, u.attribute(created.NewState, "id"))

	read, err := u.server.ReadResource(context.Background(), &tfprotov6.ReadResourceRequest{TypeName: uploadTypeName, CurrentState: created.NewState})
	if err != nil {
		t.Fatal(err)
	}
	failOnDiagnostics(t, "ReadResource", read.Diagnostics)
	expectIdentityID(t, "read", read.NewIdentity, u.attribute(read.NewState, "id"))

	moved := filepath.Join(dir, "archive", "memo.wav")
	writeTestWAV(t, moved, 0.5, 1, 8000, 440)
	config := u.configOf(moved)
	planned := u.planChange(uploadTypeName, read.NewState, &config, &config)
	if len(planned.RequiresReplace) != 0 {
		t.Fatalf("another path to the same file plans a replacement: %v", planned.RequiresReplace)
	}
	updated := u.applyChange(uploadTypeName, read.NewState, planned.PlannedState, &config)
	expectIdentityID(t, "update", updated.NewIdentity, u.attribute(updated.NewState, "id"))
	if got := u.attribute(updated.NewState, "source"); !got.Equal(tftypes.NewValue(tftypes.String, moved)) {
		t.Errorf("source after the update %v, want %q", got, moved)
	}
	if n := len(uploadRequests(u.fake)); n != 1 {
		t.Errorf("the service received %d uploads, want the first one only", n)
	}
}

// The file hashed at plan may be gone, or no longer a file, when the apply
// hashes it again: the apply fails naming the path and why, before any
// upload, and saves nothing.
func TestUploadApply_fileUnreadableAtApply(t *testing.T) {
	for _, tc := range []struct {
		name   string
		change func(path string) error
		reason string
	}{
		{"removed", os.Remove, "cannot be read: no such file or directory."},
		{"now a directory", func(path string) error {
			if err := os.Remove(path); err != nil {
				return err
			}
			return os.Mkdir(path, 0o700)
		}, "cannot be read: is a directory."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			source := filepath.Join(t.TempDir(), "call.wav")
			writeTestWAV(t, source, 0.5, 1, 8000, 440)
			u := newUploadBench(newProtoHarness(t, fakeserver.Options{}), source)
			planned := u.planCreate()
			if err := tc.change(source); err != nil {
				t.Fatal(err)
			}

			resp := u.tryApply(&u.null, planned, &u.config)
			d := sourceError(t, resp.Diagnostics, "Cannot read the file to upload")
			// An absolute path: the advice on relative ones would not help
			// (TestAddSourceError_adviceFitsThePath).
			if want := fmt.Sprintf("The file %q %s", source, tc.reason); !strings.Contains(d.Detail, want) || strings.Contains(d.Detail, "path.module") {
				t.Errorf("detail %q, want %q without the advice on relative paths", d.Detail, want)
			}
			if n := len(uploadRequests(u.fake)); n != 0 {
				t.Errorf("the service received %d uploads, want none", n)
			}
			if state, err := resp.NewState.Unmarshal(u.typ); err != nil || !state.IsNull() {
				t.Errorf("the failed apply saved %v (%v)", state, err)
			}
		})
	}
}

// A file written to while it is uploaded is refused before the service has
// it whole: the test's service reads the start of the body, lets the test
// change the file, then reads on. The file is far larger than what the
// sockets buffer, so the provider has not read its end when it changes.
func TestUploadApply_fileChangedWhileUploaded(t *testing.T) {
	const size = 32 << 20
	const readFirst = 1 << 20
	for _, tc := range []struct {
		name   string
		change func(f *os.File) error
		detail func(source, planned string) string
	}{
		{
			name:   "same size, other bytes",
			change: func(f *os.File) error { _, err := f.WriteAt([]byte("edited"), size-6); return err },
			detail: func(source, planned string) string {
				return fmt.Sprintf("%s changed while it was being uploaded: its SHA-256 was %s and is now ", source, planned)
			},
		},
		{
			// The file's own end comes first: its digest tells.
			name:   "shorter",
			change: func(f *os.File) error { return f.Truncate(size / 2) },
			detail: func(source, planned string) string {
				return fmt.Sprintf("%s changed while it was being uploaded: its SHA-256 was %s and is now ", source, planned)
			},
		},
		{
			// Past the size announced: the upload stops before its end.
			name:   "longer",
			change: func(f *os.File) error { _, err := f.WriteAt([]byte("more"), size); return err },
			detail: func(source, _ string) string {
				return fmt.Sprintf("The size of %q is no longer the %d bytes read when the upload started.", source, size)
			},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			source := filepath.Join(t.TempDir(), "long.wav")
			f, err := os.Create(source)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			if err := f.Truncate(size); err != nil { // sparse: no disk needed
				t.Fatal(err)
			}
			planned := hexSHA256(make([]byte, size))

			paused, resume := make(chan struct{}), make(chan struct{})
			var once sync.Once
			received := make(chan error, 1)
			fs := fakeserver.New(fakeserver.Options{APIKey: acctest.APIKey})
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if r.URL.Path != "/v2/upload" {
					fs.ServeHTTP(w, r)
					return
				}
				_, err := r.Body.Read(make([]byte, readFirst))
				once.Do(func() { close(paused) })
				<-resume
				for err == nil {
					_, err = r.Body.Read(make([]byte, readFirst))
				}
				received <- err
				w.WriteHeader(http.StatusBadRequest)
			}))
			t.Cleanup(func() { srv.Close(); fs.Close() })
			u := newUploadBench(newProtoHarnessAt(t, fs, srv.URL), source)
			plan := u.planCreate()

			applied := make(chan *tfprotov6.ApplyResourceChangeResponse, 1)
			go func() {
				resp, _ := u.server.ApplyResourceChange(context.Background(), &tfprotov6.ApplyResourceChangeRequest{
					TypeName: uploadTypeName, PriorState: &u.null, PlannedState: plan, Config: &u.config,
				})
				applied <- resp
			}()
			select {
			case <-paused:
			case resp := <-applied:
				t.Fatalf("the apply ended before the service read the body: %v", resp.Diagnostics)
			}
			if err := tc.change(f); err != nil {
				t.Fatal(err)
			}
			close(resume)
			resp := <-applied

			d := sourceError(t, resp.Diagnostics, "The file to upload changed during the upload")
			if want := tc.detail(source, planned); !strings.Contains(d.Detail, want) || !strings.Contains(d.Detail, "The upload was stopped before it completed.") {
				t.Errorf("detail %q, want %q and that the upload was stopped", d.Detail, want)
			}
			if err := <-received; err == nil || err.Error() == "EOF" {
				t.Errorf("the service read the whole body (%v), want it cut short", err)
			}
			if state, err := resp.NewState.Unmarshal(u.typ); err != nil || !state.IsNull() {
				t.Errorf("the failed apply saved %v (%v)", state, err)
			}
		})
	}
}

// A source known only at apply (another resource's output) is hashed then:
// the plan reads no file and leaves the digest unknown.
func TestUploadPlan_unknownSource(t *testing.T) {
	u := newUploadBench(newProtoHarness(t, fakeserver.Options{}), "")
	config := dynamicValue(t, u.typ, objectValue(u.typ, map[string]tftypes.Value{"source": tftypes.NewValue(tftypes.String, tftypes.UnknownValue)}))
	planned := u.planChange(uploadTypeName, &u.null, &config, &config)
	for _, name := range []string{"source", "sha256", "id", "audio_url"} {
		if v := u.attribute(planned.PlannedState, name); v.IsKnown() {
			t.Errorf("planned %s %v, want unknown", name, v)
		}
	}
}

// A plan interrupted while it hashes the file of an upload made fails
// saying so (the file is not reported unreadable).
func TestUploadPlan_interruptedWhileHashing(t *testing.T) {
	u, made := madeUpload(t)
	source := u.source
	interrupted, cancel := context.WithCancel(context.Background())
	cancel()
	resp, err := u.server.PlanResourceChange(interrupted, &tfprotov6.PlanResourceChangeRequest{
		TypeName: uploadTypeName, PriorState: made, ProposedNewState: &u.config, Config: &u.config,
	})
	if err != nil {
		t.Fatal(err)
	}
	d := sourceError(t, resp.Diagnostics, "Interrupted while hashing the file to upload")
	if want := fmt.Sprintf("Terraform was interrupted while the provider hashed %q to plan its upload.", source); d.Detail != want {
		t.Errorf("detail %q, want %q", d.Detail, want)
	}
	if len(resp.Diagnostics) != 1 {
		t.Errorf("diagnostics %v, want only the interruption", resp.Diagnostics)
	}
}

// TestUploadPlan_stoppedProvider: the provider's own signal ends the
// hashing too: Terraform 1.8 and OpenTofu send no StopProvider while an
// apply plans, so a terminal's Ctrl-C let a large file be hashed whole
// before the CLI could exit.
func TestUploadPlan_stoppedProvider(t *testing.T) {
	u, made := madeUpload(t)
	stopped, stop := context.WithCancel(context.Background())
	stop()
	server, _ := startServer(t, providerserver.NewProtocol6WithError(NewStoppable("test", stopped)()), u.url)
	resp, err := server.PlanResourceChange(context.Background(), &tfprotov6.PlanResourceChangeRequest{
		TypeName: uploadTypeName, PriorState: made, ProposedNewState: &u.config, Config: &u.config,
	})
	if err != nil {
		t.Fatal(err)
	}
	sourceError(t, resp.Diagnostics, "Interrupted while hashing the file to upload")
}

// A new upload's digest is planned unknown, so its plan does not read the
// file whole: a recording of hundreds of MB took seconds to hash at every
// plan, for a digest thrown away. Measured as the bytes this process reads
// (Linux's /proc/self/io rchar) while a new upload of a 256 MB file is
// planned, then while the same file's upload made is planned (which hashes
// it, to tell a new content).
func TestUploadPlan_newUploadDoesNotHash(t *testing.T) {
	readBytes := func() int64 {
		t.Helper()
		stats, err := os.ReadFile("/proc/self/io")
		if err != nil {
			t.Skip("no /proc/self/io to count the bytes read:", err)
		}
		for _, line := range strings.Split(string(stats), "\n") {
			if v, ok := strings.CutPrefix(line, "rchar: "); ok {
				n, err := strconv.ParseInt(v, 10, 64)
				if err != nil {
					t.Fatal(err)
				}
				return n
			}
		}
		t.Fatalf("no rchar in /proc/self/io:\n%s", stats)
		return 0
	}
	const size = 256 << 20
	u, made := madeUpload(t)
	// The recording uploaded, then grown to 256 MB (sparse: nothing written).
	if err := os.Truncate(u.source, size); err != nil {
		t.Fatal(err)
	}
	before := readBytes()
	planned := u.planCreate()
	newUpload := readBytes() - before
	if v := u.attribute(planned, "sha256"); v.IsKnown() {
		t.Errorf("a new upload planned sha256 %v, want unknown", v)
	}
	before = readBytes()
	u.planChange(uploadTypeName, made, &u.config, &u.config)
	uploadMade := readBytes() - before
	if uploadMade < size {
		t.Fatalf("planning the upload made read %d bytes, less than its file's %d: the count does not see the hash", uploadMade, size)
	}
	if newUpload > size/4 {
		t.Errorf("planning a new upload read %d bytes of a %d-byte file, want only enough to know it can be read", newUpload, size)
	}
}

// An upload whose file is gone keeps its digest through a change made in
// place (new timeouts), with the warning naming the file: the digest of a
// file that cannot be read is not known, and the upload stays as it is.
func TestUploadPlan_fileGoneKeepsTheDigestThroughAnUpdate(t *testing.T) {
	u, made := madeUpload(t)
	source := u.source
	if err := os.Remove(source); err != nil {
		t.Fatal(err)
	}

	timeoutsType := u.typ.AttributeTypes["timeouts"].(tftypes.Object)
	set := map[string]tftypes.Value{"timeouts": objectValue(timeoutsType, map[string]tftypes.Value{"create": tftypes.NewValue(tftypes.String, "10m")})}
	config := dynamicValue(t, u.typ, objectValue(u.typ, map[string]tftypes.Value{"source": tftypes.NewValue(tftypes.String, source), "timeouts": set["timeouts"]}))
	proposed := withAttributes(t, u.typ, made, set)
	planned := u.planChange(uploadTypeName, made, &proposed, &config)
	if !hasWarning(planned.Diagnostics, "The uploaded file can no longer be read", fmt.Sprintf("The file %q cannot be read: no such file or directory.", source)) {
		t.Errorf("no warning naming the file: %v", planned.Diagnostics)
	}
	if got, want := u.attribute(planned.PlannedState, "sha256"), u.attribute(made, "sha256"); !got.Equal(want) {
		t.Errorf("planned sha256 %v, want the upload's %v", got, want)
	}
	updated := u.applyChange(uploadTypeName, made, planned.PlannedState, &config)
	if got, want := u.attribute(updated.NewState, "audio_url"), u.attribute(made, "audio_url"); !got.Equal(want) {
		t.Errorf("audio_url after the update %v, want the upload's %v", got, want)
	}
}

// A file whose content changed since its upload plans a replacement on
// sha256, with everything the new upload decides unknown: the old id,
// URL and metadata would show a plan that keeps them.
func TestUploadPlan_changedContentReplaces(t *testing.T) {
	u, made := madeUpload(t)
	source := u.source
	writeTestWAV(t, source, 0.5, 1, 8000, 220)

	planned := u.planChange(uploadTypeName, made, made, &u.config)
	if want := tftypes.NewAttributePath().WithAttributeName("sha256"); len(planned.RequiresReplace) != 1 || !planned.RequiresReplace[0].Equal(want) {
		t.Errorf("replacement planned on %v, want on sha256", planned.RequiresReplace)
	}
	for _, name := range []string{"sha256", "id", "audio_url", "audio_metadata"} {
		if v := u.attribute(planned.PlannedState, name); v.IsKnown() {
			t.Errorf("planned %s %v, want unknown", name, v)
		}
	}
}
