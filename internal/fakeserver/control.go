package fakeserver

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/transcription-service/terraform-provider-transcription/internal/client"
)

// ControlPrefix is the path prefix of the emulator's control interface,
// outside the service's /v2 paths. See the package documentation.
const ControlPrefix = "/_emulator"

// Bounds of the control interface.
const (
	maxControlBodyBytes   = 64 << 10
	maxOutage             = time.Hour
	defaultRequestsPage   = 1000
	maxRequestsPage       = 10000
	upRetryInterval       = 100 * time.Millisecond
	redacted              = "REDACTED"
	controlFaultsExample  = `{"latency":"200ms","rate_limit_ratio":0.2,"retry_after":1,"server_error_ratio":0.1,"server_error_status":503,"lost_answer_ratio":0,"seed":1}`
	controlDurationFormat = `a Go duration such as "250ms", "30s" or "2m"`
)

// controlEndpoints describes the control interface, for its index and for
// answers to unknown paths.
var controlEndpoints = []string{
	"GET    " + ControlPrefix + "             this list and the emulator's settings",
	"GET    " + ControlPrefix + "/faults      the faults injected now",
	"PUT    " + ControlPrefix + "/faults      replace them, e.g. " + controlFaultsExample,
	"DELETE " + ControlPrefix + "/faults      inject none",
	"POST   " + ControlPrefix + "/down        take the service off its address for a while: {\"duration\":\"30s\"}",
	"GET    " + ControlPrefix + "/requests    the requests received, without secrets: ?after=SEQ&limit=N",
	"DELETE " + ControlPrefix + "/requests    forget them",
	"DELETE " + ControlPrefix + "/jobs/{id}   remove a pre-recorded or live job, as the end of its retention does",
	"GET    " + ControlPrefix + "/stats       counters: requests, faults, jobs created, expired, callbacks; jobs and uploads stored",
}

// ControlEndpoints describes the control interface's endpoints, one a line.
func ControlEndpoints() []string { return slices.Clone(controlEndpoints) }

func isControlPath(path string) bool {
	return path == ControlPrefix || strings.HasPrefix(path, ControlPrefix+"/")
}

// UseListener tells the control interface which Listener POST
// /_emulator/down takes off the network. Serve calls it when its handler is
// the *Server itself.
func (s *Server) UseListener(l *Listener) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.listener = l
}

// Faults returns the faults injected now, defaults filled in.
func (s *Server) Faults() Faults {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.faults.cfg
}

// serveControl answers a request to the control interface; the caller has
// checked its key.
func (s *Server) serveControl(w http.ResponseWriter, r *http.Request) {
	rest := strings.Trim(strings.TrimPrefix(r.URL.Path, ControlPrefix), "/")
	method := routedMethod(r)
	route := func(m string) bool { return method == m }
	switch {
	case rest == "" && route(http.MethodGet):
		s.controlIndex(w)
	case rest == "faults" && route(http.MethodGet):
		writeControlJSON(w, http.StatusOK, faultsToWire(s.Faults()))
	case rest == "faults" && route(http.MethodPut):
		s.controlSetFaults(w, r)
	case rest == "faults" && route(http.MethodDelete):
		s.SetFaults(Faults{})
		writeControlJSON(w, http.StatusOK, faultsToWire(s.Faults()))
	case rest == "down" && route(http.MethodPost):
		s.controlDown(w, r)
	case rest == "requests" && route(http.MethodGet):
		s.controlRequests(w, r)
	case rest == "requests" && route(http.MethodDelete):
		s.ResetRequests()
		w.WriteHeader(http.StatusNoContent)
	case strings.HasPrefix(rest, "jobs/") && route(http.MethodDelete):
		s.controlRemoveJob(w, r, strings.TrimPrefix(rest, "jobs/"))
	case rest == "stats" && route(http.MethodGet):
		writeControlJSON(w, http.StatusOK, statsToWire(s.Stats()))
	default:
		if allowed := controlMethods(rest); len(allowed) > 0 {
			w.Header().Set("Allow", strings.Join(allowed, ", "))
			s.writeError(w, r, http.StatusMethodNotAllowed, "method "+r.Method+" is not allowed on "+r.URL.Path+"; the control interface has:\n"+
				strings.Join(controlEndpoints, "\n"))
			return
		}
		s.writeError(w, r, http.StatusNotFound, "no such control endpoint: "+r.Method+" "+r.URL.Path+"; the control interface has:\n"+
			strings.Join(controlEndpoints, "\n"))
	}
}

// controlMethods returns, sorted, the methods controlEndpoints lists for
// the control path rest (trimmed of slashes, as serveControl has it), and
// HEAD wherever GET is.
func controlMethods(rest string) []string {
	var methods []string
	for _, line := range controlEndpoints {
		f := strings.Fields(line)
		pattern := strings.Trim(strings.TrimPrefix(f[1], ControlPrefix), "/")
		prefix, hasID := strings.CutSuffix(pattern, "{id}")
		if rest == pattern || hasID && strings.HasPrefix(rest, prefix) && len(rest) > len(prefix) {
			methods = append(methods, f[0])
		}
	}
	return allowedMethods(methods)
}

// controlSettings is what GET /_emulator shows of the emulator's options.
type controlSettings struct {
	ProcessingTime    string `json:"processing_time"`
	ProcessingTimeMax string `json:"processing_time_max"`
	MaxConcurrentJobs int    `json:"max_concurrent_jobs"`
	MaxProcessingJobs int    `json:"max_processing_jobs"`
	Retention         string `json:"retention"`
	ZeroDataRetention bool   `json:"zero_data_retention"`
	MaxUploadBytes    int64  `json:"max_upload_bytes"`
	LiveJobs          int    `json:"live_jobs"`
	PreRecordedJobs   int    `json:"pre_recorded_jobs"`
	RequestLogLimit   int    `json:"request_log_limit"`
	ListenerKnown     bool   `json:"listener_known"`
}

func (s *Server) controlIndex(w http.ResponseWriter) {
	s.mu.Lock()
	known := s.listener != nil
	s.mu.Unlock()
	o := s.opts
	writeControlJSON(w, http.StatusOK, map[string]any{
		"endpoints": controlEndpoints,
		"settings": controlSettings{
			ProcessingTime:    o.ProcessingTime.String(),
			ProcessingTimeMax: max(o.ProcessingTimeMax, o.ProcessingTime).String(),
			MaxConcurrentJobs: o.MaxConcurrentJobs,
			MaxProcessingJobs: o.MaxProcessingJobs,
			Retention:         o.Retention.String(),
			ZeroDataRetention: o.ZeroDataRetention,
			MaxUploadBytes:    o.MaxUploadBytes,
			LiveJobs:          o.LiveJobs,
			PreRecordedJobs:   o.PreRecordedJobs,
			RequestLogLimit:   o.RequestLogLimit,
			ListenerKnown:     known,
		},
	})
}

// faultsWire is Faults as the control interface reads and writes them.
type faultsWire struct {
	Latency           string  `json:"latency"`
	RateLimitRatio    float64 `json:"rate_limit_ratio"`
	RetryAfter        int     `json:"retry_after"`
	ServerErrorRatio  float64 `json:"server_error_ratio"`
	ServerErrorStatus int     `json:"server_error_status"`
	LostAnswerRatio   float64 `json:"lost_answer_ratio"`
	Seed              int64   `json:"seed"`
}

func faultsToWire(f Faults) faultsWire {
	return faultsWire{
		Latency:           f.Latency.String(),
		RateLimitRatio:    f.RateLimitRatio,
		RetryAfter:        f.RetryAfter,
		ServerErrorRatio:  f.ServerErrorRatio,
		ServerErrorStatus: f.ServerErrorStatus,
		LostAnswerRatio:   f.LostAnswerRatio,
		Seed:              f.Seed,
	}
}

func (s *Server) controlSetFaults(w http.ResponseWriter, r *http.Request) {
	var in faultsWire
	if problem := decodeControlBody(r, &in); problem != "" {
		s.writeError(w, r, http.StatusBadRequest, problem+"; send for example "+controlFaultsExample)
		return
	}
	f := Faults{
		RateLimitRatio:    in.RateLimitRatio,
		RetryAfter:        in.RetryAfter,
		ServerErrorRatio:  in.ServerErrorRatio,
		ServerErrorStatus: in.ServerErrorStatus,
		LostAnswerRatio:   in.LostAnswerRatio,
		Seed:              in.Seed,
	}
	if in.Latency != "" {
		d, err := time.ParseDuration(in.Latency)
		if err != nil {
			s.writeError(w, r, http.StatusBadRequest, "latency: "+strconv.Quote(in.Latency)+" is not "+controlDurationFormat)
			return
		}
		f.Latency = d
	}
	if err := f.Validate(); err != nil {
		s.writeError(w, r, http.StatusBadRequest, err.Error())
		return
	}
	s.SetFaults(f)
	writeControlJSON(w, http.StatusOK, faultsToWire(s.Faults()))
}

// controlDown answers, then takes the service's Listener down for the
// duration asked for and brings it back on the same address.
func (s *Server) controlDown(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Duration string `json:"duration"`
	}
	if problem := decodeControlBody(r, &in); problem != "" {
		s.writeError(w, r, http.StatusBadRequest, problem+`; send for example {"duration":"30s"}`)
		return
	}
	d, err := time.ParseDuration(in.Duration)
	if err != nil || d <= 0 || d > maxOutage {
		s.writeError(w, r, http.StatusBadRequest, "duration: "+strconv.Quote(in.Duration)+" must be "+controlDurationFormat+", above 0 and at most "+maxOutage.String())
		return
	}
	s.mu.Lock()
	l := s.listener
	s.mu.Unlock()
	if l == nil {
		s.writeError(w, r, http.StatusConflict, "this server does not know the listener it is served by: serve it with fakeserver.Serve (as the fakeserver command does), or call Server.UseListener")
		return
	}
	back := time.Now().Add(d)
	// The answer goes out whole before the connection is cut: a fixed length
	// (no chunk left to send) and a flush, then the outage.
	w.Header().Set("Connection", "close")
	writeControlJSON(w, http.StatusAccepted, map[string]string{"down_for": d.String(), "back_at": formatTimestamp(back)})
	_ = http.NewResponseController(w).Flush()
	s.outages.Go(func() { s.outage(l, d) })
}

// outage takes l down for d, then brings it up again, retrying while the
// address is briefly unavailable, until the Server is closed.
func (s *Server) outage(l *Listener, d time.Duration) {
	if err := l.Down(); err != nil {
		return
	}
	s.logOutage("down for %s (POST %s/down): %s refuses connections", d, ControlPrefix, l.Addr())
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-s.ctx.Done():
		return
	case <-t.C:
	}
	for failed := false; ; failed = true {
		err := l.Up()
		switch {
		case err == nil:
			s.logOutage("back: listening on %s again", l.Addr())
			return
		case errors.Is(err, ErrListenerClosed):
			return
		case !failed:
			s.logOutage("cannot listen on %s again at the outage's end: %v; trying again every %s", l.Addr(), err, upRetryInterval)
		}
		retry := time.NewTimer(upRetryInterval)
		select {
		case <-s.ctx.Done():
			retry.Stop()
			return
		case <-retry.C:
		}
	}
}

// logOutage gives Options.OutageLog a line, if it is set.
func (s *Server) logOutage(format string, args ...any) {
	if s.opts.OutageLog != nil {
		s.opts.OutageLog(fmt.Sprintf(format, args...))
	}
}

// requestWire is one recorded request as the control interface lists it:
// no key, no credentials, URLs in JSON bodies without their secrets.
type requestWire struct {
	Seq       int             `json:"seq"`
	Method    string          `json:"method"`
	Path      string          `json:"path"`
	Query     string          `json:"query,omitempty"`
	Status    int             `json:"status"`
	Header    http.Header     `json:"header"`
	Body      json.RawMessage `json:"body,omitempty"`
	BodyBytes int             `json:"body_bytes"`
	// AnswerLost: the status was answered, and never reached the client.
	AnswerLost bool `json:"answer_lost,omitempty"`
}

func (s *Server) controlRequests(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	after, limit := 0, defaultRequestsPage
	for name, target := range map[string]*int{"after": &after, "limit": &limit} {
		if v := q.Get(name); v != "" {
			n, err := strconv.Atoi(v)
			if err != nil || n < 0 || (name == "limit" && (n < 1 || n > maxRequestsPage)) {
				rule := "a whole number from 0"
				if name == "limit" {
					rule = fmt.Sprintf("a whole number from 1 to %d", maxRequestsPage)
				}
				s.writeError(w, r, http.StatusBadRequest, fmt.Sprintf("%s: %q must be %s", name, v, rule))
				return
			}
			*target = n
		}
	}
	var page []RecordedRequest
	for _, rec := range s.Requests() {
		if rec.Seq > after && len(page) < limit {
			page = append(page, rec)
		}
	}
	// last_seq stops before the first request still being answered
	// (status 0): past it, a poll with after=last_seq would never see its
	// answer. That request, and those after it, are listed again then. A
	// page full of requests after one that takes long (a slow upload) would
	// then be listed again until it ends: next_after, the last request
	// listed, goes past it, and pending says which to look at again
	// (after=SEQ-1&limit=1).
	out := make([]requestWire, len(page))
	last, next, answered := after, after, true
	pending := []int{}
	for i, rec := range page {
		out[i] = requestToWire(rec)
		answered = answered && rec.Status != 0
		if answered {
			last = rec.Seq
		}
		if rec.Status == 0 {
			pending = append(pending, rec.Seq)
		}
		next = rec.Seq
	}
	writeControlJSON(w, http.StatusOK, map[string]any{"requests": out, "last_seq": last, "next_after": next, "pending": pending})
}

// secretHeaderWords are the words of a header's name that say it may carry
// a credential: x-service-key, the official client's x-gladia-key (sent from
// GLADIA_API_KEY beside the key a user points it here with), Authorization,
// Cookie, and the names pipelines give their own (X-Api-Token, ...).
var secretHeaderWords = []string{"key", "token", "secret", "auth", "cookie", "password", "signature", "credential", "session"}

// secretHeader reports whether a header may carry a credential: masked in
// Server.Requests, left out of the listing, whatever its value.
func secretHeader(name string) bool {
	lower := strings.ToLower(name)
	return slices.ContainsFunc(secretHeaderWords, func(word string) bool { return strings.Contains(lower, word) })
}

func requestToWire(rec RecordedRequest) requestWire {
	h := rec.Header.Clone()
	for name := range h {
		if secretHeader(name) {
			h.Del(name)
		}
	}
	out := requestWire{Seq: rec.Seq, Method: rec.Method, Path: rec.Path, Query: RedactedQuery(rec.RawQuery), Status: rec.Status, Header: h, BodyBytes: rec.BodyBytes, AnswerLost: rec.AnswerLost}
	if body, ok := redactBody(rec.Body); ok {
		out.Body = body
	}
	return out
}

// redactBody returns a JSON object body with the secrets a URL may carry
// taken out: callback URLs lose their query string, audio_url keeps only the
// emulator's duration and channels parameters, and any user information or
// fragment goes. A URL anywhere else (under a misspelled name such as
// callbackUrl, in custom_metadata) is redacted as a callback URL is.
// Anything but a JSON object (an upload, a malformed body) is left out.
func redactBody(body []byte) (json.RawMessage, bool) {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	var obj map[string]any
	if err := dec.Decode(&obj); err != nil || obj == nil || dec.More() {
		return nil, false
	}
	redactURLField(obj, "audio_url", map[string]bool{"duration": true, "channels": true}, false)
	redactURLField(obj, "callback_url", nil, true)
	for key, v := range obj {
		switch {
		case strings.EqualFold(key, "audio_url"), strings.EqualFold(key, "callback_url"):
		case strings.EqualFold(key, "callback_config"):
			if cfg, ok := v.(map[string]any); ok {
				redactURLField(cfg, "url", nil, true)
				for k, v := range cfg {
					if !strings.EqualFold(k, "url") {
						cfg[k] = redactURLsIn(v)
					}
				}
			} else if v != nil { // not the object the create wants: shown as nothing
				obj[key] = redacted
			}
		default:
			obj[key] = redactURLsIn(v)
		}
	}
	data, err := marshalJSON(obj)
	if err != nil {
		return nil, false
	}
	return data, true
}

// redactURLField redacts the URL at key in obj, and at any key that is key
// in another case; a value there that is not a string is REDACTED whole.
// The create refuses such keys and values, but the request listing shows
// the body it refused.
func redactURLField(obj map[string]any, key string, keep map[string]bool, pathTokens bool) {
	for k, v := range obj {
		if !strings.EqualFold(k, key) || v == nil {
			continue
		}
		if s, ok := v.(string); ok {
			obj[k] = redactURL(s, keep, pathTokens)
		} else {
			obj[k] = redacted
		}
	}
}

// redactURLsIn redacts, in a JSON value, every string that holds a URL: as
// a callback URL when it is one, whole when the URL is within other text.
func redactURLsIn(v any) any {
	switch v := v.(type) {
	case string:
		if !strings.Contains(v, "://") {
			return v
		}
		if u, err := url.Parse(v); err == nil && u.Host != "" {
			return redactURL(v, nil, true)
		}
		return redacted
	case map[string]any:
		for k, e := range v {
			v[k] = redactURLsIn(e)
		}
	case []any:
		for i, e := range v {
			v[i] = redactURLsIn(e)
		}
	}
	return v
}

// redactURL keeps a URL's scheme, host and path, the query parameters named
// in keep, and the names of the others; their values, user information and
// fragment become REDACTED, as does a parameter without "=" (all value: a
// bare token) and the opaque part of a URL without "//" ("https:user:pw@h").
// With pathTokens, so do the path's segments that may be tokens
// (client.MayBeToken), as a webhook's URL carries its token in its path.
func redactURL(raw string, keep map[string]bool, pathTokens bool) string {
	u, err := url.Parse(raw)
	if err != nil {
		return redacted
	}
	if u.Opaque != "" {
		return (&url.URL{Scheme: u.Scheme, Opaque: redacted}).String()
	}
	if pathTokens {
		segments := strings.Split(u.EscapedPath(), "/")
		for i, segment := range segments {
			decoded, err := url.PathUnescape(segment)
			if client.MayBeToken(segment) || (err == nil && client.MayBeToken(decoded)) {
				segments[i] = redacted
			}
		}
		escaped := strings.Join(segments, "/")
		if p, err := url.PathUnescape(escaped); err == nil {
			u.Path, u.RawPath = p, escaped
		}
	}
	if u.User != nil {
		u.User = url.User(redacted)
	}
	if u.Fragment != "" || u.RawFragment != "" {
		u.Fragment, u.RawFragment = redacted, ""
	}
	u.RawQuery = redactQuery(u.RawQuery, func(name string) bool { return keep[name] })
	return u.String()
}

// RedactedQuery is a request's query string as the server's logs show it:
// the listings' parameters (and the request listing's after) as sent, the
// values of any other (a session's ?token= in a URL the official client
// opens, a signature) REDACTED.
func RedactedQuery(rawQuery string) string {
	return redactQuery(rawQuery, listingParameter)
}

// listingParameter reports whether name is a parameter the listings read
// (GET /v2/pre-recorded, /v2/live, /v2/transcription).
func listingParameter(name string) bool {
	switch name {
	case "offset", "limit", "date", "after_date", "before_date", "status", "kind",
		"after": // the control interface's request listing
		return true
	}
	return strings.HasPrefix(name, "custom_metadata[")
}

// redactQuery keeps the parameters keep names and the names of the others,
// whose values become REDACTED, as does a parameter without "=" (all value:
// a bare token).
func redactQuery(rawQuery string, keep func(name string) bool) string {
	if rawQuery == "" {
		return ""
	}
	var parts []string
	for _, p := range strings.Split(rawQuery, "&") {
		name, _, named := strings.Cut(p, "=")
		switch {
		case !named:
			parts = append(parts, redacted)
		case keep(unescapedName(name)) && !strings.Contains(p, ";"):
			// A ";" would hide another parameter in the value
			// ("limit=5;token=..."), which Go reads as one.
			parts = append(parts, p)
		default:
			parts = append(parts, url.QueryEscape(unescapedName(name))+"="+redacted)
		}
	}
	return strings.Join(parts, "&")
}

// unescapedName is a query parameter's name unescaped, or as sent when it
// cannot be.
func unescapedName(name string) string {
	if s, err := url.QueryUnescape(name); err == nil {
		return s
	}
	return name
}

func (s *Server) controlRemoveJob(w http.ResponseWriter, r *http.Request, id string) {
	if id == "" || strings.Contains(id, "/") {
		s.writeError(w, r, http.StatusNotFound, "no such control endpoint: "+r.URL.Path)
		return
	}
	if s.ExpireJob(id) || s.RemoveLiveJob(id) {
		w.WriteHeader(http.StatusNoContent)
		return
	}
	s.writeError(w, r, http.StatusNotFound, "no pre-recorded or live job with id "+id)
}

// statsWire is Stats as the control interface shows them.
type statsWire struct {
	Requests           int   `json:"requests"`
	RateLimited        int   `json:"rate_limited"`
	ServerErrors       int   `json:"server_errors"`
	AnswersLost        int   `json:"answers_lost"`
	JobsCreated        int   `json:"jobs_created"`
	ConcurrencyLimited int   `json:"concurrency_limited"`
	CallbacksDelivered int   `json:"callbacks_delivered"`
	CallbackFailures   int   `json:"callback_failures"`
	JobsExpired        int   `json:"jobs_expired"`
	UploadsExpired     int   `json:"uploads_expired"`
	JobsStored         int   `json:"jobs_stored"`
	UploadsStored      int   `json:"uploads_stored"`
	UploadBytesStored  int64 `json:"upload_bytes_stored"`
}

func statsToWire(st Stats) statsWire {
	return statsWire(st)
}

// decodeControlBody reads a small JSON object strictly, or says what is wrong.
func decodeControlBody(r *http.Request, v any) string {
	dec := json.NewDecoder(http.MaxBytesReader(nil, r.Body, maxControlBodyBytes))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return "the body must be a JSON object: " + err.Error()
	}
	if dec.More() {
		return "the body must hold one JSON object"
	}
	return ""
}

// writeControlJSON answers with a JSON body of fixed length, so that the
// answer is complete as soon as it is flushed.
func writeControlJSON(w http.ResponseWriter, status int, v any) {
	data, err := marshalJSON(v)
	if err != nil {
		http.Error(w, `{"message":"internal error encoding the response"}`, http.StatusInternalServerError)
		return
	}
	data = append(data, '\n')
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", strconv.Itoa(len(data)))
	w.WriteHeader(status)
	_, _ = w.Write(data)
}
