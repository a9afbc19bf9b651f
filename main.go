package main

import (
	"flag"
	"log"
	"os"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6/tf6server"

	"github.com/transcription-service/terraform-provider-transcription/internal/provider"
)

// version is set at build time by goreleaser or the GNUmakefile
// (-ldflags "-X main.version=...").
var version = "dev"

func main() {
	var debug bool
	flag.BoolVar(&debug, "debug", false, "run the provider with support for debuggers like delve")
	flag.Parse()

	// Before the server starts: its loggers read these for every request.
	if _, err := provider.SetSDKLogLevelsFromCLI(os.Getenv, os.Setenv); err != nil {
		log.Fatal(err.Error())
	}

	server, err := provider.NewProtocol6Server(version)()
	if err != nil {
		log.Fatal(err.Error())
	}
	var opts []tf6server.ServeOpt
	if debug {
		opts = append(opts, tf6server.WithManagedDebug())
	}
	if err := tf6server.Serve(provider.Address, func() tfprotov6.ProviderServer { return server }, opts...); err != nil {
		log.Fatal(err.Error())
	}
}
