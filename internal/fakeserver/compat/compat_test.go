//go:build compat

package compat

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"regexp"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/transcription-service/terraform-provider-transcription/internal/fakeserver"
)

const apiKey = "compat-test-key"

// calledEndpoints are the endpoints the official client's job-management
// methods use; each must have been called, and answered, during the run.
var calledEndpoints = []string{
	"POST /v2/upload",
	"POST /v2/pre-recorded",
	"GET /v2/pre-recorded",
	"GET /v2/pre-recorded/{id}",
	"DELETE /v2/pre-recorded/{id}",
	"GET /v2/pre-recorded/{id}/file",
	"GET /v2/live",
	"GET /v2/live/{id}",
	"DELETE /v2/live/{id}",
	"GET /v2/live/{id}/file",
}

var idSegment = regexp.MustCompile(`/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}`)

// installOfficialClient installs the official client (and the TypeScript
// compiler) with npm ci, once per run, and returns node's path. It skips the
// test when npm is not installed.
func installOfficialClient(t *testing.T) string {
	t.Helper()
	npm, err := exec.LookPath("npm")
	if err != nil {
		t.Skip("npm is not installed: skipping the official JavaScript client's compatibility test (install Node.js 20+ and npm to run it)")
	}
	node, err := exec.LookPath("node")
	if err != nil {
		t.Fatal("npm is installed but node is not on PATH")
	}
	install.Do(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
		defer cancel()
		out, err := exec.CommandContext(ctx, npm, "ci", "--include=dev", "--no-audit", "--no-fund", "--loglevel=error").CombinedOutput()
		if err != nil {
			installErr = fmt.Errorf("npm ci: %w\n%s", err, out)
		}
	})
	if installErr != nil {
		t.Fatal(installErr)
	}
	return node
}

var (
	install    sync.Once
	installErr error
)

func TestOfficialJavaScriptClient(t *testing.T) {
	node := installOfficialClient(t)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()

	fs := fakeserver.New(fakeserver.Options{APIKey: apiKey, ProcessingTime: 300 * time.Millisecond, LiveJobs: 40})
	srv := httptest.NewServer(fs) // 127.0.0.1
	t.Cleanup(func() { srv.Close(); fs.Close() })

	args := []string{"--test", "--test-reporter=spec", "official-client.test.mjs"}
	// Node 20 has WebSocket (connectSession) only behind this flag; a Node
	// that does not take it runs without, and the test skips.
	if exec.CommandContext(ctx, node, "--experimental-websocket", "-e", "").Run() == nil {
		args = append([]string{"--experimental-websocket"}, args...)
	}
	cmd := exec.CommandContext(ctx, node, args...)
	cmd.Env = append(cleanEnv(), "BASE_URL="+srv.URL, "API_KEY="+apiKey, "WORK_DIR="+t.TempDir())
	out, err := cmd.CombinedOutput()
	t.Logf("node --test official-client.test.mjs:\n%s", out)
	if err != nil {
		t.Fatalf("the official client failed against the fake server: %v", err)
	}

	answered := map[string]bool{}
	for _, r := range fs.Requests() {
		if r.Status >= 200 && r.Status < 300 {
			answered[r.Method+" "+idSegment.ReplaceAllString(r.Path, "/{id}")] = true
		}
		// A live session's socket is opened without it: its URL carries
		// the session's token.
		if got := r.Header.Get("x-service-key"); got == "" && r.Status != http.StatusSwitchingProtocols {
			t.Errorf("%s %s came without x-service-key", r.Method, r.Path)
		}
	}
	var missing []string
	for _, e := range calledEndpoints {
		if !answered[e] {
			missing = append(missing, e)
		}
	}
	sort.Strings(missing)
	if len(missing) > 0 {
		t.Errorf("the run never had these answered with 2xx: %s", strings.Join(missing, ", "))
	}
}

// cleanEnv is the environment without the official client's own settings,
// so that a developer's key or address cannot leak into the run.
func cleanEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "GLADIA_") {
			env = append(env, kv)
		}
	}
	return env
}
