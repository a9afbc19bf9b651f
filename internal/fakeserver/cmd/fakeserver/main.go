// Command fakeserver runs the transcription service emulator on a local
// address, for testing pipelines offline:
//
//	go run ./internal/fakeserver/cmd/fakeserver -addr 127.0.0.1:0 -live-jobs 50 -max-upload-mb 1000
//
// Once listening it prints one line to stdout, which scripts can parse:
//
//	fakeserver listening on http://127.0.0.1:PORT
//
// Requests are logged to stderr (never the API key). SIGINT or SIGTERM shuts
// it down gracefully.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/transcription-service/terraform-provider-transcription/internal/fakeserver"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stdout, os.Stderr, os.Getenv); err != nil {
		fmt.Fprintln(os.Stderr, "fakeserver:", err)
		stop()
		os.Exit(1)
	}
}

// run serves until ctx is done, then shuts down gracefully.
func run(ctx context.Context, args []string, stdout, stderr io.Writer, getenv func(string) string) error {
	defaultKey := getenv("TRANSCRIPTION_API_KEY")
	if defaultKey == "" {
		defaultKey = "test-key"
	}
	flags := flag.NewFlagSet("fakeserver", flag.ContinueOnError)
	flags.SetOutput(stderr)
	addr := flags.String("addr", "127.0.0.1:8080", "address to listen on (port 0 picks a free port)")
	apiKey := flags.String("api-key", defaultKey, "API key required in x-service-key (default: $TRANSCRIPTION_API_KEY, else test-key)")
	liveJobs := flags.Int("live-jobs", 0, "number of deterministic live jobs to seed")
	processingTime := flags.Duration("processing-time", 2*time.Second, "time a job spends queued and processing before it is final")
	zdr := flags.Bool("zero-data-retention", false, "emulate an account with zero data retention")
	maxUploadMB := flags.Int64("max-upload-mb", 100, "largest file POST /v2/upload accepts, in MiB (larger: 413); uploads are kept in memory")
	if err := flags.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil
		}
		return err
	}
	switch {
	case flags.NArg() > 0:
		return fmt.Errorf("unexpected arguments: %v", flags.Args())
	case *apiKey == "":
		return errors.New("-api-key must not be empty")
	case *liveJobs < 0:
		return errors.New("-live-jobs must not be negative")
	case *processingTime < 0:
		return errors.New("-processing-time must not be negative")
	case *maxUploadMB < 1 || *maxUploadMB > 1<<20:
		return errors.New("-max-upload-mb must be from 1 to 1048576")
	}

	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return err
	}
	fake := fakeserver.New(fakeserver.Options{
		APIKey:            *apiKey,
		ProcessingTime:    *processingTime,
		ZeroDataRetention: *zdr,
		LiveJobs:          *liveJobs,
		MaxUploadBytes:    *maxUploadMB << 20,
	})
	defer fake.Close()

	logger := log.New(stderr, "fakeserver: ", log.LstdFlags|log.Lmicroseconds)
	srv := &http.Server{
		Handler:           logRequests(logger, fake),
		ReadHeaderTimeout: 10 * time.Second,
		ErrorLog:          logger,
	}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	fmt.Fprintf(stdout, "fakeserver listening on http://%s\n", ln.Addr())

	select {
	case err := <-served:
		return err
	case <-ctx.Done():
	}
	logger.Print("shutting down")
	shutdownCtx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := srv.Shutdown(shutdownCtx); err != nil {
		return err
	}
	if err := <-served; !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// logRequests logs each request's method, target, status and duration; no
// headers, so the API key never reaches the log.
func logRequests(logger *log.Logger, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		sw := &statusWriter{ResponseWriter: w, status: http.StatusOK}
		next.ServeHTTP(sw, r)
		logger.Printf("%s %s %d %s", r.Method, r.URL.RequestURI(), sw.status, time.Since(start).Round(time.Microsecond))
	})
}

type statusWriter struct {
	http.ResponseWriter
	status int
}

func (w *statusWriter) WriteHeader(status int) {
	w.status = status
	w.ResponseWriter.WriteHeader(status)
}

func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
