package client_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/transcription-service/terraform-provider-transcription/internal/client"
)

// echoedKey is an API key a server quotes back; echoedKeyPart is a piece
// of it that a copy cut short still holds.
const (
	echoedKey     = "sk_live_Echo7Pelican4Quartz_9d2e"
	echoedKeyPart = "Pelican4Quartz"
	// keyCut is how much of the key a copy cut just after echoedKeyPart keeps.
	keyCut = len("sk_live_Echo7Pelican4Quartz_")
)

// recordCutInTheKey is a job record whose first 4 KiB, read to find its
// status, end in the key's first cut bytes.
// recordedJobID is the id of the job recordCutInTheKey records.
const recordedJobID = "3fa85f64-5717-4562-b3fc-2c963f66afa6"

func recordCutInTheKey(cut int) string {
	head := `{"id":"` + recordedJobID + `","custom_metadata":{"note":"`
	return head + strings.Repeat("n", 4<<10-len(head)-cut) + echoedKey + `"},"status":"done"}`
}

// A service, or a gateway before it, may quote the request in its answer,
// the x-service-key header included: the key never reaches the client's
// errors nor its log lines, whole or cut short.
func TestErrors_neverQuoteTheKey(t *testing.T) {
	jsonError := func(message string, validation ...string) string {
		b, _ := json.Marshal(client.ErrorBody{StatusCode: 401, Message: message, RequestID: "r-1", ValidationErrors: validation})
		return string(b)
	}
	cases := []struct {
		name        string
		status      int
		contentType string
		body        string
		succeeds    bool
		// notLogged is text that must not reach the log beyond the key's
		// part, when the case puts less of the key where the log cuts.
		notLogged string
		// logged is text the log must show, when there is more to it than
		// the key's absence.
		logged string
	}{
		{"message", 401, "application/json", jsonError("invalid x-service-key " + echoedKey), false, "", ""},
		{"validation error", 400, "application/json", jsonError("bad request", "header x-service-key="+echoedKey+" is not allowed"), false, "", ""},
		// Cut short where the message is bounded (512 bytes), after the
		// key's part.
		{"message cut in the key", 401, "application/json", jsonError(strings.Repeat("m", 512-keyCut) + echoedKey), false, "", ""},
		// Cut short where a validation error is bounded (256 bytes).
		{"validation error cut in the key", 422, "application/json", jsonError("invalid", strings.Repeat("v", 256-keyCut)+echoedKey), false, "", ""},
		{"gateway page quoting the headers", 502, "text/html", "<html><pre>X-Service-Key: " + echoedKey + "\nAccept: */*</pre></html>", false, "", ""},
		// Cut short where a snippet is bounded (200 characters).
		{"gateway page cut in the key", 502, "text/plain", strings.Repeat("g", 200-keyCut) + echoedKey, false, "", ""},
		{"success page that is not JSON", 200, "text/html", "<p>welcome " + echoedKey + "</p>", false, "", ""},
		// Cut short where the log keeps the first 4 KiB of a body.
		{"long answer cut in the key for the log", 401, "text/plain", strings.Repeat("l", 4<<10-keyCut) + echoedKey, false, "", ""},
		// The log's cut 3 bytes into the key: too little of it to mask
		// once cut, so the answer is masked before it is cut.
		{"long answer cut 3 bytes into the key for the log", 401, "text/plain", strings.Repeat("l", 4<<10-3) + echoedKey + strings.Repeat("t", 64), false, "l" + echoedKey[:3], "l***"},
		// A record read only as far as its status is logged as far as it
		// was read.
		{"record cut in the key for the log", 200, "application/json", recordCutInTheKey(keyCut), true, "", ""},
		// Cut 1 to 3 bytes into the key: too little to mask, so dropped.
		{"record cut 3 bytes into the key for the log", 200, "application/json", recordCutInTheKey(3), true, "nnnn" + echoedKey[:3], ""},
		{"record cut 2 bytes into the key for the log", 200, "application/json", recordCutInTheKey(2), true, "nnnn" + echoedKey[:2], ""},
		{"record cut 1 byte into the key for the log", 200, "application/json", recordCutInTheKey(1), true, "nnnn" + echoedKey[:1], ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if r.Header.Get(client.ServiceKeyHeader) != echoedKey {
					t.Errorf("the request did not carry the key")
				}
				w.Header().Set("Content-Type", tc.contentType)
				w.WriteHeader(tc.status)
				_, _ = w.Write([]byte(tc.body))
			}))
			defer srv.Close()
			var logs recordingLogger
			c, err := client.New(client.Config{BaseURL: srv.URL, APIKey: echoedKey, MaxRetries: -1, Logger: &logs})
			if err != nil {
				t.Fatal(err)
			}
			ctx := context.Background()
			_, getErr := c.GetPreRecorded(ctx, recordedJobID)
			_, statusErr := c.GetPreRecordedStatus(ctx, recordedJobID)
			_, createErr := c.CreatePreRecorded(ctx, &client.InitTranscriptionRequest{AudioURL: "https://example.com/a.wav"})
			for name, err := range map[string]error{"GetPreRecorded": getErr, "GetPreRecordedStatus": statusErr, "CreatePreRecorded": createErr} {
				if (err == nil) != tc.succeeds {
					t.Fatalf("%s: error %v, want success %v", name, err, tc.succeeds)
				}
				if err != nil && strings.Contains(err.Error(), echoedKeyPart) {
					t.Errorf("%s: the error quotes the key: %v", name, err)
				}
			}
			logged := strings.Join(logs.lines, "\n")
			if !strings.Contains(logged, "transcription API response body") {
				t.Fatalf("the answers were not logged:\n%s", logged)
			}
			if strings.Contains(logged, echoedKeyPart) || (tc.notLogged != "" && strings.Contains(logged, tc.notLogged)) {
				t.Errorf("the logs quote the key:\n%s", logged)
			}
			if !strings.Contains(logged, tc.logged) {
				t.Errorf("the logs do not show %q:\n%s", tc.logged, logged)
			}
		})
	}
}

// A key with characters URLs encode (a base64 key: "/", "+", "=") quoted
// URL-encoded, as a gateway quoting a request's query or path would, is
// masked in that form too.
func TestErrors_neverQuoteTheKeyURLEncoded(t *testing.T) {
	const key = "kG/Zq81+Vx7=Lantern"
	for name, quoted := range map[string]string{
		"query escaped": url.QueryEscape(key),
		"path escaped":  url.PathEscape(key),
	} {
		t.Run(name, func(t *testing.T) {
			body := `{"statusCode":401,"message":"invalid key (` + quoted + `)","request_id":"r-1"}`
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(http.StatusUnauthorized)
				_, _ = io.WriteString(w, body)
			}))
			defer srv.Close()
			var logs recordingLogger
			c, err := client.New(client.Config{BaseURL: srv.URL, APIKey: key, MaxRetries: -1, Logger: &logs})
			if err != nil {
				t.Fatal(err)
			}
			_, err = c.GetPreRecorded(context.Background(), recordedJobID)
			if err == nil || !strings.Contains(err.Error(), "invalid key (***)") {
				t.Errorf("error %v, want the quoted key masked", err)
			}
			logged := strings.Join(logs.lines, "\n")
			if !strings.Contains(logged, "invalid key (***)") || strings.Contains(logged, "Lantern") {
				t.Errorf("the logs quote the key, or hold no answer:\n%s", logged)
			}
		})
	}
}

// A read redirected within base_url's origin to a URL whose query carries
// a token: an answer quoting that URL shows the token in neither the error
// nor the log, and the error says where the answer came from.
func TestErrors_neverQuoteARedirectsToken(t *testing.T) {
	const token = "redirTokMongoose77"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !strings.HasPrefix(r.URL.Path, "/moved/") {
			http.Redirect(w, r, "/moved"+r.URL.Path+"?token="+token, http.StatusFound)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusInternalServerError)
		_, _ = io.WriteString(w, `{"statusCode":500,"message":"internal error at `+r.URL.RequestURI()+`","path":"`+r.URL.RequestURI()+`","request_id":"r-1"}`)
	}))
	defer srv.Close()
	var logs recordingLogger
	c, err := client.New(client.Config{BaseURL: srv.URL, APIKey: "k-redirect-test", MaxRetries: -1, Logger: &logs})
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.GetPreRecorded(context.Background(), recordedJobID)
	var apiErr *client.APIError
	if !errors.As(err, &apiErr) || apiErr.StatusCode != http.StatusInternalServerError {
		t.Fatalf("error %v, want the 500 after the redirect", err)
	}
	if strings.Contains(err.Error(), token) || strings.Contains(apiErr.Path, token) {
		t.Errorf("the error quotes the redirect's token: %v (path %q)", err, apiErr.Path)
	}
	if !apiErr.Redirected || apiErr.URL != srv.URL+"/moved/v2/pre-recorded/"+recordedJobID+"?…" {
		t.Errorf("redirected %t to %q, want the URL the redirect led to, its query left out", apiErr.Redirected, apiErr.URL)
	}
	if logged := strings.Join(logs.lines, "\n"); strings.Contains(logged, token) || !strings.Contains(logged, "internal error at") {
		t.Errorf("the logs quote the redirect's token, or hold no answer:\n%s", logged)
	}
}

// A redirect whose redirected request gets no answer (the connection
// closed) leaves the token its Location carried out of the log: net/http's
// error names the redirected URL.
func TestLogs_neverQuoteARedirectsTokenWhenNoAnswerCame(t *testing.T) {
	const token = "redirTokMarmot4242"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !strings.HasPrefix(r.URL.Path, "/moved/") {
			http.Redirect(w, r, "/moved"+r.URL.Path+"?token="+token, http.StatusFound)
			return
		}
		conn, _, err := http.NewResponseController(w).Hijack()
		if err == nil {
			_ = conn.Close()
		}
	}))
	defer srv.Close()
	var logs recordingLogger
	c, err := client.New(client.Config{BaseURL: srv.URL, APIKey: "k-redirect-test", MaxRetries: 1, MinBackoff: time.Millisecond, MaxBackoff: time.Millisecond, Logger: &logs})
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.GetPreRecorded(context.Background(), recordedJobID)
	var transportErr *client.TransportError
	if !errors.As(err, &transportErr) {
		t.Fatalf("error %v, want a transport failure", err)
	}
	logged := strings.Join(logs.lines, "\n")
	if strings.Contains(logged, token) || strings.Contains(err.Error(), token) {
		t.Errorf("the logs or the error quote the redirect's token:\n%s\n%v", logged, err)
	}
	if !strings.Contains(logged, "/moved/v2/pre-recorded/"+recordedJobID+"?…") {
		t.Errorf("the logs do not name the redirected request, its query left out:\n%s", logged)
	}
}

// A Location net/http cannot parse (relative, so without a scheme) is
// quoted in its error: its token is left out of the error and the logs.
// A service message or a gateway's "url" member quoting a URL loses the
// URL's query, the member keeping its name.
func TestErrors_quotedURLsWithoutTheirQuery(t *testing.T) {
	const token = "LocTokBad123"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Location", "/moved/%zz?token="+token)
		w.WriteHeader(http.StatusFound)
	}))
	defer srv.Close()
	var logs recordingLogger
	c, err := client.New(client.Config{BaseURL: srv.URL, APIKey: "k-location-test", MaxRetries: -1, Logger: &logs})
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.GetPreRecorded(context.Background(), recordedJobID)
	if err == nil || !strings.Contains(err.Error(), "Location header") {
		t.Fatalf("error %v, want the Location refused", err)
	}
	if logged := strings.Join(logs.lines, "\n"); strings.Contains(err.Error(), token) || strings.Contains(logged, token) {
		t.Errorf("the error or the logs quote the Location's token: %v\n%s", err, logged)
	}

	answers := map[string]string{
		"message": `{"statusCode":409,"message":"callback https://hooks.example.com/h?token=MsgTok99 unreachable","request_id":"r1","path":"/v2","timestamp":"t"}`,
		"gateway": `{"error":"Bad Gateway","url":"https://upstream.example.com:8443/v2/pre-recorded?sig=GwSig77"}`,
	}
	for name, answer := range answers {
		gw := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusConflict)
			_, _ = io.WriteString(w, answer)
		}))
		c, err := client.New(client.Config{BaseURL: gw.URL, APIKey: "k-quoted-test", MaxRetries: -1})
		if err != nil {
			t.Fatal(err)
		}
		_, err = c.GetPreRecorded(context.Background(), recordedJobID)
		gw.Close()
		if err == nil || strings.Contains(err.Error(), "MsgTok99") || strings.Contains(err.Error(), "GwSig77") {
			t.Errorf("%s: error %v, want it without the URL's query", name, err)
		}
		if name == "gateway" && !strings.Contains(err.Error(), `"url": "***"`) {
			t.Errorf("gateway: error %v, want the url member named, its value masked", err)
		}
		if name == "message" && !strings.Contains(err.Error(), "https://hooks.example.com/h?***") {
			t.Errorf("message: error %v, want the URL without its query", err)
		}
	}
}

// A job's record answered as something else than JSON (a gateway that
// relabels it) is quoted in the error without its callback URL, which a
// read does not know to hide, nor the credentials of its other URLs.
func TestErrors_notJSONAnswerQuotedWithoutURLCredentials(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		_, _ = io.WriteString(w, `{"request_params": {"callback": true, "callback_config": {"url": "http://cbuser:CbPassW0rd99@hooks.example.com/hook/CbTok3nXyZ9876?token=CbQueryTok55abc", "method": "POST"}, "audio_url": "https://aud:AudPass4455@media.example.com/a.wav?X-Amz-Signature=AmzSig123"}}`)
	}))
	defer srv.Close()
	c, err := client.New(client.Config{BaseURL: srv.URL, APIKey: "k-not-json-test", MaxRetries: -1})
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.GetPreRecorded(context.Background(), recordedJobID)
	if err == nil || !strings.Contains(err.Error(), "expected a JSON response") {
		t.Fatalf("error %v, want the answer refused as not JSON", err)
	}
	for _, secret := range []string{"CbPassW0rd99", "CbTok3nXyZ9876", "CbQueryTok55abc", "AudPass4455", "AmzSig123"} {
		if strings.Contains(err.Error(), secret) {
			t.Errorf("the error quotes %q: %v", secret, err)
		}
	}
	if !strings.Contains(err.Error(), "https://***@media.example.com/a.wav?***") {
		t.Errorf("the error does not show where the audio_url is, its credentials masked: %v", err)
	}
}

// What the request first sent stays shown after a redirect: a listing's
// filters (a date, a status, the user's metadata) are no credentials.
func TestErrors_redirectKeepsTheRequestsOwnQuery(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/v2/pre-recorded" {
			http.Redirect(w, r, "/v2/pre-recorded/?"+r.URL.RawQuery+"&session=redirectedSession42", http.StatusTemporaryRedirect)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusBadRequest)
		q := r.URL.Query()
		_, _ = io.WriteString(w, `{"statusCode":400,"message":"date `+q.Get("date")+` and status `+q.Get("status")+` with `+q.Get("custom_metadata[env]")+` in `+q.Get("session")+`","request_id":"r-1"}`)
	}))
	defer srv.Close()
	c, err := client.New(client.Config{BaseURL: srv.URL, APIKey: "k-redirect-test", MaxRetries: -1})
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.ListPreRecorded(context.Background(), client.ListOptions{Date: "2024-01-15", Status: []string{"processing"}, CustomMetadata: map[string]string{"env": "production"}})
	if err == nil || !strings.Contains(err.Error(), "date 2024-01-15 and status processing with production in ***") {
		t.Errorf("error %v, want the request's own filters shown and what the redirect added masked", err)
	}
}

// A create carries secrets besides the API key: its callback URLs' tokens
// and a presigned audio_url's signature. A service, or a gateway before it,
// may quote the request in its answer, error or not: none of them reaches
// the client's errors or log lines, nor does the API key beside them.
func TestCreate_neverQuotesTheRequestsSecrets(t *testing.T) {
	const (
		key         = "sk_live_Heron3Walnut_77aa"
		hookToken   = "t0k3n-Otter5Maple"
		legacyToken = "t0k3n-Finch8Cedar"
		signature   = "Sig9Lantern2Quill"
		pathToken   = "xoxWren4Pine7Sorrel"
	)
	req := &client.InitTranscriptionRequest{
		AudioURL:       "https://bucket.example.com/a.wav?X-Amz-Signature=" + signature,
		Callback:       ptr(true),
		CallbackConfig: &client.CallbackConfig{URL: "https://hooks.example.com/done?token=" + hookToken},
		CallbackURL:    ptr("https://hooks.example.com/services/T0123/" + pathToken + "?token=" + legacyToken),
	}
	sent, err := json.Marshal(req)
	if err != nil {
		t.Fatal(err)
	}
	secrets := []string{key, hookToken, legacyToken, signature, pathToken}
	quoting := "request " + string(sent) + " with x-service-key " + key
	errorBody, _ := json.Marshal(client.ErrorBody{StatusCode: 422, Message: quoting, RequestID: "r-1", ValidationErrors: []string{quoting}})
	// A validator may quote the part of a URL it refuses rather than the
	// whole URL.
	partsBody, _ := json.Marshal(client.ErrorBody{StatusCode: 422, Message: "invalid callbacks", RequestID: "r-2", ValidationErrors: []string{
		"callback_config.url: query token=" + hookToken + " is not allowed", "callback_url: unknown token " + legacyToken,
		"callback_url: no webhook " + pathToken + " at hooks.example.com"}})
	cases := []struct {
		name        string
		status      int
		contentType string
		body        string
	}{
		{"error answer", 422, "application/json", string(errorBody)},
		{"error answer quoting the callback URLs' tokens alone", 422, "application/json", string(partsBody)},
		{"gateway page", 502, "text/plain", quoting},
		{"answer that is not JSON", 200, "text/plain", quoting},
		// Accepted, the answer quoting the request (only the log shows it).
		{"accepted", 200, "application/json", `{"id":"3fa85f64-5717-4562-b3fc-2c963f66afa6","result_url":"https://api.example.com/v2/transcription/3fa85f64-5717-4562-b3fc-2c963f66afa6","note":` + string(mustJSON(t, quoting)) + `}`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", tc.contentType)
				w.WriteHeader(tc.status)
				_, _ = w.Write([]byte(tc.body))
			}))
			defer srv.Close()
			var logs recordingLogger
			c, err := client.New(client.Config{BaseURL: srv.URL, APIKey: key, MaxRetries: -1, Logger: &logs})
			if err != nil {
				t.Fatal(err)
			}
			_, createErr := c.CreatePreRecorded(context.Background(), req)
			logged := strings.Join(logs.lines, "\n")
			if !strings.Contains(logged, "transcription API response body") {
				t.Fatalf("the answer was not logged:\n%s", logged)
			}
			for _, secret := range secrets {
				if createErr != nil && strings.Contains(createErr.Error(), secret) {
					t.Errorf("the error quotes %q: %v", secret, createErr)
				}
				if strings.Contains(logged, secret) {
					t.Errorf("the log quotes %q:\n%s", secret, logged)
				}
			}
		})
	}
}
