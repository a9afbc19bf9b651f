// Command fakeserver runs the transcription service emulator on a local
// address, to rehearse pipelines offline:
//
//	go install github.com/transcription-service/terraform-provider-transcription/internal/fakeserver/cmd/fakeserver@latest
//	fakeserver -addr 127.0.0.1:8080 -processing-time 5s-30s -max-concurrent-jobs 10 -retention 10m
//
// Every flag but -version can also be set by an environment variable, FAKESERVER_ and the
// flag's name in capitals with underscores (-processing-time:
// FAKESERVER_PROCESSING_TIME); a flag given on the command line wins. The
// API key also falls back to TRANSCRIPTION_API_KEY. Run it with -help for
// the list.
//
// Once listening it prints one line to stdout, which scripts can parse:
//
//	fakeserver listening on http://127.0.0.1:PORT
//
// (https:// with -tls-cert and -tls-key).
//
// Requests and callback attempts are logged to stderr (never the API key
// or a callback URL's token; -quiet for none).
// SIGINT or SIGTERM shuts it down gracefully.
//
// The control interface, under /_emulator with the same x-service-key,
// changes faults while it runs, takes the service down for a while, lists
// the requests received (without secrets), removes jobs and shows counters;
// see the package documentation of internal/fakeserver and -help.
package main

import (
	"bufio"
	"bytes"
	"context"
	"crypto/tls"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/signal"
	"regexp"
	"runtime/debug"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/transcription-service/terraform-provider-transcription/internal/client"
	"github.com/transcription-service/terraform-provider-transcription/internal/fakeserver"
)

// version is set at release builds (-X main.version=...); `go install
// ...@vX.Y.Z` builds report the module's version instead.
var version = ""

// envPrefix starts the environment variable of each flag.
const envPrefix = "FAKESERVER_"

// defaultAPIKey is the key when neither a flag nor the environment gives one.
const defaultAPIKey = "test-key"

// shutdownGrace is how long requests in flight may take to finish at exit
// (a variable for tests).
var shutdownGrace = 10 * time.Second

func main() {
	// A log reader that goes away (| head, a harness closing the pipe)
	// must not end a server meant to run for hours: the write fails instead.
	signal.Ignore(syscall.SIGPIPE)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	// The first signal starts the shutdown; a second one ends the process
	// at once, as without the server's own handling.
	context.AfterFunc(ctx, stop)
	if err := run(ctx, os.Args[1:], os.Stdout, os.Stderr, os.Getenv); err != nil {
		fmt.Fprintln(os.Stderr, "fakeserver:", err)
		stop()
		os.Exit(1)
	}
}

// config is what the flags and environment ask for.
type config struct {
	addr              string
	apiKey            string
	apiKeySource      string // where apiKey came from, for the log: never the key
	liveJobs          int
	preRecordedJobs   int
	processing        processingRange
	zdr               bool
	maxUploadMB       int64
	maxConcurrentJobs int
	maxProcessingJobs int
	retention         time.Duration
	faults            fakeserver.Faults
	requestLog        int
	quiet             bool
	version           bool
	tlsCert, tlsKey   string // files: HTTPS when both are given
}

// processingRange is the -processing-time value: "5s", or "5s-30s".
type processingRange struct{ lo, hi time.Duration }

func (p *processingRange) String() string {
	if p.hi > p.lo {
		return p.lo.String() + "-" + p.hi.String()
	}
	return p.lo.String()
}

func (p *processingRange) Set(v string) error {
	loText, hiText, isRange := strings.Cut(v, "-")
	if loText == "" { // "-1s": a negative duration, not a range
		return errors.New("must not be negative")
	}
	lo, err := time.ParseDuration(loText)
	if err != nil {
		return err
	}
	hi := lo
	if isRange {
		if hi, err = time.ParseDuration(hiText); err != nil {
			return err
		}
		if hi < lo {
			return fmt.Errorf("the range %s ends before it starts", v)
		}
	}
	p.lo, p.hi = lo, hi
	return nil
}

const usageHeader = `Usage: fakeserver [flags]

Emulates the transcription service's HTTP interface (/v2/...) in memory, for
rehearsing pipelines offline. Each flag may also be set by the environment
variable shown beside it; a flag on the command line wins.

Control interface: under %[1]s on the same address, with the same
x-service-key header; JSON in and out; neither faulted nor recorded.
%[2]s
Example fault drill:
  curl -X PUT -H 'x-service-key: KEY' -d '{"rate_limit_ratio":0.3,"server_error_ratio":0.1}' http://ADDR%[1]s/faults
  curl -X POST -H 'x-service-key: KEY' -d '{"duration":"20s"}' http://ADDR%[1]s/down
  curl -H 'x-service-key: KEY' 'http://ADDR%[1]s/requests?after=0'

Flags:
`

// run serves until ctx is done, then shuts down gracefully.
func run(ctx context.Context, args []string, stdout, stderr io.Writer, getenv func(string) string) error {
	cfg, err := parseConfig(args, stderr, getenv)
	if errors.Is(err, flag.ErrHelp) {
		return nil
	}
	if err != nil {
		return err
	}
	if cfg.version {
		fmt.Fprintln(stdout, "fakeserver", buildVersion())
		return nil
	}

	logger := log.New(stderr, "fakeserver: ", log.LstdFlags|log.Lmicroseconds)
	var callbackLog func(string)
	if !cfg.quiet {
		callbackLog = func(line string) { logger.Print(line) }
	}
	fake := fakeserver.New(fakeserver.Options{
		CallbackLog: callbackLog,
		// Said even with -quiet: an outage that outlasts its duration
		// would otherwise be silent.
		OutageLog:         func(line string) { logger.Print(line) },
		APIKey:            cfg.apiKey,
		ProcessingTime:    cfg.processing.lo,
		ProcessingTimeMax: cfg.processing.hi,
		MaxConcurrentJobs: cfg.maxConcurrentJobs,
		MaxProcessingJobs: cfg.maxProcessingJobs,
		Retention:         cfg.retention,
		ZeroDataRetention: cfg.zdr,
		LiveJobs:          cfg.liveJobs,
		PreRecordedJobs:   cfg.preRecordedJobs,
		MaxUploadBytes:    cfg.maxUploadMB << 20,
		Faults:            cfg.faults,
		RequestLogLimit:   cfg.requestLog,
	})
	defer fake.Close()

	var handler http.Handler = fake
	if !cfg.quiet {
		handler = logRequests(logger, fake)
	}
	var tlsConfig *tls.Config
	if cfg.tlsCert != "" {
		cert, err := tls.LoadX509KeyPair(cfg.tlsCert, cfg.tlsKey)
		if err != nil {
			return fmt.Errorf("-tls-cert and -tls-key: %w", err)
		}
		tlsConfig = &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12}
	}
	if ctx.Err() != nil {
		// Stopped while seeding: no "listening" line for a script to
		// take as ready.
		return nil
	}
	l, err := fakeserver.ServeTLS(cfg.addr, handler, tlsConfig)
	if errors.Is(err, syscall.EADDRINUSE) {
		// make fakeserver passes no flags: the environment reaches it.
		return fmt.Errorf("%w (-addr 127.0.0.1:0, or FAKESERVER_ADDR=127.0.0.1:0, picks a free port)", err)
	}
	if err != nil {
		return err
	}
	fake.UseListener(l) // for POST /_emulator/down
	fmt.Fprintf(stdout, "fakeserver listening on %s\n", l.URL())
	// A user whose shell exports TRANSCRIPTION_API_KEY (as the provider's
	// README has them do) gets that key, not test-key: say which applies.
	logger.Printf("API key (x-service-key): %s", cfg.apiKeySource)
	if cfg.zdr && cfg.preRecordedJobs > 0 {
		logger.Printf("-pre-recorded-jobs %d seeds none under -zero-data-retention: the service keeps no job, and lists or reads none (403)", cfg.preRecordedJobs)
	}
	if cfg.zdr && cfg.liveJobs > 0 {
		logger.Printf("the %d live jobs seeded are not listed: under -zero-data-retention GET /v2/live answers 403, as the service does", cfg.liveJobs)
	}

	<-ctx.Done()
	logger.Print("shutting down")
	fake.Close() // first: requests waiting out -latency are answered at once
	shutdownCtx, cancel := context.WithTimeout(context.Background(), shutdownGrace)
	defer cancel()
	if err := l.Shutdown(shutdownCtx); errors.Is(err, context.DeadlineExceeded) {
		// A slow upload or download is the client's, not a failure of the
		// server, which stopped as asked.
		logger.Printf("requests still in flight after %s were cut off", shutdownGrace)
	} else if err != nil {
		return err
	}
	return nil
}

// acceptedForms says what a variable of a boolean flag takes, which its
// usage does not: the flag package's error is a bare "parse error".
func acceptedForms(f *flag.Flag) string {
	if g, ok := f.Value.(flag.Getter); ok {
		if _, isBool := g.Get().(bool); isBool {
			return ": want true or false (or 1, 0)"
		}
	}
	return ""
}

// durationFlag is a time.Duration flag whose error says what it takes, on
// the command line as in a variable: the flag package's says "parse error".
type durationFlag time.Duration

func (d *durationFlag) Set(s string) error {
	v, err := time.ParseDuration(s)
	if err != nil {
		return errors.New("want a Go duration such as 30s, 10m or 504h (no days)")
	}
	*d = durationFlag(v)
	return nil
}

func (d *durationFlag) String() string { return (*time.Duration)(d).String() }
func (d *durationFlag) Get() any       { return time.Duration(*d) }

// parseConfig reads the environment, then the flags over it.
func parseConfig(args []string, stderr io.Writer, getenv func(string) string) (config, error) {
	var cfg config
	cfg.processing = processingRange{lo: 2 * time.Second, hi: 2 * time.Second}
	flags := flag.NewFlagSet("fakeserver", flag.ContinueOnError)
	flags.SetOutput(stderr)
	flags.StringVar(&cfg.addr, "addr", "127.0.0.1:8080", "address to listen on (port 0 picks a free port)")
	// No default shown: it may come from the environment, and -help must
	// not print a key.
	flags.StringVar(&cfg.apiKey, "api-key", "", "API key required in x-service-key, for the service and the control interface (default: $TRANSCRIPTION_API_KEY, else "+defaultAPIKey+")")
	flags.IntVar(&cfg.preRecordedJobs, "pre-recorded-jobs", 0, fmt.Sprintf("number of deterministic pre-recorded jobs to seed (at most %d), ended over the past week (within -retention, when shorter: they then expire within it), to list, read, import and delete", maxPreRecordedJobs))
	flags.IntVar(&cfg.liveJobs, "live-jobs", 0, "number of deterministic live jobs to seed (at most 1000000), ended over the past week (within -retention, when shorter), for the live listing (starting a live session, POST /v2/live, is not emulated: 405)")
	flags.Var(&cfg.processing, "processing-time", "time a job spends queued and processing before it is final: a duration (2s), or a range (5s-30s) from which each job's time is chosen by a hash of its audio_url (the same file, the same time)")
	flags.BoolVar(&cfg.zdr, "zero-data-retention", false, "emulate an account with zero data retention")
	flags.Int64Var(&cfg.maxUploadMB, "max-upload-mb", 100, "largest file POST /v2/upload accepts, in MiB (larger: 413); uploads are kept in memory")
	flags.IntVar(&cfg.maxConcurrentJobs, "max-concurrent-jobs", 0, "jobs that may be queued or processing at once, as an account's concurrency limit; creates beyond it get 429 with Retry-After (0: no limit)")
	flags.IntVar(&cfg.maxProcessingJobs, "max-processing-jobs", 0, "jobs processed at once, as the service processes an account's jobs (25 on its paid plans); later ones wait queued, first in first out, until one ends (0: no limit)")
	flags.Var((*durationFlag)(&cfg.retention), "retention", "`duration` final jobs (from completion), live ones included, and uploads are kept for; afterwards GET answers 404 and listings leave them out (0: jobs kept until deleted, uploads, which cannot be deleted, for the server's life)")
	flags.Var((*durationFlag)(&cfg.faults.Latency), "latency", "`duration` added to every request, at most 1h")
	flags.Float64Var(&cfg.faults.RateLimitRatio, "rate-limit-ratio", 0, "share of requests answered 429 with Retry-After (0 to 1)")
	flags.IntVar(&cfg.faults.RetryAfter, "retry-after", 1, "Retry-After of those 429 answers, in seconds (0: 1)")
	flags.Float64Var(&cfg.faults.ServerErrorRatio, "server-error-ratio", 0, "share of requests answered -server-error-status (0 to 1)")
	flags.IntVar(&cfg.faults.ServerErrorStatus, "server-error-status", http.StatusServiceUnavailable, "the 5xx status of those answers (0: 503)")
	flags.Float64Var(&cfg.faults.LostAnswerRatio, "lost-answer-ratio", 0, "share of requests handled as usual whose answer is lost: the connection closes before any of it is sent (a create so answered makes a job whose id never reaches its client) (0 to 1)")
	flags.Int64Var(&cfg.faults.Seed, "fault-seed", 0, "chooses which requests fault: the same seed and request order give the same faults")
	flags.IntVar(&cfg.requestLog, "request-log", 10000, "newest requests kept for "+fakeserver.ControlPrefix+"/requests (0: every one, memory growing without bound)")
	flags.StringVar(&cfg.tlsCert, "tls-cert", "", "PEM file of the server's certificate (its chain after it): serve HTTPS, with -tls-key")
	flags.StringVar(&cfg.tlsKey, "tls-key", "", "PEM file of the certificate's private key, with -tls-cert")
	flags.BoolVar(&cfg.quiet, "quiet", false, "do not log requests and callback attempts to stderr")
	flags.BoolVar(&cfg.version, "version", false, "print the version and exit")

	envNames := map[string]string{}
	flags.VisitAll(func(f *flag.Flag) {
		if f.Name == "version" { // FAKESERVER_VERSION is too likely to name an image tag
			return
		}
		name := envPrefix + strings.ToUpper(strings.ReplaceAll(f.Name, "-", "_"))
		envNames[f.Name] = name
		f.Usage += " [$" + name + "]"
	})
	flags.Usage = func() {
		fmt.Fprintf(flags.Output(), usageHeader, fakeserver.ControlPrefix, "  "+strings.Join(fakeserver.ControlEndpoints(), "\n  ")+"\n")
		flags.PrintDefaults()
	}

	if err := flags.Parse(args); err != nil {
		return cfg, err
	}
	// Flags win over variables: a variable sets only a flag the command
	// line left out.
	given := map[string]bool{}
	flags.Visit(func(f *flag.Flag) { given[f.Name] = true })
	var envErr error
	flags.VisitAll(func(f *flag.Flag) {
		name, ok := envNames[f.Name]
		if !ok || given[f.Name] || envErr != nil {
			return
		}
		if v := getenv(name); v != "" {
			if err := flags.Set(f.Name, v); err != nil {
				_, usage := flag.UnquoteUsage(f) // without -help's `name` quotes
				envErr = fmt.Errorf("%s=%q: %w%s (-%s: %s)", name, v, err, acceptedForms(f), f.Name, usage)
			}
		}
	})
	if envErr != nil {
		return cfg, envErr
	}
	switch {
	case given["api-key"]:
		cfg.apiKeySource = "-api-key"
	case getenv(envNames["api-key"]) != "":
		cfg.apiKeySource = envNames["api-key"]
	default:
		cfg.apiKey, cfg.apiKeySource = getenv("TRANSCRIPTION_API_KEY"), "TRANSCRIPTION_API_KEY"
		if cfg.apiKey == "" {
			cfg.apiKey, cfg.apiKeySource = defaultAPIKey, "the default, "+defaultAPIKey
		}
	}
	// A value out of range is named where it was written: a variable's
	// user may not know which flag it sets.
	named := func(flagName string) string {
		if !given[flagName] && getenv(envNames[flagName]) != "" {
			return envNames[flagName] + " (-" + flagName + ")"
		}
		return "-" + flagName
	}
	if err := cfg.validate(flags.Args(), boolFlagBefore(flags, args, flags.Args()), named); err != nil {
		return cfg, err
	}
	if cfg.tlsCert != "" {
		// Read here to be named as set; run reads them again to serve.
		if _, err := tls.LoadX509KeyPair(cfg.tlsCert, cfg.tlsKey); err != nil {
			return cfg, fmt.Errorf("%s and %s: %w", named("tls-cert"), named("tls-key"), err)
		}
	}
	// HTTP trims white space around a header's value, and none carries a
	// control character: a key read from a file with its newline (or its
	// byte-order mark) would make a server nobody can authenticate to,
	// answering 401 to all.
	if err := client.CheckAPIKey(cfg.apiKey); err != nil {
		return cfg, fmt.Errorf("the API key from %s cannot be used: %w", cfg.apiKeySource, err)
	}
	return cfg, nil
}

// maxLiveJobs bounds -live-jobs.
const maxLiveJobs = 1_000_000

// maxPreRecordedJobs bounds -pre-recorded-jobs: each is built whole at
// startup, its result included (see BenchmarkSeedPreRecorded).
const maxPreRecordedJobs = 10_000

// boolFlagBefore is the boolean flag, as written ("-quiet"), right before
// the arguments left after the flags (rest) in args, or "": flags end at
// a boolean flag given a separate value ("-quiet true").
func boolFlagBefore(flags *flag.FlagSet, args, rest []string) string {
	i := len(args) - len(rest) - 1
	if len(rest) == 0 || i < 0 || !strings.HasPrefix(args[i], "-") {
		return ""
	}
	f := flags.Lookup(strings.TrimLeft(args[i], "-"))
	if f == nil {
		return ""
	}
	if b, ok := f.Value.(interface{ IsBoolFlag() bool }); ok && b.IsBoolFlag() {
		return args[i]
	}
	return ""
}

// validate checks cfg, and that no argument is left after the flags (rest;
// boolFlag is the boolean flag right before them, if any); named gives a
// flag's name as its user set it.
func (cfg config) validate(rest []string, boolFlag string, named func(flagName string) string) error {
	switch {
	case len(rest) > 0:
		// Not quoted: the arguments after a stray one are the command
		// line's rest, an -api-key's value among them.
		hint := ""
		if _, err := strconv.ParseBool(rest[0]); err == nil && boolFlag != "" {
			// The value, a boolean, is no secret.
			hint = fmt.Sprintf(": a boolean flag takes no separate value; write %s=%s", boolFlag, rest[0])
		}
		what := "an unexpected argument"
		if len(rest) > 1 {
			what = fmt.Sprintf("%d unexpected arguments", len(rest))
		}
		return fmt.Errorf("%s after the flags (not shown, as they may hold the key): flags end at the first argument that is not one%s", what, hint)
	case cfg.apiKey == "":
		return errors.New(named("api-key") + " must not be empty")
	case cfg.liveJobs < 0 || cfg.liveJobs > maxLiveJobs:
		// About 700 bytes each before a job's record is built: a million
		// take 700 MB; more ran the process out of memory at startup.
		return fmt.Errorf("%s must be from 0 to %d", named("live-jobs"), maxLiveJobs)
	case cfg.preRecordedJobs < 0 || cfg.preRecordedJobs > maxPreRecordedJobs:
		return fmt.Errorf("%s must be from 0 to %d", named("pre-recorded-jobs"), maxPreRecordedJobs)
	case cfg.processing.lo < 0:
		return errors.New(named("processing-time") + " must not be negative")
	case cfg.maxUploadMB < 1 || cfg.maxUploadMB > 1<<20:
		return errors.New(named("max-upload-mb") + " must be from 1 to 1048576")
	case cfg.maxConcurrentJobs < 0:
		return errors.New(named("max-concurrent-jobs") + " must not be negative")
	case cfg.maxProcessingJobs < 0:
		return errors.New(named("max-processing-jobs") + " must not be negative")
	case cfg.retention < 0:
		return errors.New(named("retention") + " must not be negative")
	case cfg.requestLog < 0:
		return errors.New(named("request-log") + " must not be negative")
	case (cfg.tlsCert == "") != (cfg.tlsKey == ""):
		return errors.New(named("tls-cert") + " and " + named("tls-key") + " go together: give both to serve HTTPS, or neither")
	}
	return cfg.faults.ValidateNamed(fakeserver.FaultNames{
		Latency:           named("latency"),
		RateLimitRatio:    named("rate-limit-ratio"),
		RetryAfter:        named("retry-after"),
		ServerErrorRatio:  named("server-error-ratio"),
		ServerErrorStatus: named("server-error-status"),
		LostAnswerRatio:   named("lost-answer-ratio"),
	})
}

// buildVersion is the release's version, else the module's as `go install`
// recorded it, written as the release writes it (0.1.0, not v0.1.0), else
// "devel".
func buildVersion() string {
	if version != "" {
		return version
	}
	info, _ := debug.ReadBuildInfo()
	return moduleVersion(info)
}

// moduleVersion is the version go install recorded in info, without its
// "v"; "devel" when it recorded none.
func moduleVersion(info *debug.BuildInfo) string {
	if info == nil || info.Main.Version == "" || info.Main.Version == "(devel)" {
		return "devel"
	}
	return strings.TrimPrefix(info.Main.Version, "v")
}

// logRequests logs each request's method, target (its query redacted but
// for the listings' parameters), status and duration; no headers, so the
// API key never reaches the log. An error answer adds why (its message,
// validation_errors and request_id, URLs in them redacted), an injected
// fault says so, and a create or an upload names what it made.
func logRequests(logger *log.Logger, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		r, note := fakeserver.WithAnswerNote(r)
		sw := &statusWriter{ResponseWriter: w, keepBody: r.Method == http.MethodPost}
		defer func() {
			aborted := recover()
			status := "no answer" // the client gave up, or the server is closing
			switch {
			case aborted == http.ErrAbortHandler: //nolint:errorlint // a panic value, compared as the server does
				status = "answer lost (-lost-answer-ratio)"
				if note.LostStatus != 0 { // what the client never received: a create's job, to find it by
					status = strconv.Itoa(note.LostStatus) + answerSummary(note.LostStatus, note.LostAnswer) + ", " + status
				}
			case sw.status != 0:
				status = strconv.Itoa(sw.status) + answerSummary(sw.status, sw.body.Bytes())
				if note.Fault != "" {
					status += " (injected: " + note.Fault + ")"
				}
				if note.Closed != "" {
					status += ", " + note.Closed
				}
			}
			target := r.URL.EscapedPath()
			if r.URL.RawQuery != "" {
				target += "?" + fakeserver.RedactedQuery(r.URL.RawQuery)
			}
			logger.Printf("%s %s %s %s", r.Method, target, status, time.Since(start).Round(time.Microsecond))
			if aborted != nil {
				panic(aborted)
			}
		}()
		next.ServeHTTP(sw, r)
	})
}

// maxKeptAnswer bounds the answer a log line reads: error bodies and the
// answers of creates and uploads are far smaller.
const maxKeptAnswer = 8 << 10

// answerSummary is what the log adds to an answer's status: an error's
// message, validation_errors and request_id; the id of the job or file a
// create or an upload made; empty for another answer.
func answerSummary(status int, body []byte) string {
	var answer struct {
		Message          string   `json:"message"`
		RequestID        string   `json:"request_id"`
		ValidationErrors []string `json:"validation_errors"`
		ID               string   `json:"id"`
		AudioMetadata    struct {
			ID string `json:"id"`
		} `json:"audio_metadata"`
	}
	if len(body) == 0 || json.Unmarshal(body, &answer) != nil {
		return ""
	}
	var b strings.Builder
	switch {
	case status >= 400:
		if answer.Message != "" {
			b.WriteString(": " + redactURLsIn(answer.Message))
		}
		if len(answer.ValidationErrors) > 0 {
			problems := make([]string, len(answer.ValidationErrors))
			for i, problem := range answer.ValidationErrors {
				problems[i] = redactURLsIn(problem)
			}
			b.WriteString(" (validation_errors: " + strings.Join(problems, "; ") + ")")
		}
		if answer.RequestID != "" {
			b.WriteString(" [request_id " + answer.RequestID + "]")
		}
	case answer.ID != "":
		b.WriteString(" job " + answer.ID)
	case answer.AudioMetadata.ID != "":
		b.WriteString(" file " + answer.AudioMetadata.ID)
	}
	return b.String()
}

// quotedInText matches a value quoted in an error message as Go quotes
// (the server's "(got %q)"); urlInText a URL written as it is.
var (
	quotedInText = regexp.MustCompile(`"(?:[^"\\]|\\.)*"`)
	urlInText    = regexp.MustCompile(`(?i)\bhttps?://[^\s"/?#]+[^\s"]*`)
)

// redactURLsIn leaves out of text what may carry a token, as the request
// listing hides it: the values quoted in a problem of a URL field (a
// callback URL refused as invalid, whatever its form: with a token in its
// path or query, without a scheme), and every URL's path, query and
// credentials, but its scheme and host.
func redactURLsIn(text string) string {
	if strings.Contains(strings.ToLower(text), "url") {
		text = quotedInText.ReplaceAllString(text, `"…"`)
	}
	return urlInText.ReplaceAllStringFunc(text, func(raw string) string {
		u, err := url.Parse(raw)
		if err != nil || u.Host == "" {
			return "…"
		}
		return u.Scheme + "://" + u.Host + "/…"
	})
}

// statusWriter remembers the status a handler answered with (0 when it
// answered nothing) and, with keepBody or for an error, the head of its
// body.
type statusWriter struct {
	http.ResponseWriter
	status   int
	keepBody bool
	body     bytes.Buffer
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
	if (w.keepBody || w.status >= 400) && w.body.Len() < maxKeptAnswer {
		w.body.Write(b[:min(len(b), maxKeptAnswer-w.body.Len())])
	}
	return w.ResponseWriter.Write(b)
}

func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// Hijack takes the connection over, for the WebSocket handshake the server
// answers itself (a live session it refuses): logged as 101.
func (w *statusWriter) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	conn, buf, err := http.NewResponseController(w.ResponseWriter).Hijack()
	if err == nil && w.status == 0 {
		w.status = http.StatusSwitchingProtocols
	}
	return conn, buf, err
}
