package provider

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-log/tflogtest"

	"github.com/transcription-service/terraform-provider-transcription/internal/client"
)

// The adapter writes through terraform-plugin-log and masks the key in
// messages and fields.
func TestTflogLogger_masksTheKey(t *testing.T) {
	const key = "sk-live-5ecret"
	var out bytes.Buffer
	ctx := tflogtest.RootLogger(context.Background(), &out)
	// As Configure makes it, with no level set.
	l := newTflogLogger(key, func(string) string { return "" })
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

// A record logged at TRACE holds its callback URLs (request_params), whose
// query or path may carry a token: they are masked, whole or cut short.
func TestTflogLogger_masksCallbackURLs(t *testing.T) {
	const token = "cbtok_s3cr3t"
	var out bytes.Buffer
	ctx := tflogtest.RootLogger(context.Background(), &out)
	l := newTflogLogger("sk-unrelated-key", func(string) string { return "" })
	l.Trace(ctx, "transcription API response body", map[string]any{"body": `{"id":"1","audio_url":"https://example.com/a.wav","request_params":{"callback_url":"https://h.example.com/x?token=` + token + `","callback_config":{"url" : "https:\/\/h.example.com\/` + token + `\"q","method":"PUT"}}}`})
	l.Trace(ctx, "transcription API response body", map[string]any{"body": `{"request_params":{"callback_config":{"url":"https://h.example.com/?t=` + token})
	// Cut short in its path, where no query masking reaches the token.
	l.Trace(ctx, "transcription API response body", map[string]any{"body": `{"request_params":{"callback_url":"https://h.example.com/hooks/` + token})
	logged := out.String()
	if strings.Contains(logged, token) {
		t.Fatalf("a callback token appears in the log:\n%s", logged)
	}
	if !strings.Contains(logged, "https://example.com/a.wav") || !strings.Contains(logged, "PUT") {
		t.Fatalf("more than the callback URLs was masked:\n%s", logged)
	}
}

// A logged body's URLs keep what locates them and lose what may be a
// credential (user information, query, fragment), in the forms JSON gives
// them; other text, and the other fields, stay as they are.
func TestWithoutURLCredentials(t *testing.T) {
	for body, want := range map[string]string{
		`{"audio_url":"https://media.example.com/a.wav?X-Amz-Signature=s3cr3t"}`:              `{"audio_url":"https://media.example.com/a.wav?***"}`,
		`{"source":"https:\/\/media.example.com\/b\/a.wav?sig=s3cr3t\u0026x=1"}`:              `{"source":"https:\/\/media.example.com\/b\/a.wav?***"}`,
		`{"source":"https://user:s3cr3t@media.example.com/a.wav"}`:                            `{"source":"https://***@media.example.com/a.wav"}`,
		`{"source":"https:\/\/user:s3cr3t@media.example.com\/a.wav"}`:                         `{"source":"https:\/\/***@media.example.com\/a.wav"}`,
		`{"source":"https://user:p\u0026s3cr3t@media.example.com/a.wav#s3cr3t"}`:              `{"source":"https://***@media.example.com/a.wav?***"}`,
		`{"audio_url":"http://media.example.com/a.wav","result_url":"http://h/v2/x"}`:         `{"audio_url":"http://media.example.com/a.wav","result_url":"http://h/v2/x"}`,
		`{"full_transcript":"Is it https or not? Yes: see https://example.com/faq."}`:         `{"full_transcript":"Is it https or not? Yes: see https://example.com/faq."}`,
		`{"a":"https://m.example.com/a.wav?sig=s3cr3t","b":"https://m.example.com/b?t=s3cr3t`: `{"a":"https://m.example.com/a.wav?***","b":"https://m.example.com/b?***`,
		// A path holding a JSON escape: a non-ASCII letter from an encoder
		// that writes ASCII only, an & from Go's (which escapes it as HTML).
		`{"audio_url":"https://m.example.com/r\u00e9union.wav?X-Amz-Signature=s3cr3t"}`: `{"audio_url":"https://m.example.com/r\u00e9union.wav?***"}`,
		`{"source":"https:\/\/m.example.com\/a\u0026b.wav?sig=s3cr3t"}`:                 `{"source":"https:\/\/m.example.com\/a\u0026b.wav?***"}`,
		// The scheme in capitals, which the URL validators accept (url.Parse
		// lowers it) and the service echoes as given.
		`{"audio_url":"HTTPS://m.example.com/a.wav?X-Amz-Signature=s3cr3t"}`: `{"audio_url":"HTTPS://m.example.com/a.wav?***"}`,
		`{"source":"Http://user:s3cr3t@m.example.com/a.wav"}`:                `{"source":"Http://***@m.example.com/a.wav"}`,
	} {
		fields := withoutURLCredentials(map[string]any{"body": body, "url": "https://api.example.com/v2/pre-recorded?status=done", "status": 200})
		if got := fields["body"]; got != want {
			t.Errorf("body %s\n got %s\nwant %s", body, got, want)
		}
		if fields["url"] != "https://api.example.com/v2/pre-recorded?status=done" || fields["status"] != 200 {
			t.Errorf("other fields changed: %v", fields)
		}
	}
	// A body cut short in a URL's authority: its "@" may be cut off. A
	// whole body ending in a URL keeps its host.
	for _, tc := range []struct {
		body, want string
		cut        bool
	}{
		{`{"audio_url":"https://user:s3cr3t`, `{"audio_url":"https://***`, true},
		{`{"audio_url":"https:\/\/user:s3c\u0026r3t`, `{"audio_url":"https:\/\/***`, true},
		{`{"audio_url":"https://user:s3cr3t\`, `{"audio_url":"https://***`, true},
		{`{"audio_url":"https://`, `{"audio_url":"https://`, true},
		{`Service moved: use https://api.example.com`, `Service moved: use https://api.example.com`, false},
	} {
		fields := map[string]any{"body": tc.body}
		if tc.cut {
			fields[client.LoggedBodyCutField] = true
		}
		if got := withoutURLCredentials(fields)["body"]; got != tc.want {
			t.Errorf("body %s (cut %t)\n got %s\nwant %s", tc.body, tc.cut, got, tc.want)
		}
	}
}

// Lines below the level the environment gives the provider's logger cost
// nothing: tflog would mask their fields (regular expressions over a 4 KiB
// body) before its logger dropped them. Lines at or above it are written,
// and an unset level leaves the choice to the logger.
func TestTflogLogger_dropsLinesBelowTheProviderLevel(t *testing.T) {
	body := strings.Repeat(`{"audio_url":"https://media.example.com/a.wav?sig=s3cr3t"},`, 60)
	for _, tc := range []struct {
		env        string
		wantTraces bool
	}{{"", true}, {"trace", true}, {"DEBUG", false}, {"OFF", false}} {
		t.Run("level "+tc.env, func(t *testing.T) {
			var out bytes.Buffer
			ctx := tflogtest.RootLogger(context.Background(), &out)
			l := newTflogLogger("sk-key", func(name string) string {
				if name == "TF_LOG_PROVIDER_TRANSCRIPTION" {
					return tc.env
				}
				return ""
			})
			fields := map[string]any{"op": "GET /v2/pre-recorded/1", "body": body}
			l.Trace(ctx, "transcription API response body", fields)
			l.Debug(ctx, "transcription API response", map[string]any{"status": 200})
			logged := out.String()
			if got := strings.Contains(logged, "response body"); got != tc.wantTraces {
				t.Errorf("trace line written: %v, want %v:\n%s", got, tc.wantTraces, logged)
			}
			if got, want := strings.Contains(logged, `"status":200`), tc.env != "OFF"; got != want {
				t.Errorf("debug line written: %v, want %v:\n%s", got, want, logged)
			}
			if !tc.wantTraces {
				if allocs := testing.AllocsPerRun(20, func() { l.Trace(ctx, "transcription API response body", fields) }); allocs != 0 {
					t.Errorf("a dropped trace line allocates %v times: its fields were masked", allocs)
				}
			}
		})
	}
}

// The credentials of the URLs in a logged body are masked in the lines of
// every level the client writes, not only in the TRACE line that holds the
// body today: the logger's promise does not depend on which level the
// client chooses.
func TestTflogLogger_masksURLCredentialsAtEveryLevel(t *testing.T) {
	var out bytes.Buffer
	ctx := tflogtest.RootLogger(context.Background(), &out)
	l := newTflogLogger("sk-unrelated-key", func(string) string { return "" })
	fields := map[string]any{"body": `{"audio_url":"https://media.example.com/a.wav?X-Amz-Signature=s3cr3t"}`}
	l.Debug(ctx, "debug line", fields)
	l.Trace(ctx, "trace line", fields)
	logged := out.String()
	if !strings.Contains(logged, "debug line") || !strings.Contains(logged, "trace line") {
		t.Fatalf("the lines were not written:\n%s", logged)
	}
	if strings.Contains(logged, "s3cr3t") {
		t.Fatalf("a presigned URL's signature appears in the log:\n%s", logged)
	}
	if n := strings.Count(logged, "https://media.example.com/a.wav?***"); n != 2 {
		t.Fatalf("the URL is not kept, without its query, in both lines (%d):\n%s", n, logged)
	}
}
