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

	"github.com/transcription-service/terraform-provider-transcription/internal/heapfloor"
	"github.com/transcription-service/terraform-provider-transcription/internal/provider"
)

// version is set at build time by goreleaser or the GNUmakefile
// (-ldflags "-X main.version=...").
var version = "dev"

// sigtermGrace is how long the provider outlives a SIGTERM: a CI runner or a
// service manager sends SIGKILL some seconds later.
const sigtermGrace = 10 * time.Second

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
	// provider outlives it by sigtermGrace, time for that stop; the CLI
	// kills it once done.
	// Where the CLI sends no stop (Terraform 1.8 and OpenTofu while an apply
	// plans), either signal, which a terminal's Ctrl-C or a CI runner sends
	// the whole process group, stops what the plan reads (a refresh, a data
	// source's wait) itself: it ran on until its timeout, an hour.
	stopped, stop := context.WithCancel(context.Background())
	if !debug {
		signals := make(chan os.Signal, 2)
		signal.Notify(signals, os.Interrupt, syscall.SIGTERM)
		go func() {
			var exit *time.Timer
			for sig := range signals {
				stop()
				if sig == syscall.SIGTERM && exit == nil {
					exit = time.AfterFunc(sigtermGrace, func() { os.Exit(1) })
				}
			}
		}()
	}

	err := providerserver.Serve(context.Background(), provider.NewStoppable(version, stopped), providerserver.ServeOpts{
		Address: provider.Address,
		Debug:   debug,
	})
	if err != nil {
		log.Fatal(err.Error())
	}
}
