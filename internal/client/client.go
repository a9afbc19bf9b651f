// Package client is a typed client of the transcription service's HTTP
// interface. It knows nothing of Terraform: the provider and any other Go
// program can use it.
package client

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"math/rand/v2"
	"mime"
	"net"
	"net/http"
	"net/http/httptrace"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode"
	"unicode/utf8"
)

// Defaults for Config fields left zero.
const (
	DefaultMaxRetries            = 8
	DefaultMinBackoff            = 250 * time.Millisecond
	DefaultMaxBackoff            = 15 * time.Second
	DefaultMaxResponseBytes      = 64 << 20
	DefaultConnectTimeout        = 30 * time.Second
	DefaultTLSHandshakeTimeout   = 10 * time.Second
	DefaultResponseHeaderTimeout = 2 * time.Minute
	DefaultStallTimeout          = time.Minute
	maxLoggedBodyBytes           = 4 << 10
	maxRetryAfter                = 5 * time.Minute
	// maxErrorBodyBytes bounds what is read of an error answer: an error
	// shows its JSON body's message and problems, or a page's title, and
	// a proxy's error page may be megabytes.
	maxErrorBodyBytes = 1 << 20
)

// Config configures a Client.
type Config struct {
	BaseURL string // e.g. https://api.example.com (a trailing /v2 is dropped)
	APIKey  string
	// UserAgent is sent as User-Agent, e.g. "terraform-provider-transcription/1.2.3".
	UserAgent string
	// HTTPClient, when set, replaces the client built from the timeouts
	// below; its transport then bounds connecting and waiting for headers,
	// and StallTimeout still applies. Whichever client, a redirect to
	// another origin is not followed (it would take the API key there).
	HTTPClient *http.Client

	// No timeout bounds a whole request: an upload of a large recording
	// takes as long as its link needs, as long as it makes progress. Each
	// stage is bounded instead (zero takes the default):
	//
	// ConnectTimeout bounds opening the TCP connection.
	ConnectTimeout time.Duration
	// TLSHandshakeTimeout bounds the TLS handshake.
	TLSHandshakeTimeout time.Duration
	// ResponseHeaderTimeout bounds the wait for the response's headers once
	// the request is written whole (for an upload, once its last byte is
	// handed to the operating system, which may still be sending a few MB).
	ResponseHeaderTimeout time.Duration
	// StallTimeout bounds the time a request body being sent, or a response
	// body being read, makes no progress at all.
	StallTimeout time.Duration

	// MaxRetries bounds the retries of one call (not counting the first try).
	MaxRetries int
	MinBackoff time.Duration
	MaxBackoff time.Duration
	// MaxResponseBytes bounds how much of a response body is read.
	MaxResponseBytes int64

	// Logger receives the client's log lines (requests, retries, answers;
	// never the API key, masked even where an answer quotes it, as in the
	// client's errors); nil discards them.
	Logger Logger
}

// Logger is where the client writes what it does, at two levels. The
// provider adapts it to terraform-plugin-log; any Go program can give its
// own.
type Logger interface {
	Debug(ctx context.Context, msg string, fields map[string]any)
	Trace(ctx context.Context, msg string, fields map[string]any)
}

// discardLogger is the Logger of a client given none.
type discardLogger struct{}

func (discardLogger) Debug(context.Context, string, map[string]any) {}
func (discardLogger) Trace(context.Context, string, map[string]any) {}

// Client calls the service. It is safe for concurrent use.
type Client struct {
	baseURL *url.URL
	cfg     Config
	http    *http.Client
	log     Logger
	// hide is the API key, masked in what the client makes of answers.
	hide secrets
	// serviceAnswered: the listing of jobs answered at the base URL once
	// (ServiceAnswers).
	serviceAnswered atomic.Bool
	// asking is ServiceAnswers' listing in flight, which callers at the
	// same time share; nil when none is.
	askingMu sync.Mutex
	asking   *serviceAsk
	// proxyCredentials: the proxy requests go through has credentials in
	// its URL, which Go sends it.
	proxyCredentials bool
	// succeeded: a call's answer of success was read (Succeeded).
	succeeded atomic.Bool
}

// Succeeded reports whether a call of this client has succeeded: an
// answer of success from base_url was read, the service's as far as the
// client can tell (a JSON answer it could decode). An outage after that is
// one of the service, not a base_url or network to fix.
func (c *Client) Succeeded() bool { return c.succeeded.Load() }

// New returns a Client for cfg.
func New(cfg Config) (*Client, error) {
	u, err := ParseBaseURL(cfg.BaseURL)
	if err != nil {
		return nil, err
	}
	if cfg.APIKey == "" {
		return nil, errors.New("an API key is required")
	}
	if err := CheckAPIKey(cfg.APIKey); err != nil {
		return nil, err
	}
	cfg.ConnectTimeout = orDefault(cfg.ConnectTimeout, DefaultConnectTimeout)
	cfg.TLSHandshakeTimeout = orDefault(cfg.TLSHandshakeTimeout, DefaultTLSHandshakeTimeout)
	cfg.ResponseHeaderTimeout = orDefault(cfg.ResponseHeaderTimeout, DefaultResponseHeaderTimeout)
	cfg.StallTimeout = orDefault(cfg.StallTimeout, DefaultStallTimeout)
	if cfg.HTTPClient == nil {
		cfg.HTTPClient = &http.Client{Transport: newTransport(cfg)}
	}
	hc := *cfg.HTTPClient // a copy: a client given is left as it is
	hc.CheckRedirect = sameOriginRedirects(hc.CheckRedirect)
	cfg.HTTPClient = &hc
	if cfg.MaxRetries == 0 {
		cfg.MaxRetries = DefaultMaxRetries
	}
	if cfg.MaxRetries < 0 {
		cfg.MaxRetries = 0
	}
	if cfg.MinBackoff <= 0 {
		cfg.MinBackoff = DefaultMinBackoff
	}
	if cfg.MaxBackoff <= 0 {
		cfg.MaxBackoff = DefaultMaxBackoff
	}
	if cfg.MaxResponseBytes <= 0 {
		cfg.MaxResponseBytes = DefaultMaxResponseBytes
	}
	if cfg.UserAgent == "" {
		cfg.UserAgent = "terraform-provider-transcription/dev"
	}
	logger := cfg.Logger
	if logger == nil {
		logger = discardLogger{}
	}
	c := &Client{baseURL: u, cfg: cfg, http: cfg.HTTPClient, log: logger, hide: newSecrets(cfg.APIKey)}
	if proxy := proxyFor(cfg.HTTPClient, u); proxy != nil && proxy.User != nil {
		// Go sends them to the proxy, which may quote them back.
		c.proxyCredentials = true
		c.hide = c.hide.with(proxyCredentials(proxy)...)
	}
	return c, nil
}

// proxyFor is the proxy hc's transport sends requests to u through (an
// environment variable's, for the default transport), nil for none or a
// transport the client cannot look into.
func proxyFor(hc *http.Client, u *url.URL) *url.URL {
	rt := hc.Transport
	if rt == nil {
		rt = http.DefaultTransport
	}
	t, ok := rt.(*http.Transport)
	if !ok || t.Proxy == nil {
		return nil
	}
	proxy, err := t.Proxy(&http.Request{Method: http.MethodGet, URL: u, Header: http.Header{}})
	if err != nil {
		return nil
	}
	return proxy
}

// ErrAPIKeyWhiteSpace is CheckAPIKey's error for a key with white space
// around it, which HTTP drops from a header's value.
var ErrAPIKeyWhiteSpace = errors.New("the API key begins or ends with white space (a newline read from a file?): remove it")

// CheckAPIKey reports why key cannot work as the x-service-key header,
// without quoting it: white space around it (such as the newline file()
// keeps from a key file) or an ASCII control character in it, which Go's
// HTTP client refuses only when sending, as if the service were down; or a
// character that is not ASCII (a byte-order mark an editor saved at the
// start of the key file, a zero-width or non-breaking space pasted with
// it), which the client sends as it is and the service refuses as a wrong
// key (401), with nothing to show why: API keys are ASCII.
func CheckAPIKey(key string) error {
	if strings.TrimSpace(key) != key {
		return ErrAPIKeyWhiteSpace
	}
	if strings.HasPrefix(key, "\uFEFF") {
		return errors.New("the API key begins with a byte-order mark (U+FEFF), which some editors save at the start of a file (and trimspace() keeps): remove it, or save the file as UTF-8 without a BOM")
	}
	for _, r := range key {
		switch {
		case r < ' ' || r == 0x7f:
			return errors.New("the API key holds a control character, which an HTTP header cannot carry")
		case r < utf8.RuneSelf:
		case unicode.In(r, unicode.Cf, unicode.Cc, unicode.Z, unicode.Mn) || unicode.Is(unicode.Other_Default_Ignorable_Code_Point, r) || r == '\u2800':
			// Invisible, or blank: no part of a key, so it may be shown.
			return fmt.Errorf("the API key holds an invisible or blank character (U+%04X), copied with it?: remove it; API keys are ASCII", r)
		default:
			return errors.New("the API key holds a character that is not ASCII (not shown), which no API key has: copied with text around it?")
		}
	}
	return nil
}

// ParseBaseURL checks that raw is an absolute http(s) URL and returns it
// without a trailing slash or /v2 prefix.
func ParseBaseURL(raw string) (*url.URL, error) {
	// Checked before parsing, which takes white space in a path, and with
	// none of the text shown: it may hold a credential.
	if strings.ContainsFunc(raw, unicode.IsSpace) {
		return nil, errors.New("base URL must not hold white space, which no URL can: remove it, or percent-encode it (a space is %20)")
	}
	if strings.ContainsFunc(raw, unicode.IsControl) {
		return nil, errors.New("base URL must not hold a control character, which no URL can")
	}
	if lower := strings.ToLower(raw); (strings.HasPrefix(lower, "http:") || strings.HasPrefix(lower, "https:")) && !strings.Contains(raw, "://") {
		return nil, errors.New("base URL has no // after its scheme: write it as http://HOST or https://HOST, as in https://api.example.com")
	}
	if !strings.Contains(raw, "://") {
		// "127.0.0.1:8080" fails to parse and "localhost:8080" parses as
		// the scheme "localhost": neither error says what is missing.
		return nil, errors.New("base URL has no scheme: start it with http:// or https://, as in http://127.0.0.1:8080 or https://api.example.com")
	}
	u, err := url.Parse(strings.TrimRight(raw, "/"))
	if err != nil {
		// url.Error quotes the whole text, credentials included: only why.
		var parseErr *url.Error
		if errors.As(err, &parseErr) {
			err = parseErr.Err
		}
		// The reason itself may quote part of the text ("invalid port
		// \":p4ss\""), which with an "@" may be credentials.
		if strings.Contains(raw, "@") {
			return nil, errors.New("base URL is not a URL, and holds an \"@\": it must not hold credentials (user:password@) either; the service is authenticated with the API key")
		}
		return nil, fmt.Errorf("base URL is not a URL: %w", err)
	}
	shown := redacted(u)
	if (u.Scheme == "http" || u.Scheme == "https") && u.Host == "" {
		// Not quoted: the slashes trimmed, it would read "https:".
		return nil, errors.New("base URL has no host: write it as http://HOST or https://HOST, as in https://api.example.com")
	}
	if (u.Scheme != "http" && u.Scheme != "https") || u.Hostname() == "" {
		return nil, fmt.Errorf("base URL %q must be an absolute http or https URL", shown)
	}
	// An empty query or fragment ("...?", "...#") is one all the same.
	if strings.ContainsAny(raw, "?#") {
		return nil, fmt.Errorf("base URL %q must not have a query or fragment", shown)
	}
	if port := PortOutOfRange(u); port != "" {
		return nil, fmt.Errorf("base URL %q: its port %s is not one from 1 to 65535", shown, port)
	}
	for _, segment := range strings.Split(u.Path, "/") { // decoded: %2E is "." too
		if segment == "." || segment == ".." {
			// Sent as written, a gateway routes them as it pleases.
			return nil, fmt.Errorf("base URL %q must not hold a %q path segment: write the path it stands for", shown, segment)
		}
	}
	if u.User != nil {
		// They would be logged with every request URL, and kept in result_url.
		return nil, fmt.Errorf("base URL %q must not hold credentials (user:password@): the service is authenticated with the API key", shown)
	}
	// The interface's version prefix is the client's to add: a base URL
	// given with it (".../v2", as the service's own URLs read) must not make
	// every path "/v2/v2/...".
	u.RawPath = strings.TrimRight(strings.TrimSuffix(u.EscapedPath(), "/v2"), "/")
	u.Path, _ = url.PathUnescape(u.RawPath) // url.Parse checked the escapes
	return u, nil
}

// RedactedURL is a URL as diagnostics, logs and state may show it: without
// what may carry a credential (user information; the query and fragment,
// where keys and presigned URLs' signatures go, "?…" standing for them; the
// opaque part of a URL such as "https:user:password@host", which has no
// host, "…" standing for it). What locates the file (scheme, host, path)
// stays. A text that is not a URL is cut at its first "?" or "#" the same
// way, and anything before an "@" is dropped. An "@" after that "?" or "#"
// may end a password holding one ("https://u:p#w@host") as well as sit in
// a query: then nothing past the scheme is shown.
func RedactedURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		shown, cut := raw, false
		if i := strings.IndexAny(shown, "?#"); i >= 0 {
			if strings.Contains(shown[i:], "@") {
				return redactedAllButScheme(raw)
			}
			shown, cut = shown[:i], true
		}
		if i := strings.LastIndex(shown, "@"); i >= 0 {
			shown = shown[i+1:]
		}
		if cut {
			shown += "?…"
		}
		return shown
	}
	if strings.Contains(u.RawQuery, "@") || strings.Contains(u.Fragment, "@") {
		// Parsed, but perhaps wrongly: "https://user:1234#pass@host" reads
		// as host "user", port 1234, and a fragment.
		return redactedAllButScheme(raw)
	}
	return redacted(u)
}

// validScheme matches a URL scheme (RFC 3986 §3.1).
var validScheme = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9+.-]*$`)

// redactedAllButScheme is "scheme://…" of a text that begins with a valid
// scheme, and "…" otherwise.
func redactedAllButScheme(raw string) string {
	scheme, _, found := strings.Cut(raw, "://")
	if !found || !validScheme.MatchString(scheme) {
		return "…"
	}
	return scheme + "://…"
}

// redacted is RedactedURL of a parsed URL.
func redacted(u *url.URL) string {
	shown := *u
	shown.User = nil
	shown.RawQuery, shown.ForceQuery = "", false
	shown.Fragment, shown.RawFragment = "", ""
	if shown.Opaque != "" {
		shown.Opaque = "…"
	}
	if u.RawQuery != "" || u.ForceQuery || u.Fragment != "" {
		return shown.String() + "?…"
	}
	return shown.String()
}

// CreatePreRecorded submits a pre-recorded job (POST /v2/pre-recorded).
// It is retried only when the service cannot have accepted it (429 and 503,
// which turn a request away unhandled, or a connection that failed before
// the request went out whole): a duplicate job would be billed.
func (c *Client) CreatePreRecorded(ctx context.Context, req *InitTranscriptionRequest) (*InitResponse, error) {
	body, err := json.Marshal(req)
	if err != nil {
		return nil, fmt.Errorf("encoding request: %w", err)
	}
	var out InitResponse
	// The service may quote the request in an error: its callback URLs,
	// which may carry a token, and the credentials of a presigned
	// audio_url are masked there. A callback URL's own credentials (its
	// query, each query value, a token in its path) are masked too: a
	// validator may quote the part of the URL it refuses, not the whole URL.
	secrets := req.CallbackURLs()
	for _, u := range slices.Clone(secrets) {
		secrets = append(secrets, callbackURLCredentials(u)...)
	}
	secrets = append(secrets, urlCredentials(req.AudioURL)...)
	create := call{method: http.MethodPost, path: "/v2/pre-recorded", body: bytesBody(body), contentType: "application/json", retry: retryIfNotAccepted, carryThrough: true, secrets: secrets}
	// The job is billed once the service has answered: an answer of
	// success whose body is the service's (a JSON object naming a job by
	// its UUID) gives the job's id even when a proxy relabeled its
	// Content-Type, rather than losing the job.
	create.mislabeled = &out.Mislabeled
	if err := c.do(ctx, create, &out); err != nil {
		return nil, err
	}
	switch {
	case out.ID == "":
		return nil, &DecodeError{Op: "POST /v2/pre-recorded", Reason: "response has no id"}
	case !JobIDPattern.MatchString(out.ID):
		// The id goes into the paths of every later request: what is not
		// the UUID the service issues (a "..") is not used as one.
		return nil, &DecodeError{Op: "POST /v2/pre-recorded", Reason: fmt.Sprintf("response's id %q is not a UUID", truncate(out.ID, maxIdentBytes))}
	}
	if out.ResultURL == "" {
		// The job is made: its result_url is the one the service gives
		// every job (as for an imported job), not an error that would lose it.
		out.ResultURL = c.ResultURL(out.ID)
	}
	return &out, nil
}

// OnServiceHost reports whether rawURL is on the host of the base URL, where
// the service keeps the files uploaded to it (POST /v2/upload answers
// {base_url}/file/{id} URLs): the audio_url of an upload. The scheme is
// not compared (the host is the service's either way), and a port that is
// its URL's scheme's default is the same as none.
func (c *Client) OnServiceHost(rawURL string) bool { return OnHostOf(c.baseURL, rawURL) }

// OnHostOf reports whether rawURL is on the host of base (a base URL as
// ParseBaseURL returns it), as NormalHost compares hosts.
func OnHostOf(base *url.URL, rawURL string) bool {
	u, err := url.Parse(rawURL)
	return err == nil && NormalHost(u) == NormalHost(base)
}

// ServiceAddress is the base URL requests go to, as the client writes it
// (without a trailing slash).
func (c *Client) ServiceAddress() string {
	return c.endpoint("", nil)
}

// ResultURL is the URL the service gives as result_url for a job: its record
// at the legacy path GET /v2/transcription/{id}. The job record itself does
// not carry it, so an imported job gets it from here.
func (c *Client) ResultURL(id string) string {
	return c.endpoint("/v2/transcription/"+url.PathEscape(id), nil)
}

// GetPreRecorded fetches a pre-recorded job record (GET /v2/pre-recorded/{id}).
// A Detail, when given, leaves part of the result's transcripts out.
func (c *Client) GetPreRecorded(ctx context.Context, id string, detail ...Detail) (*PreRecordedJob, error) {
	var out PreRecordedJob
	if err := c.do(ctx, call{method: http.MethodGet, path: "/v2/pre-recorded/" + url.PathEscape(id), retry: retryIdempotent, detail: firstDetail(detail)}, &out); err != nil {
		return nil, err
	}
	if err := checkJobRecord("GET /v2/pre-recorded/"+id, id, out.ID, out.Status); err != nil {
		return nil, err
	}
	return &out, nil
}

// checkJobRecord refuses a job record that does not say which job it is
// and in what status, that is another job's than the one asked for (its id
// would replace the asked one in state, and the job asked for would be
// lost), or whose status is none of the four a job has (a wait could not
// tell whether it has ended, and would last until its timeout). Ids are
// compared as UUIDs are, whatever the case of their digits.
func checkJobRecord(op, asked, id, status string) error {
	switch {
	case id == "" || status == "":
		return &DecodeError{Op: op, Reason: "job record lacks id or status"}
	case !strings.EqualFold(id, asked):
		return &DecodeError{Op: op, Reason: fmt.Sprintf("the service answered with the record of job %q, not of job %q", id, asked)}
	case !slices.Contains(JobStatuses, status):
		return &DecodeError{Op: op, Reason: fmt.Sprintf("job record has status %q, not one of %s", status, strings.Join(JobStatuses, ", "))}
	}
	return nil
}

// GetPreRecordedStatus fetches a pre-recorded job's record (GET
// /v2/pre-recorded/{id}) and reads it only as far as its id and status:
// enough to learn that a finished job, whose record never changes, is
// still there. The service sends those before the result, so a long
// recording's transcript is neither decoded nor, past maxDrainBytes,
// received.
func (c *Client) GetPreRecordedStatus(ctx context.Context, id string) (string, error) {
	var status string
	cl := call{method: http.MethodGet, path: "/v2/pre-recorded/" + url.PathEscape(id), retry: retryIdempotent}
	cl.read = func(resp *http.Response) error {
		var err error
		status, err = c.readStatus(ctx, cl, resp, id)
		return err
	}
	if _, err := c.roundTrip(ctx, cl); err != nil {
		return "", err
	}
	return status, nil
}

// readStatus reads a 2xx answer to GetPreRecordedStatus's cl as far as the
// job's id and status.
func (c *Client) readStatus(ctx context.Context, cl call, resp *http.Response, id string) (string, error) {
	op := cl.method + " " + cl.path
	contentType := resp.Header.Get("Content-Type")
	// The log counts the rest too: only the head is read, and a
	// record's bytes given as the head's read as an answer cut short.
	if !isJSON(contentType) {
		data, _ := io.ReadAll(io.LimitReader(resp.Body, maxLoggedBodyBytes))
		rest, whole := finishBody(resp.Body)
		c.logResponse(ctx, op, resp, answerSize(resp, int64(len(data))+rest, whole), data, c.hide)
		return "", notJSONError(op, contentType, data, c.hide)
	}
	members, head, size, readErr := readLeadingStrings(resp.Body, c.cfg.MaxResponseBytes, "id", "status")
	rest, whole := finishBody(resp.Body)
	c.logResponse(ctx, op, resp, answerSize(resp, size+rest, whole), head, c.hide)
	if readErr != nil {
		return "", readFailure(ctx, op, readErr)
	}
	status := members["status"]
	if err := checkJobRecord(op, id, members["id"], status); err != nil {
		return "", err
	}
	return status, nil
}

// DeletePreRecorded deletes a finished job (DELETE /v2/pre-recorded/{id}).
func (c *Client) DeletePreRecorded(ctx context.Context, id string) error {
	return c.do(ctx, call{method: http.MethodDelete, path: "/v2/pre-recorded/" + url.PathEscape(id), retry: retryIdempotent}, nil)
}

// AudioFile is the audio a job was made from, streamed from the service.
// The caller reads Body and must close it.
type AudioFile struct {
	Body        io.ReadCloser
	ContentType string // such as audio/wav
	Size        int64  // in bytes; -1 when the service does not say
}

// GetPreRecordedFile opens the audio of a pre-recorded job (GET
// /v2/pre-recorded/{id}/file). Retries end once the service starts
// answering: a transfer broken midway fails the read of Body.
func (c *Client) GetPreRecordedFile(ctx context.Context, id string) (*AudioFile, error) {
	return c.openFile(ctx, "/v2/pre-recorded/"+url.PathEscape(id)+"/file")
}

// GetLiveFile opens the audio of a live job (GET /v2/live/{id}/file), as
// GetPreRecordedFile does.
func (c *Client) GetLiveFile(ctx context.Context, id string) (*AudioFile, error) {
	return c.openFile(ctx, "/v2/live/"+url.PathEscape(id)+"/file")
}

func (c *Client) openFile(ctx context.Context, path string) (*AudioFile, error) {
	resp, err := c.roundTrip(ctx, call{method: http.MethodGet, path: path, accept: "*/*", retry: retryIdempotent})
	if err != nil {
		return nil, err
	}
	// Its body is the caller's to read: the line gives the size announced.
	c.logResponse(ctx, "GET "+path, resp, answerSize(resp, 0, false), nil, c.hide)
	return &AudioFile{Body: resp.Body, ContentType: resp.Header.Get("Content-Type"), Size: resp.ContentLength}, nil
}

// Upload sends a file to POST /v2/upload as multipart field "audio",
// streaming it from open (called again for each try, so retries resend it).
// size is the number of bytes open's reader yields: the request then
// declares its Content-Length, and a reader yielding more or fewer bytes
// fails the upload with ErrUploadSizeChanged before the body is complete. A
// negative size sends the body chunked, for a source of unknown length.
func (c *Client) Upload(ctx context.Context, filename string, size int64, open func() (io.ReadCloser, error)) (*UploadResponse, error) {
	var out UploadResponse
	b := func() (requestBody, error) { return multipartBody(filename, size, open) }
	if err := c.do(ctx, call{method: http.MethodPost, path: "/v2/upload", body: b, retry: retryIfNotAccepted}, &out); err != nil {
		return nil, err
	}
	switch {
	case out.AudioURL == "":
		return nil, &DecodeError{Op: "POST /v2/upload", Reason: "response has no audio_url"}
	case out.AudioMetadata == nil || out.AudioMetadata.ID == "":
		// The file's id is the upload's identity: none is no upload to keep.
		return nil, &DecodeError{Op: "POST /v2/upload", Reason: "response has no audio_metadata.id"}
	}
	return &out, nil
}

// retryPolicy decides which failures of a call are retried.
type retryPolicy int

const (
	// retryIdempotent: 429, every 5xx but 501 (MayHaveBeenHandled) and
	// transport failures, but those roundTrip tries once (no answer begun
	// in time to a request sent, a settled failure) or twice (a connection
	// not opened in time).
	retryIdempotent retryPolicy = iota
	// retryIfNotAccepted: 429, 503 in the service's error body, and
	// transport failures before the request went out whole.
	retryIfNotAccepted
)

// requestBody is one try's request body.
type requestBody struct {
	r     io.Reader
	close func() error // nil: nothing to close
	// length is the exact number of bytes r yields, sent as Content-Length;
	// negative when unknown (the body is then sent chunked).
	length      int64
	contentType string // empty: call.contentType
}

func (b requestBody) Read(p []byte) (int, error) { return b.r.Read(p) }

func (b requestBody) Close() error {
	if b.close == nil {
		return nil
	}
	return b.close()
}

// bodyFunc returns a fresh request body for each try.
type bodyFunc func() (requestBody, error)

// bytesBody is a body held in memory, so of known length: it goes out with
// Content-Length, never chunked (some gateways refuse chunked requests with
// 411, and HTTP/1.0 proxies cannot carry them).
func bytesBody(b []byte) bodyFunc {
	return func() (requestBody, error) {
		return requestBody{r: bytes.NewReader(b), length: int64(len(b))}, nil
	}
}

type call struct {
	method      string
	path        string
	query       url.Values
	body        bodyFunc
	contentType string
	accept      string // empty: application/json
	retry       retryPolicy
	detail      Detail // of the results in the response
	// carryThrough: a try in flight when ctx ends (an interrupt, a
	// deadline) goes on to the service's answer, bounded by the client's
	// own timeouts, because the service may act on it and its answer (a
	// created job's id) must not be lost. No try is sent once ctx has
	// ended, and no wait between tries outlasts it.
	carryThrough bool
	// once: tried once, whatever fails (a look whose failure changes
	// nothing, which retries would only make slow).
	once bool
	// read reads and closes a 2xx response's body, for a call that returns
	// no response to its caller. A transport failure it returns (the
	// answer cut short) is retried as one of the request's.
	read func(*http.Response) error
	// secrets are what the request carries that may be a credential,
	// masked with the API key in what the client makes of the answers.
	secrets []string
	// mislabeled, when not nil, takes a 2xx answer whose Content-Type is
	// not JSON but whose body is a JSON object: it is decoded, and how it
	// was labeled stored here. Nil: such an answer is refused.
	mislabeled *string
}

// endpoint is the URL of path (escaped: ids through url.PathEscape) below
// the base URL. It is joined to the base's escaped path, so that neither
// is escaped twice nor loses an escape (a base's %2F).
func (c *Client) endpoint(path string, query url.Values) string {
	u := *c.baseURL
	u.RawPath = strings.TrimRight(u.EscapedPath(), "/") + path
	u.Path, _ = url.PathUnescape(u.RawPath) // both parts are valid escapes
	if len(query) > 0 {
		u.RawQuery = query.Encode()
	}
	return u.String()
}

// do performs a call with retries and decodes a 2xx JSON body into out (when
// out is not nil).
func (c *Client) do(ctx context.Context, cl call, out any) error {
	if cl.carryThrough {
		carryingThrough.Add(1)
		defer carryingThrough.Add(-1)
	}
	cl.read = func(resp *http.Response) error { return c.readAnswer(ctx, cl, resp, out) }
	_, err := c.roundTrip(ctx, cl)
	return err
}

// carryingThrough counts the calls of this process's clients that are
// carried through an end of their context (call.carryThrough), in flight.
var carryingThrough atomic.Int64

// CarryingThrough is the number of calls in flight in this process whose
// answer must not be lost whatever stops them (creates: the service may
// have made a job): a process that exits while one is in flight loses it.
func CarryingThrough() int64 { return carryingThrough.Load() }

// readAnswer reads a 2xx answer to cl and decodes its JSON body into out
// (when out is not nil).
func (c *Client) readAnswer(ctx context.Context, cl call, resp *http.Response, out any) error {
	op := cl.method + " " + cl.path
	contentType := resp.Header.Get("Content-Type")
	var data, head []byte
	var size int64
	var readErr error
	if names := cl.detail.omitted(); out != nil && names != nil && isJSON(contentType) {
		data, head, size, readErr = readOmitting(resp.Body, c.cfg.MaxResponseBytes, names)
	} else {
		data, readErr = readBounded(resp.Body, c.cfg.MaxResponseBytes)
		head, size = data, int64(len(data))
	}
	resp.Body.Close()
	hide := c.secretsOf(cl).forAnswer(resp)
	c.logResponse(ctx, op, resp, answerSize(resp, size, readErr == nil), head, hide)
	if out == nil {
		// Nothing of the body is wanted (a DELETE: its status is the
		// answer): the service has carried the request out, and a body cut
		// short after the status (an interrupt, a deadline) changes nothing.
		// The service answers 202 (or 204); another 2xx is not its answer
		// (a web page at a wrong base_url, a proxy's catch-all).
		if resp.StatusCode != http.StatusAccepted && resp.StatusCode != http.StatusNoContent {
			return &DecodeError{Op: op, Reason: fmt.Sprintf("the answer was %s where the service answers 202 Accepted, so the request may not have reached it", resp.Status)}
		}
		return nil
	}
	if readErr != nil {
		return readFailure(ctx, op, readErr)
	}
	if cl.mislabeled != nil && !isJSON(contentType) && isJSONObject(data) {
		if err := json.Unmarshal(data, out); err == nil {
			*cl.mislabeled = labelOf(contentType)
			return nil
		}
	}
	if err := decodeJSON(op, contentType, data, out, hide); err != nil {
		return err
	}
	if keeper, ok := out.(interface{ keepRawResult([]byte) error }); ok && cl.detail == WithRawResult {
		if err := keeper.keepRawResult(data); err != nil {
			return &DecodeError{Op: op, Reason: "invalid JSON in response: " + err.Error()}
		}
	}
	return nil
}

// readFailure is the error of a response whose body could not be read
// whole. An end of ctx (an interrupt, or its deadline) is the context's
// error, as it is while the request is in flight: the service has carried
// the request out, and its answer is lost. A body the transport did not
// deliver whole (the connection lost, a stalled transfer) fails as the
// transport, after sending; anything else (too long, not JSON) as the
// decoding.
func readFailure(ctx context.Context, op string, readErr error) error {
	if ctx.Err() != nil {
		// Bare: what it means is said by whoever reports it (a time limit
		// or an interrupt, before the answer was received).
		return fmt.Errorf("%s: %w", op, ctx.Err())
	}
	if errors.As(readErr, new(*bodyCutError)) {
		return &TransportError{Op: op, Sent: true, Written: true, Err: readErr}
	}
	return &DecodeError{Op: op, Reason: readErr.Error()}
}

// localError is a request that could not be made on this machine (its
// body could not be opened): no network failed, so no try again would
// fare better.
type localError struct{ err error }

func (e *localError) Error() string { return e.err.Error() }
func (e *localError) Unwrap() error { return e.err }

// bodyCutError is a response body the transport failed to deliver whole:
// the connection was lost, or the transfer stalled (a StallError).
type bodyCutError struct{ err error }

func (e *bodyCutError) Error() string { return "reading response body: " + e.err.Error() }
func (e *bodyCutError) Unwrap() error { return e.err }

// roundTrip performs a call with retries and returns its first 2xx
// response, body unread: the caller reads and closes it; with cl.read,
// roundTrip reads it and returns no response. Error answers are read here,
// and retried or turned into an APIError.
func (c *Client) roundTrip(ctx context.Context, cl call) (*http.Response, error) {
	op := cl.method + " " + cl.path
	hide := c.secretsOf(cl)
	var last error // the failure of the try before, retried
	connectTimeouts := 0
	maxRetries := c.cfg.MaxRetries
	if cl.once {
		maxRetries = 0
	}
	for attempt := 0; ; attempt++ {
		if cl.carryThrough && ctx.Err() != nil {
			return nil, &InterruptedError{Op: op, Last: last, Err: ctx.Err()}
		}
		resp, went, err := c.send(ctx, cl, attempt)
		sent := went.sent
		var local *localError
		if errors.As(err, &local) {
			return nil, fmt.Errorf("%s: %w", op, local.err)
		}
		if err != nil {
			if ctx.Err() != nil {
				if !sent {
					// last: why an earlier try failed (an unreachable
					// service), which a time limit's error would hide.
					return nil, &InterruptedError{Op: op, Last: last, Err: ctx.Err()}
				}
				if last != nil {
					// Only the text of the try before: it is not what
					// ended this call.
					return nil, fmt.Errorf("%s: %w (the try before: %s)", op, ctx.Err(), hide.mask(last.Error()))
				}
				return nil, fmt.Errorf("%s: %w", op, ctx.Err())
			}
			// A request sent that no answer began to come back to within
			// ResponseHeaderTimeout is not sent again: the service is not
			// answering, and each try would wait as long again (a refresh
			// took 18 minutes to fail, which Terraform 1.8 and OpenTofu,
			// sending no StopProvider while an apply refreshes, cannot cut
			// short).
			// A wait for a job looks again on its own schedule.
			// A request cut off before it went out whole cannot have been
			// acted on (the service has not all of it): a create or an
			// upload is sent again then, as a read is.
			// A connection that could not be opened in time is tried once
			// more, not max_retries times: each try waits its limit
			// (ConnectTimeout, 30 s; a proxy's silence, StallTimeout), and
			// nine made a plan wait almost 5 minutes to fail. What would
			// fail every try alike (settled) is not tried again.
			retryable := !sent || (cl.retry == retryIdempotent || !went.written) && !isTimeout(err)
			if connectionTimedOut(err, sent) {
				connectTimeouts++
				retryable = retryable && connectTimeouts < 2
			}
			retryable = retryable && !settled(err)
			transportErr := &TransportError{Op: op, At: c.ServiceAddress(), Sent: sent, Written: went.written, Err: err, AnswerTimeout: c.cfg.ResponseHeaderTimeout, Tries: attempt + 1, hide: hide}
			if !retryable || attempt >= maxRetries {
				return nil, transportErr
			}
			last = transportErr
			if err := c.waitToRetry(ctx, op, attempt, c.backoff(attempt), transportErr, "transcription API: transport failure, retrying", map[string]any{"error": hide.mask(loggableError(err))}); err != nil {
				return nil, err
			}
			continue
		}
		if resp.StatusCode >= 200 && resp.StatusCode < 300 {
			if cl.read == nil {
				c.succeeded.Store(true)
				return resp, nil
			}
			err := cl.read(resp)
			if err == nil {
				c.succeeded.Store(true)
			}
			var cut *TransportError // the answer cut short: retried as a lost connection is
			if errors.As(err, &cut) {
				cut.At, cut.Tries, cut.hide = c.ServiceAddress(), attempt+1, hide
			}
			if err == nil || cut == nil || cl.retry != retryIdempotent || attempt >= maxRetries {
				return nil, err
			}
			last = cut
			if err := c.waitToRetry(ctx, op, attempt, c.backoff(attempt), cut, "transcription API: answer cut short, retrying", map[string]any{"error": hide.mask(err.Error())}); err != nil {
				return nil, err
			}
			continue
		}
		data, readErr := readBounded(resp.Body, min(c.cfg.MaxResponseBytes, maxErrorBodyBytes))
		resp.Body.Close()
		answerHide := hide.forAnswer(resp)
		c.logResponse(ctx, op, resp, answerSize(resp, int64(len(data)), readErr == nil), data, answerHide)
		apiErr := newAPIError(op, resp, data, answerHide)
		apiErr.ProxyCredentialsSent = resp.StatusCode == http.StatusProxyAuthRequired && c.proxyCredentials
		apiErr.Tries = attempt + 1
		if !shouldRetry(cl.retry, apiErr) || attempt >= maxRetries {
			return nil, apiErr
		}
		wait := c.waitAfter(attempt, apiErr.RetryAfter)
		last = apiErr
		if err := c.waitToRetry(ctx, op, attempt, wait, apiErr, "transcription API: retrying", map[string]any{"status": resp.StatusCode}); err != nil {
			return nil, err
		}
	}
}

// waitToRetry logs (message, with detail) why a call is tried again and
// waits before it. An end of ctx meanwhile is an InterruptedError whose
// last failure is failure.
func (c *Client) waitToRetry(ctx context.Context, op string, attempt int, wait time.Duration, failure error, message string, detail map[string]any) error {
	// A wait the service asked for (Retry-After) is kept to whole.
	if by, ok := ctx.Value(retriesBeforeKey{}).(time.Time); ok && RetryAfterOf(failure) == 0 {
		left := time.Until(by)
		if left <= 0 {
			return failure // no retry left before the caller's own next look
		}
		wait = min(wait, left)
	}
	fields := map[string]any{"op": op, "attempt": attempt + 1, "wait": wait.String()}
	maps.Copy(fields, detail)
	c.log.Debug(ctx, message, fields)
	if err := Sleep(ctx, wait); err != nil {
		return &InterruptedError{Op: op, Last: failure, Err: err}
	}
	return nil
}

type retriesBeforeKey struct{}

// WithRetriesBefore returns ctx in which a call's retries wait at most
// until t, a retry its backoff would start later being made at t, and
// none is made once t has passed: the call ends with its last failure.
// A wait the service asked for (Retry-After) is kept to. A wait for a job
// to end uses it so that the retries of a look, up to 15 s apart, leave
// room for the look it makes just before its deadline.
func WithRetriesBefore(ctx context.Context, t time.Time) context.Context {
	return context.WithValue(ctx, retriesBeforeKey{}, t)
}

// tryLog is what the log says of every line of one try: its number, from
// 1, and when it began. It travels in the request's context, to the line
// of its answer read.
type tryLog struct {
	attempt int
	start   time.Time
}

type tryKey struct{}

func (t *tryLog) addTo(fields map[string]any) {
	fields["attempt"] = t.attempt
	fields["duration_ms"] = time.Since(t.start).Milliseconds()
}

// send makes one try, the attempt-th from 0. sent reports whether any part
// of the request may have reached the service (its headers were written).
// The response's body is watched for stalls and releases the try when
// closed.
func (c *Client) send(ctx context.Context, cl call, attempt int) (*http.Response, sending, error) {
	var body requestBody
	hasBody := cl.body != nil
	contentType := cl.contentType
	if hasBody {
		b, err := cl.body()
		if err != nil {
			return nil, sending{}, &localError{err}
		}
		body = b
		if b.contentType != "" {
			contentType = b.contentType
		}
	}
	if cl.carryThrough {
		ctx = context.WithoutCancel(ctx)
	}
	tryCtx, dog := watch(ctx, c.cfg.StallTimeout)
	// Set by the transport's writing goroutine, read here once Do returns.
	var wrote, wroteWhole atomic.Bool
	trace := &httptrace.ClientTrace{
		// Each connection the transport tries starts afresh: it sends a
		// request again on its own after a kept-alive connection the
		// service had closed, and what the last try did is what counts.
		GetConn: func(string) {
			wrote.Store(false)
			wroteWhole.Store(false)
		},
		WroteHeaders: func() { wrote.Store(true) },
		// The request is written whole: waiting for the answer is the
		// transport's ResponseHeaderTimeout's business, not a stall.
		WroteRequest: func(info httptrace.WroteRequestInfo) {
			if info.Err == nil {
				wroteWhole.Store(true)
			}
			dog.requestWritten()
		},
	}
	try := &tryLog{attempt: attempt + 1}
	reqCtx := context.WithValue(httptrace.WithClientTrace(tryCtx, trace), tryKey{}, try)
	req, err := http.NewRequestWithContext(reqCtx, cl.method, c.endpoint(cl.path, cl.query), nil)
	if err != nil {
		body.Close()
		dog.release()
		return nil, sending{}, &localError{err}
	}
	if hasBody {
		if body.length == 0 {
			body.Close()
			req.Body = http.NoBody
		} else {
			// A negative length is unknown: the body then goes out chunked.
			req.Body = &watchedBody{rc: body, ctx: tryCtx, w: dog, request: true}
			req.ContentLength = max(body.length, -1)
		}
	}
	req.Header.Set(ServiceKeyHeader, c.cfg.APIKey)
	accept := cl.accept
	if accept == "" {
		accept = "application/json"
	}
	req.Header.Set("Accept", accept)
	req.Header.Set("User-Agent", c.cfg.UserAgent)
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	c.log.Debug(ctx, "transcription API request", map[string]any{"op": cl.method + " " + cl.path, "url": req.URL.String(), "attempt": try.attempt, ServiceKeyHeader: "<masked>"})
	try.start = time.Now()
	resp, err := c.http.Do(req)
	if err != nil {
		if stall := stallCause(tryCtx); stall != nil && ctx.Err() == nil {
			err = stall
		}
		dog.release()
		fields := map[string]any{"op": cl.method + " " + cl.path, "error": c.secretsOf(cl).mask(loggableError(err))}
		try.addTo(fields)
		c.log.Debug(ctx, "transcription API request failed", fields)
		return nil, sending{sent: wrote.Load(), written: wroteWhole.Load()}, err
	}
	dog.answer()
	resp.Body = &watchedBody{rc: resp.Body, ctx: tryCtx, w: dog}
	return resp, sending{sent: true, written: true}, nil
}

// sending is how far a try's request went before it failed.
type sending struct {
	sent    bool // its headers went out: the request may have reached the service
	written bool // it went out whole, body included: the service may have acted on it
}

// shouldRetry reports whether a call of policy p answered apiErr is sent
// again.
func shouldRetry(p retryPolicy, apiErr *APIError) bool {
	switch {
	case apiErr.StatusCode == http.StatusTooManyRequests, apiErr.StatusCode == http.StatusServiceUnavailable && apiErr.ServiceBody:
		// Both mean the service turned the request away without handling it
		// (RFC 9110 §15.5.29, §15.6.4): even a create may be sent again.
		return true
	}
	return apiErr.MayHaveBeenHandled() && p == retryIdempotent
}

// MayHaveBeenHandled reports whether a request answered with status may
// have been handled before the failure: a 5xx other than 501 (Not
// Implemented: nothing was done) and 503 (turned away unhandled), those of
// a gateway or CDN before the service (520 to 529) included. A read
// answered so is sent again; a create is not, as it may have made the job.
func MayHaveBeenHandled(status int) bool {
	return status >= 500 && status <= 599 && status != http.StatusNotImplemented && status != http.StatusServiceUnavailable
}

// IsTransient reports whether err is a failure that a later read may not
// meet: the service turned the request away or failed it (429, a 5xx other
// than 501), or the connection failed. These are what reads are retried on.
func IsTransient(err error) bool {
	var apiErr *APIError
	var transportErr *TransportError
	switch {
	case errors.As(err, &apiErr):
		return shouldRetry(retryIdempotent, apiErr)
	case errors.As(err, &transportErr):
		return true
	}
	return false
}

// RetryAfterOf is the wait before asking again that the service's answer in
// err asked for (its Retry-After, at most the 5 minutes the client's own
// retries honour), or 0 when it asked for none: a caller that asks again
// once the client's retries are spent (a wait for a job) keeps to it too.
func RetryAfterOf(err error) time.Duration {
	var apiErr *APIError
	if !errors.As(err, &apiErr) {
		return 0
	}
	return min(apiErr.RetryAfter, maxRetryAfter)
}

// waitAfter is the wait before trying again after a failed attempt whose
// answer asked for retryAfter (0 when it did not).
func (c *Client) waitAfter(attempt int, retryAfter time.Duration) time.Duration {
	wait := c.backoff(attempt)
	if retryAfter <= 0 {
		return wait
	}
	// The service said when to come back, at the earliest: a little jitter
	// keeps many waiting jobs from returning at the same instant, and the
	// backoff still grows beneath it. A batch past an account's limit is
	// answered 429 with a short Retry-After again and again while the jobs
	// before it run; taken alone, it made max_retries (8) last about 10 s,
	// and 38 of 100 jobs failed where the growing wait rides out the batch.
	return max(min(retryAfter, maxRetryAfter)+rand.N(c.cfg.MinBackoff), wait)
}

// backoff is exponential with full jitter: a random wait in [min, min·2^attempt], capped.
func (c *Client) backoff(attempt int) time.Duration {
	ceil := c.cfg.MinBackoff << min(attempt, 20)
	if ceil > c.cfg.MaxBackoff || ceil <= 0 {
		ceil = c.cfg.MaxBackoff
	}
	if ceil <= c.cfg.MinBackoff {
		return c.cfg.MinBackoff
	}
	return c.cfg.MinBackoff + rand.N(ceil-c.cfg.MinBackoff)
}

// Sleep waits for d, or returns ctx's error as soon as ctx is done.
func Sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// readBounded reads at most limit bytes; a longer body is an error, so a
// hostile or broken server cannot make the provider hold unbounded memory.
func readBounded(r io.Reader, limit int64) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return data, &bodyCutError{err}
	}
	if int64(len(data)) > limit {
		return data[:limit], fmt.Errorf("response body exceeds %d bytes", limit)
	}
	return data, nil
}

// readOmitting reads as readBounded does, leaving the members names out of
// results as the body streams in (see omitter), so that only what is kept
// is held. It returns what is kept, the body's first bytes as sent (for the
// log) and the number of bytes read.
func readOmitting(r io.Reader, limit int64, names [][]byte) (kept, head []byte, size int64, err error) {
	o := newOmitter(names, nil)
	buf := make([]byte, 32<<10)
	rec := &headRecorder{r: io.LimitReader(r, limit+1)}
	for {
		before := rec.n
		n, rerr := rec.Read(buf)
		if rec.n > limit {
			o.write(buf[:limit-before])
			return o.finish(), rec.head, limit, fmt.Errorf("response body exceeds %d bytes", limit)
		}
		o.write(buf[:n])
		if rerr == io.EOF {
			return o.finish(), rec.head, rec.n, nil
		}
		if rerr != nil {
			return o.finish(), rec.head, rec.n, &bodyCutError{rerr}
		}
	}
}

// isTimeout reports whether err is a network timeout.
func isTimeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}

// isJSON reports whether a Content-Type is JSON's.
func isJSON(contentType string) bool {
	mt, _, err := mime.ParseMediaType(contentType)
	return err == nil && (mt == "application/json" || strings.HasSuffix(mt, "+json"))
}

// labelOf says how an answer with Content-Type contentType was labeled.
func labelOf(contentType string) string {
	if contentType == "" {
		return "no Content-Type"
	}
	return fmt.Sprintf("Content-Type %q", truncate(contentType, maxIdentBytes))
}

// isJSONObject reports whether data is one JSON object, and nothing else.
func isJSONObject(data []byte) bool {
	var object map[string]json.RawMessage
	return json.Unmarshal(data, &object) == nil && object != nil
}

func decodeJSON(op, contentType string, data []byte, out any, hide secrets) error {
	if !isJSON(contentType) {
		return notJSONError(op, contentType, data, hide)
	}
	if err := json.Unmarshal(data, out); err != nil {
		return &DecodeError{Op: op, Reason: "invalid JSON in response: " + err.Error()}
	}
	return nil
}

// notJSONError refuses an answer that is not JSON; data is its body, or
// its first bytes, quoted without hide.
func notJSONError(op, contentType string, data []byte, hide secrets) error {
	return &DecodeError{Op: op, Reason: fmt.Sprintf("expected a JSON response, got Content-Type %q: %s", truncate(contentType, maxIdentBytes), snippet(data, hide)), NotJSON: true}
}

// LoggedBodyCutField is the field, true, of a logged response body cut
// short (to its first 4 KiB).
const LoggedBodyCutField = "body_cut"

// loggedSize is an answer's size as its log line gives it: bytes, or at
// least bytes when the rest was neither received nor announced.
type loggedSize struct {
	bytes   int64
	atLeast bool
}

// answerSize is the size of resp's answer, of which received bytes were
// received (whole: all of it): the size announced, else what was received.
func answerSize(resp *http.Response, received int64, whole bool) loggedSize {
	if resp.ContentLength >= 0 {
		return loggedSize{bytes: resp.ContentLength}
	}
	return loggedSize{bytes: received, atLeast: !whole}
}

// logResponse logs an answer of size, of which body holds the first bytes,
// without hide: one line per try, with its number and how long it took,
// its body read.
func (c *Client) logResponse(ctx context.Context, op string, resp *http.Response, size loggedSize, body []byte, hide secrets) {
	fields := map[string]any{"op": op, "status": resp.StatusCode, "content_type": resp.Header.Get("Content-Type"), "bytes": size.bytes}
	if size.atLeast {
		fields["bytes_at_least"] = true
	}
	if resp.Request != nil {
		if try, ok := resp.Request.Context().Value(tryKey{}).(*tryLog); ok {
			try.addTo(fields)
		}
	}
	c.log.Debug(ctx, "transcription API response", fields)
	if len(body) > 0 {
		// Masked before it is cut, so that a secret across the cut goes
		// whole; only as much as can reach the log is read (a record may
		// be megabytes).
		cut := int64(len(body)) < size.bytes || size.atLeast // only its head was read
		if limit := maxLoggedBodyBytes + hide.longest(); len(body) > limit {
			body, cut = body[:limit], true
		}
		text := hide.mask(string(body))
		if len(text) > maxLoggedBodyBytes {
			text, cut = text[:maxLoggedBodyBytes], true
		}
		fields := map[string]any{"op": op, "body": text}
		if cut { // a secret may begin at its end
			fields["body"] = hide.maskCut(text)
			fields[LoggedBodyCutField] = true
		}
		c.log.Trace(ctx, "transcription API response body", fields)
	}
}

// secretsOf is what the client masks in what it makes of the answers to
// cl: its API key and the call's secrets.
func (c *Client) secretsOf(cl call) secrets {
	if len(cl.secrets) == 0 {
		return c.hide
	}
	return c.hide.with(cl.secrets...)
}

// parseRetryAfter reads Retry-After as seconds or as an HTTP date.
func parseRetryAfter(v string, now time.Time) time.Duration {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0
	}
	// Seconds too many for an int still mean "wait very long" (RFC 9110
	// delay-seconds has no bound): Atoi then returns its bound with ErrRange.
	if s, err := strconv.Atoi(v); err == nil || errors.Is(err, strconv.ErrRange) {
		if s < 0 {
			return 0
		}
		if int64(s) > int64(math.MaxInt64/time.Second) { // would overflow a Duration
			return math.MaxInt64
		}
		return time.Duration(s) * time.Second
	}
	if t, err := http.ParseTime(v); err == nil && t.After(now) {
		return t.Sub(now)
	}
	return 0
}

// loggableError is err's text with the URL net/http names in it (a
// *url.Error's) redacted: after a redirect it is the redirected URL, whose
// query (a token the Location carried) the client's secrets do not hold
// when no answer came to it.
func loggableError(err error) string {
	if urlErr := (*url.Error)(nil); errors.As(err, &urlErr) {
		return fmt.Sprintf("%s %q: %s", urlErr.Op, RedactedURL(urlErr.URL), maskTransportText(urlErr.Err.Error()))
	}
	return err.Error()
}
