package main

import (
	"context"
	"flag"
	"log"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"

	"github.com/transcription-service/terraform-provider-transcription/internal/client"
	"github.com/transcription-service/terraform-provider-transcription/internal/heapfloor"
	"github.com/transcription-service/terraform-provider-transcription/internal/provider"
)

// version is set at build time by goreleaser or the GNUmakefile
// (-ldflags "-X main.version=...").
var version = "dev"

// sigtermGrace is how long the provider outlives a SIGTERM (a CI runner or a
// service manager sends SIGKILL some seconds later), counted from the end of
// the last create in flight if one is; maxSigtermWait bounds it, above the
// longest a create's answer may take (client's timeouts: 30 s to connect,
// 2 minutes for the answer to begin).
const (
	sigtermGrace   = 10 * time.Second
	maxSigtermWait = 5 * time.Minute
)

func main() {
	var debug bool
	flag.BoolVar(&debug, "debug", false, "run the provider with support for debuggers like delve")
	flag.Parse()

	// Terraform starts the provider for each command; the collector would
	// otherwise take about 30 % of its CPU time (internal/heapfloor).
	heapfloor.Reserve(os.Getenv)

	// Before the server starts: its loggers read these for every request.
	// Not in debug mode: the provider then logs to its own terminal, which
	// no CLI filters, and its environment usually names no level.
	if !debug {
		if _, err := provider.SetLogLevelsFromCLI(os.Getenv, os.Setenv); err != nil {
			log.Fatal(err.Error())
		}
	}

	// Terraform stops gracefully on SIGTERM as on SIGINT, telling its
	// providers to stop (StopProvider) and saving what they return; go-plugin
	// ignores SIGINT here, but SIGTERM, which a service manager or a CI
	// runner sends the CLI's whole process group, killed the provider at
	// once, and a job the service had created was lost with its id. The
	// provider outlives it by sigtermGrace, time for that stop, and while a
	// create is in flight (its answer holds the job's id); the CLI kills it
	// once done.
	// Where the CLI sends no stop (Terraform 1.8 and OpenTofu while an apply
	// plans), either signal, which a terminal's Ctrl-C or a CI runner sends
	// the whole process group, stops what the plan reads (a refresh, a data
	// source's wait) itself: it ran on until its timeout, an hour.
	stopped, stop := context.WithCancel(context.Background())
	if !debug {
		signals := make(chan os.Signal, 2)
		signal.Notify(signals, os.Interrupt, syscall.SIGTERM)
		go func() {
			exiting := false
			for sig := range signals {
				stop()
				if sig == syscall.SIGTERM && !exiting {
					exiting = true
					go exitAfterSIGTERM()
				}
			}
		}()
		go stopWhenOrphaned(stop)
	}

	err := providerserver.Serve(context.Background(), provider.NewStoppable(version, stopped), providerserver.ServeOpts{
		Address: provider.Address,
		Debug:   debug,
	})
	if err != nil {
		log.Fatal(err.Error())
	}
}

// stopWhenOrphaned stops the provider, and then exits it as after a
// SIGTERM, once the CLI that started it has gone without ending it (killed
// with SIGKILL, crashed): reparented, it went on polling a job until its
// timeout, an hour, and then idled for ever. Checked every second, where
// the parent process id changes on its death (Unix).
func stopWhenOrphaned(stop context.CancelFunc) {
	parent := os.Getppid()
	for range time.Tick(time.Second) {
		if os.Getppid() != parent {
			stop()
			exitAfterSIGTERM()
		}
	}
}

// exitAfterSIGTERM exits sigtermGrace after it is called (a SIGTERM), or
// sigtermGrace after the last create then in flight ends
// (client.CarryingThrough), and at most maxSigtermWait after it is called.
func exitAfterSIGTERM() {
	start := time.Now()
	busy := start
	for now := start; now.Sub(busy) < sigtermGrace && now.Sub(start) < maxSigtermWait; now = time.Now() {
		if client.CarryingThrough() > 0 {
			busy = now
		}
		time.Sleep(100 * time.Millisecond)
	}
	os.Exit(1)
}
