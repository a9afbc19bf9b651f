// Command minimalprovider is the smallest terraform-plugin-framework provider
// of the transcription service's jobs, the floor the end-to-end benchmark
// (internal/bench/cmd/e2e, scale section) measures this repository's
// provider against: one resource, minimal_job, with three attributes (id,
// audio_url, status), plain net/http, no validation, no waiting for the job
// to finish, no retries. minimal_wide_job is the same resource with as many
// top-level attributes as transcription_job, the extra ones optional and
// left null: the floor of a schema that wide.
//
//	Create  POST /v2/pre-recorded {"audio_url": ...}, then GET /v2/pre-recorded/{id}
//	Read    GET /v2/pre-recorded/{id} (404 removes the job from state)
//	Delete  DELETE /v2/pre-recorded/{id} (202; 404 is fine)
//
// Every request carries x-service-key. The base URL and key come from the
// provider's arguments or TRANSCRIPTION_BASE_URL / TRANSCRIPTION_API_KEY.
// It serves protocol 6 under registry.terraform.io/bench/minimal, for
// dev_overrides only; nothing publishes it. It reserves the same heap floor
// as the provider (internal/heapfloor), so that what the benchmark compares
// is the work each does, not how often Go's collector runs.
package main

import (
	"log"
	"os"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6/tf6server"

	"github.com/transcription-service/terraform-provider-transcription/internal/heapfloor"
)

// Address is the provider's registry address; the CLI finds the binary
// (terraform-provider-minimal) through dev_overrides.
const Address = "registry.terraform.io/bench/minimal"

func main() {
	heapfloor.Reserve(os.Getenv)
	server, err := providerserver.NewProtocol6WithError(newProvider())()
	if err != nil {
		log.Fatal(err.Error())
	}
	if err := tf6server.Serve(Address, func() tfprotov6.ProviderServer { return server }); err != nil {
		log.Fatal(err.Error())
	}
}
