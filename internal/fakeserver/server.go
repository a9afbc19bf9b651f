package fakeserver

import (
	"bytes"
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"io"
	"maps"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/google/uuid"

	"github.com/transcription-service/terraform-provider-transcription/internal/client"
)

const (
	defaultAPIKey          = "test-key"
	defaultMaxUploadBytes  = 100 << 20
	defaultCallbackTimeout = 10 * time.Second
	// maxCreateBodyBytes bounds a create body. It is this emulator's bound,
	// not the service's (the spec states none), set far past any real
	// request (a few KiB) so that no configuration a user writes meets it.
	maxCreateBodyBytes = 16 << 20
	// maxRecordedBodyBytes bounds what Requests keeps of one body, so large
	// uploads are not held twice.
	maxRecordedBodyBytes = 1 << 20
	// maxRecordedUploadBytes bounds what Requests keeps of an upload: the
	// part's headers and the file's own header, not the file. The log keeps
	// up to twice Options.RequestLogLimit requests (20,000 in the command),
	// which a mebibyte each made gigabytes, the files long expired.
	maxRecordedUploadBytes = 4 << 10
	// recordedBodiesBudget bounds the bytes of the bodies the request log
	// keeps, and those CreateBodies keeps, each: past it the oldest are
	// dropped, so that the memory of a long-running server stays bounded
	// whatever its clients send (with the log's count bounded too, by
	// Options.RequestLogLimit).
	recordedBodiesBudget = 64 << 20
	settleInterval       = 20 * time.Millisecond
	maskedKey            = "<masked>"
)

// Options configure a Server. The zero value is usable: key "test-key",
// jobs done on first look, real time.
type Options struct {
	// APIKey is the key every request must send in x-service-key
	// ("test-key" when empty).
	APIKey string
	// ProcessingTime is the time a job spends queued (its first quarter) and
	// processing before it is final; 0 makes jobs final on first look.
	ProcessingTime time.Duration
	// ProcessingTimeMax, when above ProcessingTime, makes each job's time a
	// value in [ProcessingTime, ProcessingTimeMax] chosen by a hash of its
	// audio_url (the same file always takes the same time).
	ProcessingTimeMax time.Duration
	// MaxConcurrentJobs, when above 0, is how many jobs may be queued or
	// processing at once, as an account's concurrency limit: a create beyond
	// it is answered 429 with Retry-After (when the first of them will be
	// final) and the error body.
	MaxConcurrentJobs int
	// MaxProcessingJobs, when above 0, is how many jobs are processed at
	// once, as the service processes an account's jobs (25 on its paid
	// plans): a job created while that many are processing stays queued,
	// first in, first out, until one of them is final, then takes its own
	// processing time. Nothing is refused for it; MaxConcurrentJobs bounds
	// the queue (300 on the service's paid plans).
	MaxProcessingJobs int
	// Retention, when above 0, is how long a final job (from its
	// completed_at), live ones included, and an upload (from its upload) are
	// kept, as the service's plans retain data for a period: afterwards GET
	// answers 404 and the listing leaves them out.
	Retention time.Duration
	// ZeroDataRetention disables upload and result retrieval, requires a
	// callback in every create and drops a job once its callback is
	// delivered.
	ZeroDataRetention bool
	// Clock is the time source; nil means real time.
	Clock Clock
	// LiveJobs is the number of deterministic live jobs to seed: most ended
	// over the week before the clock's time; those still queued or
	// processing move on with the clock, and end within about twelve
	// minutes.
	LiveJobs int
	// PreRecordedJobs is the number of deterministic pre-recorded jobs to
	// seed, ended over the week before the clock's time (about one in ten
	// in error), with custom_metadata to filter on: jobs made before a
	// rehearsal of terraform query or a listing. With a retention shorter
	// than a week, they are created within it (and expire within a
	// retention of startup). None under ZeroDataRetention.
	PreRecordedJobs int
	// LiveClock, when set, is the time source of the seeded live jobs
	// instead of Clock: a test that counts them exactly, while its
	// pre-recorded jobs process in real time, holds it still.
	LiveClock Clock
	// MaxUploadBytes bounds an uploaded file (default 100 MiB).
	MaxUploadBytes int64
	// CallbackClient delivers callbacks (default: a client with a 10s
	// timeout); the server uses a copy that does not follow redirects.
	CallbackClient *http.Client
	// Faults are the faults injected from the start (SetFaults changes them).
	Faults Faults
	// RequestLogLimit, when above 0, is how many of the newest requests
	// Requests (and the control interface) keep, and how many create bodies
	// CreateBodies keeps; 0 keeps every one. Set it, with Retention, to keep
	// the memory of a long-running server bounded.
	RequestLogLimit int
	// CallbackLog, when set, is given one line for each attempt to send a
	// callback: the job, the method and URL (its tokens REDACTED, as in the
	// request listing) and what became of it, so that a receiver's failures
	// can be seen.
	CallbackLog func(line string)
	// OutageLog, when set, is given one line when an outage
	// (POST /_emulator/down) begins, when the address cannot be listened
	// on again at its end (once: it is tried again every 100 ms), and when
	// the service is back, so that an outage that outlasts its duration
	// can be seen.
	OutageLog func(line string)
}

// Server is the fake transcription service. It is an http.Handler and is
// safe for concurrent use. Call Close to stop its background work.
type Server struct {
	opts      Options
	clock     Clock
	liveClock Clock // the seeded live jobs' (Options.LiveClock, else clock)
	keyDigest [sha256.Size]byte
	endpoints []endpoint

	callbackClient   *http.Client
	callbackAttempts int
	callbackBackoff  time.Duration // doubled after each failed attempt

	mu           sync.Mutex
	jobs         map[string]*job // pre-recorded jobs by id
	unsettled    map[string]*job // jobs not yet final
	slotsFreeAt  []time.Time     // with Options.MaxProcessingJobs: when each processing slot frees
	uploads      map[string]*upload
	uploadHosts  map[string]map[string]struct{} // hosts (client.NormalHost) that upload URLs were given under, each with its path prefixes ("" for none)
	live         liveStore
	pending      []*delivery                // callbacks waiting to be sent
	delivering   map[chan struct{}]struct{} // callbacks being sent, each closing its channel when it ends
	requests     []*RecordedRequest
	createBodies [][]byte
	// The bytes of the bodies requests and createBodies hold, kept within
	// bodyBudget (recordedBodiesBudget; tests lower it); the requests before
	// bodiesFrom hold none.
	requestBodyBytes, createBodyBytes, bodiesFrom, bodyBudget int
	expiries                                                  expiryQueue // with Options.Retention: when what is final expires
	stats                                                     Stats
	faults                                                    faultState
	listener                                                  *Listener // taken down by POST /_emulator/down; nil when unknown
	// beforeRecordBuilds, set by tests, runs when a request is about to
	// build live records without the lock, or wait for others' builds.
	beforeRecordBuilds func(builds, waits int)
	// beforeRecordBuild, set by tests, runs before a request builds its
	// i-th record without the lock.
	beforeRecordBuild func(i int)

	ctx      context.Context // cancelled by Close; bounds callback deliveries, outages and injected latency
	cancel   context.CancelFunc
	loopDone chan struct{}
	outages  sync.WaitGroup // outages asked for by POST /_emulator/down
	once     sync.Once
}

// New returns a running Server. Close it when done.
func New(opts Options) *Server {
	if opts.APIKey == "" {
		opts.APIKey = defaultAPIKey
	}
	if opts.MaxUploadBytes <= 0 {
		opts.MaxUploadBytes = defaultMaxUploadBytes
	}
	opts.ProcessingTime = max(opts.ProcessingTime, 0)
	opts.ProcessingTimeMax = max(opts.ProcessingTimeMax, 0)
	opts.MaxConcurrentJobs = max(opts.MaxConcurrentJobs, 0)
	opts.MaxProcessingJobs = max(opts.MaxProcessingJobs, 0)
	opts.Retention = max(opts.Retention, 0)
	opts.RequestLogLimit = max(opts.RequestLogLimit, 0)
	s := &Server{
		opts:             opts,
		clock:            opts.Clock,
		keyDigest:        sha256.Sum256([]byte(opts.APIKey)),
		callbackClient:   opts.CallbackClient,
		callbackAttempts: 3,
		callbackBackoff:  100 * time.Millisecond,
		jobs:             map[string]*job{},
		unsettled:        map[string]*job{},
		uploads:          map[string]*upload{},
		uploadHosts:      map[string]map[string]struct{}{},
		delivering:       map[chan struct{}]struct{}{},
		loopDone:         make(chan struct{}),
		bodyBudget:       recordedBodiesBudget,
	}
	if s.clock == nil {
		s.clock = realClock{}
	}
	s.liveClock = opts.LiveClock
	if s.liveClock == nil {
		s.liveClock = s.clock
	}
	if s.callbackClient == nil {
		s.callbackClient = &http.Client{Timeout: defaultCallbackTimeout}
	}
	// A callback is not redirected: the result goes to the URL the job names,
	// with its method (spec), and a 3xx is a failed attempt. A client following
	// a 302 would send a GET without the result elsewhere and count it delivered.
	noRedirects := *s.callbackClient
	noRedirects.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	s.callbackClient = &noRedirects
	s.live = newLiveStore(opts.LiveJobs, s.liveClock.Now(), opts.Retention)
	s.seedPreRecorded(opts.PreRecordedJobs, s.clock.Now())
	s.endpoints = s.routes()
	s.SetFaults(opts.Faults)
	s.ctx, s.cancel = context.WithCancel(context.Background())
	go s.settleLoop()
	return s
}

// Close stops the background loop and abandons callback deliveries in
// progress. The handler keeps answering requests, without the injected
// latency: those waiting it out are answered at once, so that a graceful
// shutdown after Close waits only for real work.
func (s *Server) Close() {
	s.once.Do(func() {
		s.cancel()
		<-s.loopDone
		s.waitForDeliveries()
		s.outages.Wait()
	})
}

// endpoint is one path of the interface. With hasID the path is prefix + "/"
// + a non-empty id + suffix. notEmulated says, by method, why a method the
// service has on this path is answered 405 here, so that a caller of the
// official client learns it from the error rather than guessing.
type endpoint struct {
	prefix      string
	hasID       bool
	suffix      string
	handlers    map[string]func(w http.ResponseWriter, r *http.Request, id string)
	notEmulated map[string]string
}

func (s *Server) routes() []endpoint {
	return []endpoint{
		{prefix: "/v2/pre-recorded", handlers: map[string]func(http.ResponseWriter, *http.Request, string){
			http.MethodPost: s.handleCreate,
			http.MethodGet:  s.handleListPreRecorded,
		}},
		{prefix: "/v2/pre-recorded", hasID: true, handlers: map[string]func(http.ResponseWriter, *http.Request, string){
			http.MethodGet:    s.handleGetPreRecorded,
			http.MethodDelete: s.handleDelete,
		}},
		{prefix: "/v2/pre-recorded", hasID: true, suffix: "/file", handlers: map[string]func(http.ResponseWriter, *http.Request, string){
			http.MethodGet: s.handleGetPreRecordedFile,
		}},
		{prefix: transcriptionsPath, handlers: map[string]func(http.ResponseWriter, *http.Request, string){
			http.MethodGet: s.handleListTranscriptions,
		}},
		{prefix: transcriptionsPath, hasID: true, handlers: map[string]func(http.ResponseWriter, *http.Request, string){
			http.MethodGet: s.handleGetTranscription,
		}},
		{prefix: "/v2/live", handlers: map[string]func(http.ResponseWriter, *http.Request, string){
			http.MethodGet: s.handleListLive,
		}, notEmulated: map[string]string{
			http.MethodPost: "starting a live session is not emulated (the spec shows neither its request nor how its messages travel): " +
				"this server lists, reads and deletes live jobs, seeded by -live-jobs (Options.LiveJobs, Server.AddLiveJob)",
		}},
		{prefix: "/v2/live", hasID: true, handlers: map[string]func(http.ResponseWriter, *http.Request, string){
			http.MethodGet:    s.handleGetLive,
			http.MethodDelete: s.handleDeleteLive,
		}},
		{prefix: "/v2/live", hasID: true, suffix: "/file", handlers: map[string]func(http.ResponseWriter, *http.Request, string){
			http.MethodGet: s.handleGetLiveFile,
		}},
		{prefix: "/v2/upload", handlers: map[string]func(http.ResponseWriter, *http.Request, string){
			http.MethodPost: s.handleUpload,
		}},
		{prefix: "/file", hasID: true, handlers: map[string]func(http.ResponseWriter, *http.Request, string){
			http.MethodGet: s.handleGetFile,
		}},
	}
}

// ServeHTTP answers a browser's CORS preflight (cors), else records the
// request, then applies faults, authentication and routing, in that order.
// Requests to the control interface (under ControlPrefix) are
// authenticated alike but neither recorded nor faulted.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if cors(w, r) {
		return
	}
	if isControlPath(r.URL.Path) {
		if problem := s.keyProblem(r); problem != "" {
			s.writeError(w, r, http.StatusUnauthorized, problem)
			return
		}
		s.serveControl(w, r)
		return
	}
	sw := &statusWriter{ResponseWriter: w}
	finish := s.record(r)
	dealt, loseAnswer := s.injectFault(sw, r)
	if dealt {
		finish(finalStatus(sw.status, r), false)
		return
	}
	// Before the key check: the official client opens a live session's
	// socket with no key, its URL carrying the session's token.
	if isLiveSessionSocket(r) {
		s.refuseWebSocket(sw, r, finish)
		return
	}
	var unsent *unsentWriter
	if loseAnswer {
		unsent = newUnsentWriter()
		sw.ResponseWriter = unsent
	}
	defer func() {
		finish(finalStatus(sw.status, r), loseAnswer)
		if loseAnswer {
			if p := recover(); p != nil {
				panic(p) // a handler's own panic, not hidden by the abort
			}
			s.loseAnswer(r, sw.status, unsent)
		}
	}()
	if problem := s.keyProblem(r); problem != "" {
		s.writeError(sw, r, http.StatusUnauthorized, problem)
		return
	}
	s.route(sw, r)
}

// cors lets a web page call the server, as the service's official client
// does from a browser: a request with an Origin is answered with any origin
// allowed and Retry-After and Content-Disposition readable; a preflight
// (OPTIONS with Access-Control-Request-Method, which a browser sends without
// the key) is answered 204 here, neither recorded, faulted nor
// authenticated, and cors reports it as answered.
func cors(w http.ResponseWriter, r *http.Request) (answered bool) {
	if r.Header.Get("Origin") == "" {
		return false
	}
	h := w.Header()
	h.Set("Access-Control-Allow-Origin", "*")
	h.Set("Access-Control-Expose-Headers", "Retry-After, Content-Disposition")
	if r.Method != http.MethodOptions || r.Header.Get("Access-Control-Request-Method") == "" {
		return false
	}
	h.Set("Access-Control-Allow-Methods", "GET, POST, PUT, DELETE")
	if asked := r.Header.Get("Access-Control-Request-Headers"); asked != "" {
		h.Set("Access-Control-Allow-Headers", asked)
	}
	h.Set("Access-Control-Max-Age", "600")
	h.Add("Vary", "Access-Control-Request-Headers")
	w.WriteHeader(http.StatusNoContent)
	return true
}

// keyProblem says why r is not authenticated, "" when it is.
func (s *Server) keyProblem(r *http.Request) string {
	// One key: a server in Node joins repeated headers ("k1, k2"), which no
	// key matches, where Get would take the first alone.
	keys := r.Header.Values(client.ServiceKeyHeader)
	switch {
	case len(keys) > 1:
		return "the " + client.ServiceKeyHeader + " header is given more than once: give one API key"
	case len(keys) == 0 || keys[0] == "" || !s.authorized(keys[0]):
		return "missing or invalid API key in the " + client.ServiceKeyHeader + " header"
	}
	return ""
}

// authorized reports whether got is the API key.
func (s *Server) authorized(got string) bool {
	// Comparing digests keeps the comparison constant-time whatever the length.
	digest := sha256.Sum256([]byte(got))
	return subtle.ConstantTimeCompare(digest[:], s.keyDigest[:]) == 1
}

func (s *Server) route(w http.ResponseWriter, r *http.Request) {
	path := r.URL.Path
	for _, e := range s.endpoints {
		id, ok := e.match(path)
		if !ok {
			continue
		}
		if h, ok := e.handlers[routedMethod(r)]; ok {
			h(w, r, id)
			return
		}
		w.Header().Set("Allow", strings.Join(allowedMethods(slices.Collect(maps.Keys(e.handlers))), ", "))
		message := "method " + r.Method + " is not allowed on " + path
		if why, ok := e.notEmulated[r.Method]; ok {
			message += ": " + why
		}
		s.writeError(w, r, http.StatusMethodNotAllowed, message)
		return
	}
	s.writeError(w, r, http.StatusNotFound, "no such endpoint: "+path)
}

// routedMethod is the method a request is routed by, on the service's paths
// and the control interface alike: HEAD is GET without the body, which
// net/http leaves out (a general-purpose server supports both, RFC 9110
// §9.1).
func routedMethod(r *http.Request) string {
	if r.Method == http.MethodHead {
		return http.MethodGet
	}
	return r.Method
}

// allowedMethods is what an Allow header lists for a path handling
// methods: those and HEAD wherever GET is, sorted.
func allowedMethods(methods []string) []string {
	if slices.Contains(methods, http.MethodGet) && !slices.Contains(methods, http.MethodHead) {
		methods = append(methods, http.MethodHead)
	}
	slices.Sort(methods)
	return methods
}

func (e endpoint) match(path string) (id string, ok bool) {
	if !e.hasID {
		return "", path == e.prefix
	}
	rest, found := strings.CutPrefix(path, e.prefix+"/")
	if !found {
		return "", false
	}
	if rest, found = strings.CutSuffix(rest, e.suffix); !found || rest == "" || strings.Contains(rest, "/") {
		return "", false
	}
	return idKey(rest), true
}

// idKey is how the server keys an id: the ids are UUIDs, whose text is
// read without case (RFC 9562 §4), and it makes them in lower case.
func idKey(id string) string { return strings.ToLower(id) }

// baseURL is the server's own address as the caller reached it: behind a
// gateway that strips a path prefix, with the prefix it reports.
func baseURL(r *http.Request) string {
	return requestScheme(r) + "://" + requestHost(r) + requestPrefix(r)
}

// requestPrefix is the path prefix a gateway reports it stripped
// (X-Forwarded-Prefix, as Traefik and Spring Cloud Gateway send it), when
// it is a plain path; "" otherwise.
func requestPrefix(r *http.Request) string {
	prefix, _, _ := strings.Cut(r.Header.Get("X-Forwarded-Prefix"), ",")
	prefix = strings.TrimRight(strings.TrimSpace(prefix), "/")
	if !strings.HasPrefix(prefix, "/") || strings.HasPrefix(prefix, "//") || len(prefix) > maxPrefixBytes {
		return ""
	}
	// A path as a URL writes it: what it does not hold as it is (a space,
	// "<", "é") encoded, and no query or fragment.
	u, err := url.Parse(prefix)
	if err != nil || u.EscapedPath() != prefix || u.RawQuery != "" || u.Fragment != "" {
		return ""
	}
	for _, segment := range strings.Split(u.Path, "/") { // %2E is "." too
		if segment == "." || segment == ".." {
			return ""
		}
	}
	return prefix
}

// maxPrefixBytes bounds a gateway's path prefix: it is written into every
// URL the server gives.
const maxPrefixBytes = 256

// requestScheme is the scheme r reached this server by: behind a proxy
// that ends TLS (the server serves plain HTTP), the one the proxy says the
// caller used (Forwarded's proto, X-Forwarded-Proto), so that the URLs it
// gives (uploads, result_url, the listings' links) are the ones the caller
// can use.
func requestScheme(r *http.Request) string {
	if r.TLS != nil {
		return "https"
	}
	if proto := strings.ToLower(forwarded(r, "proto", "X-Forwarded-Proto")); proto == "https" || proto == "http" {
		return proto
	}
	return "http"
}

// requestHost is the host (and port) r was sent to: behind a proxy, the
// one the proxy says the caller used (Forwarded's host, X-Forwarded-Host),
// when it is a plain host[:port] with a port a client can dial.
func requestHost(r *http.Request) string {
	if host := forwarded(r, "host", "X-Forwarded-Host"); host != "" && !strings.ContainsAny(host, "/?#@\\ \t\"") {
		if u, err := url.Parse("http://" + host); err == nil && u.Host == host && u.Hostname() != "" &&
			!strings.HasSuffix(host, ":") && client.PortOutOfRange(u) == "" {
			return host
		}
	}
	if r.Host == "" {
		// HTTP/1.0 without a Host header: the address it reached.
		if addr, ok := r.Context().Value(http.LocalAddrContextKey).(net.Addr); ok {
			return addr.String()
		}
	}
	return r.Host
}

// forwarded is what the first proxy on the way says of the caller's
// request: the parameter param of the Forwarded header's first element
// (RFC 7239, whose quoted values may hold "," and ";"), or else the first
// value of the header legacy.
func forwarded(r *http.Request, param, legacy string) string {
	if v := r.Header.Get("Forwarded"); v != "" {
		for _, pair := range splitUnquoted(splitUnquoted(v, ',')[0], ';') {
			if k, val, ok := strings.Cut(strings.TrimSpace(pair), "="); ok && strings.EqualFold(k, param) {
				return strings.Trim(val, `"`)
			}
		}
	}
	first, _, _ := strings.Cut(r.Header.Get(legacy), ",")
	return strings.TrimSpace(first)
}

// splitUnquoted splits s at each sep outside double quotes.
func splitUnquoted(s string, sep byte) []string {
	var parts []string
	quoted, start := false, 0
	for i := 0; i < len(s); i++ {
		switch {
		case s[i] == '"':
			quoted = !quoted
		case s[i] == sep && !quoted:
			parts = append(parts, s[start:i])
			start = i + 1
		}
	}
	return append(parts, s[start:])
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	buf, ok := jsonBuffers.Get().(*bytes.Buffer)
	if !ok {
		buf = new(bytes.Buffer)
	}
	defer jsonBuffers.Put(buf)
	buf.Reset()
	// Into the buffer, without marshalJSON's copy of the text: a page of
	// live jobs is megabytes.
	if err := encodeJSON(buf, v); err != nil {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusInternalServerError)
		_, _ = io.WriteString(w, `{"statusCode":500,"message":"internal error encoding the response"}`)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(buf.Bytes())
}

// encodeJSON writes v to buf as the service writes JSON (JSON.stringify):
// as json.Marshal does, but for "<", ">" and "&", written as they are (a
// page link's "&", a transcript's "<").
func encodeJSON(buf *bytes.Buffer, v any) error {
	enc := json.NewEncoder(buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return err
	}
	buf.Truncate(buf.Len() - 1) // Encode's newline
	return nil
}

// marshalJSON is v as the service writes it (encodeJSON).
func marshalJSON(v any) ([]byte, error) {
	var buf bytes.Buffer
	if err := encodeJSON(&buf, v); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// jsonBuffers keep writeJSON's buffers from one answer to the next.
var jsonBuffers = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// writeError answers with the service's error body.
func (s *Server) writeError(w http.ResponseWriter, r *http.Request, status int, message string, problems ...string) {
	writeJSON(w, status, client.ErrorBody{
		Timestamp:        formatTimestamp(s.clock.Now()),
		Path:             r.URL.Path,
		RequestID:        uuid.NewString(),
		StatusCode:       status,
		Message:          message,
		ValidationErrors: problems,
	})
}

// statusWriter remembers the status a handler answered with.
type statusWriter struct {
	http.ResponseWriter
	status int
}

func (w *statusWriter) WriteHeader(status int) {
	if w.status == 0 {
		w.status = status
	}
	w.ResponseWriter.WriteHeader(status)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	return w.ResponseWriter.Write(b)
}

func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// record stores the request in the log and returns the function that
// completes the entry with the answered status. A small body is read ahead
// so that it is recorded even when the request is refused before its
// handler reads it; an upload is captured as its handler streams it.
func (s *Server) record(r *http.Request) (finish func(status int, answerLost bool)) {
	header := r.Header.Clone()
	for name := range header {
		if secretHeader(name) {
			header.Set(name, maskedKey)
		}
	}
	rec := &RecordedRequest{Method: r.Method, Path: r.URL.Path, RawQuery: r.URL.RawQuery, Header: header}

	if r.Body == nil { // a request built by hand rather than received
		r.Body = http.NoBody
	}
	captured := &cappedBuffer{limit: maxRecordedBodyBytes}
	if r.URL.Path == "/v2/upload" {
		captured.limit = maxRecordedUploadBytes
		r.Body = readCloser{io.TeeReader(r.Body, captured), r.Body}
	} else {
		head, err := io.ReadAll(io.LimitReader(r.Body, maxCreateBodyBytes+1))
		_, _ = captured.Write(head) // a cappedBuffer never fails
		rest := io.TeeReader(r.Body, captured)
		if err != nil {
			rest = failingReader{err} // the handler meets the failure: a client gone
		}
		r.Body = readCloser{io.MultiReader(bytes.NewReader(head), rest), r.Body}
	}

	s.mu.Lock()
	s.stats.Requests++
	rec.Seq = s.stats.Requests
	old := s.requests
	if s.requests = appendBounded(s.requests, rec, s.opts.RequestLogLimit); len(s.requests) <= len(old) {
		// appendBounded dropped the oldest records.
		unlog(old[:len(old)+1-len(s.requests)])
		s.recountRequestBodies()
	}
	s.mu.Unlock()

	return func(status int, answerLost bool) {
		s.mu.Lock()
		rec.Status, rec.AnswerLost = status, answerLost
		rec.BodyBytes = captured.written
		if !rec.bodyDropped { // unless it left the log while in flight
			rec.Body = captured.Bytes()
			s.requestBodyBytes += len(rec.Body)
			s.dropOldRequestBodies()
		}
		s.mu.Unlock()
	}
}

// statusClientGone is the recorded status of a request whose client went
// away before an answer (nginx's 499): never 0, which the request listing
// reads as still being answered.
const statusClientGone = 499

// failingReader fails every read with err.
type failingReader struct{ err error }

func (f failingReader) Read([]byte) (int, error) { return 0, f.err }

// bodyWatch is a request's body that remembers whether a read failed in
// transport: its client went away before sending all of it (the
// connection closed short of its length, or reset). Reading what it
// carries can fail for its content too (a multipart part cut short within
// a whole body ends in io.ErrUnexpectedEOF as well, read from a part), and
// so can reading the body itself for what the client sent (a chunk length
// that is no number): those are the client's errors, to be told with a 400.
type bodyWatch struct {
	io.ReadCloser
	failed bool
}

func (b *bodyWatch) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if err != nil && lostConnection(err) {
		b.failed = true
	}
	return n, err
}

// lostConnection reports whether reading a request's body failed because
// its connection ended: closed short of the body's end, or reset.
func lostConnection(err error) bool {
	var netErr net.Error
	return errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, net.ErrClosed) || errors.Is(err, syscall.ECONNRESET) || errors.As(err, &netErr)
}

// clientGone reports whether the request's client went away, so that no
// answer can reach it: it is then recorded as statusClientGone
// (answerClientGone), not as a bad request.
func clientGone(r *http.Request, body *bodyWatch) bool {
	return r.Context().Err() != nil || body.failed
}

// answerClientGone ends a request whose client went away: nothing reaches
// it, and the request listing shows statusClientGone.
func answerClientGone(w http.ResponseWriter) {
	w.WriteHeader(statusClientGone)
}

// finalStatus is the status a request ended with: what the handler wrote,
// statusClientGone when it wrote nothing because its client went away, and
// Go's implicit 200 otherwise.
func finalStatus(written int, r *http.Request) int {
	switch {
	case written != 0:
		return written
	case r.Context().Err() != nil:
		return statusClientGone
	}
	return http.StatusOK
}

// unlog marks records that left the request log, so that one still in
// flight keeps no body when it is answered, nor counts it.
func unlog(records []*RecordedRequest) {
	for _, rec := range records {
		rec.Body, rec.bodyDropped = nil, true
	}
}

// recountRequestBodies counts the bytes of the request log's bodies again.
func (s *Server) recountRequestBodies() {
	s.requestBodyBytes, s.bodiesFrom = 0, 0
	for _, rec := range s.requests {
		s.requestBodyBytes += len(rec.Body)
	}
}

// dropOldRequestBodies drops the oldest bodies of the request log while
// they pass the budget; their records stay, with their sizes.
func (s *Server) dropOldRequestBodies() {
	for ; s.requestBodyBytes > s.bodyBudget && s.bodiesFrom < len(s.requests); s.bodiesFrom++ {
		rec := s.requests[s.bodiesFrom]
		s.requestBodyBytes -= len(rec.Body)
		rec.Body, rec.bodyDropped = nil, true
	}
}

type readCloser struct {
	io.Reader
	io.Closer
}

// cappedBuffer keeps the first limit bytes written to it and drops the
// rest, counting them all.
type cappedBuffer struct {
	bytes.Buffer
	limit   int
	written int
}

func (b *cappedBuffer) Write(p []byte) (int, error) {
	b.written += len(p)
	if room := b.limit - b.Len(); room > 0 {
		b.Buffer.Write(p[:min(room, len(p))])
	}
	return len(p), nil
}

func pointerTo[T any](v T) *T { return &v }

// cloneViaJSON deep-copies a JSON-shaped value, so callers of the inspection
// methods can't change the server's state through shared maps or pointers.
func cloneViaJSON[T any](v T) T {
	var out T
	data, err := json.Marshal(v)
	if err == nil {
		err = json.Unmarshal(data, &out)
	}
	if err != nil {
		panic("fakeserver: cloning a record: " + err.Error())
	}
	return out
}
