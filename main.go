package main

import (
	"context"
	"flag"
	"log"
	"os"
	"os/signal"
	"syscall"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"

	"github.com/transcription-service/terraform-provider-transcription/internal/heapfloor"
	"github.com/transcription-service/terraform-provider-transcription/internal/provider"
)

// version is set at build time by goreleaser or the GNUmakefile
// (-ldflags "-X main.version=...").
var version = "dev"

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
	// CLI still kills the provider when it exits.
	if !debug {
		signal.Ignore(syscall.SIGTERM)
	}

	err := providerserver.Serve(context.Background(), provider.New(version), providerserver.ServeOpts{
		Address: provider.Address,
		Debug:   debug,
	})
	if err != nil {
		log.Fatal(err.Error())
	}
}
