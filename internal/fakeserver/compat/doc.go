// Package compat runs the service's official JavaScript client
// (@gladiaio/sdk, pinned in package.json and package-lock.json) against the
// fake server: `make compat`, part of `make test`, or
//
//	go test -tags compat ./internal/fakeserver/compat/
//
// The test installs the client (and the TypeScript compiler) with npm ci
// into node_modules (not committed), starts the fake server on 127.0.0.1
// and runs official-client.test.mjs with Node's test runner. A second test
// (types_test.go) type-checks the golden fixtures and the fake server's
// answers against the client's type definitions with tsc. Both are skipped,
// saying so, only when npm is not installed.
//
// The client is given the API key through its own httpHeaders option under
// the header name the fake server reads (x-service-key), which is how a user
// points it at the fake server; nothing renames headers in between.
package compat
