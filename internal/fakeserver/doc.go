// Package fakeserver is an in-memory emulator of the transcription service's
// HTTP interface (spec/transcription-api.md, with the gaps filled as
// design.md decides). Run it to test a pipeline offline:
//
//	go run ./internal/fakeserver/cmd/fakeserver -addr 127.0.0.1:0
//
// or embed it in Go tests: New returns an http.Handler to serve with
// net/http/httptest or with Serve (which can also take the service off its
// address and bring it back there, to emulate an outage), plus methods to
// inspect what it received and to steer it.
//
// # Endpoints
//
//	POST   /v2/pre-recorded             create a job → 201 {id, result_url}
//	GET    /v2/pre-recorded             list jobs (filters and pagination, as /v2/live)
//	GET    /v2/pre-recorded/{id}        the job record
//	DELETE /v2/pre-recorded/{id}        202; 403 while queued or processing
//	GET    /v2/pre-recorded/{id}/file   the audio the job was made from
//	GET    /v2/transcription/{id}       the record of a pre-recorded or live job
//	GET    /v2/live                     list live jobs (filters and pagination)
//	GET    /v2/live/{id}                the live job record
//	DELETE /v2/live/{id}                202; 403 while queued or processing
//	GET    /v2/live/{id}/file           the audio of the live session
//	POST   /v2/upload                   multipart field "audio", a PCM WAV file
//	GET    /file/{id}                   the bytes of an uploaded file
//
// Every request needs the x-service-key header (401 otherwise, on every path).
// Every error answer carries the service's JSON error body.
//
// The listings take offset, limit (default 20), date (YYYY-MM-DD, the UTC
// day of created_at), after_date and before_date (ISO 8601, strict),
// status (repeated) and custom_metadata[key]=value; they answer {first,
// current, next, items}, newest first, next null on the last page.
//
// # Audio files
//
// GET .../{id}/file answers with Content-Type audio/wav, the file's name in
// Content-Disposition, and ranges. A job made from an upload of this server
// gives back the uploaded bytes; any other job (an external audio_url, a
// seeded live session) gives silence: a 16 kHz 16-bit PCM WAV of the job's
// duration and channels, produced as it is sent. A failed job, or a live job
// still queued, has no file (404).
//
// # Uploads
//
// POST /v2/upload keeps the file in memory and refuses one larger than
// Options.MaxUploadBytes (100 MiB by default; the command's -max-upload-mb)
// with 413 and the error body, as the service refuses files past its own
// limit (the spec gives none; the service's public documentation gives
// 1000 MB). Raise it to try files that large.
//
// # Job lifecycle
//
// A job is "queued" for the first quarter of Options.ProcessingTime after its
// creation, "processing" until ProcessingTime has elapsed, then final:
// "done", or "error" when a failure is asked for (below). Time is read from
// Options.Clock, so tests can drive it with a ManualClock. Jobs advance even
// when nobody polls: a background loop finalizes them and delivers callbacks
// every ~20ms, and Server.SettleJobs does the same on demand.
//
// # Steering a job through its audio_url
//
//   - A URL containing "fail" makes the job end in status "error" with
//     error_code 500; "fail-NNN" (NNN from 400 to 599) sets error_code NNN,
//     e.g. https://example.com/fail-422.wav. Such jobs have file and result null.
//   - A duration=SECONDS query parameter sets the audio duration and
//     channels=N the number of channels, e.g.
//     https://example.com/call.wav?duration=12.5&channels=2.
//     The transcript covers at most the first four hours of any audio.
//   - Otherwise the duration is 5 to 60 seconds, derived from a hash of the URL
//     (the same URL always gives the same duration), with 1 channel.
//   - The filename is the last path segment of the URL.
//   - A URL returned by POST /v2/upload of this server uses that file's real
//     WAV duration, channels and filename; such a URL naming no stored upload
//     makes the job fail with error_code 404.
//
// Results come from a deterministic generator: the same request and audio
// always give the same result.
//
// # Request details
//
// Each audio_to_llm_config.prompts item may be a string (as the spec's
// samples send it) or an array of strings (as its schema and the official
// client's types have it), read as one prompt whose parts are joined by a
// newline; request_params gives every prompt back as a string.
//
// Subtitles never break a word: a single word longer than
// maximum_characters_per_row (the e-mail addresses of the generated
// transcripts, say) stands whole on a row of its own, past the bound; every
// row of two words or more keeps it.
//
// # Callbacks
//
// With "callback": true the final job is sent to callback_config.url using
// callback_config.method (POST by default); the deprecated callback_url gets
// a POST. The body is {id, event: "transcription.success", payload: <result>,
// custom_metadata} or {id, event: "transcription.error", error: {code,
// message}, custom_metadata}. A failed delivery (transport error or non-2xx
// answer) is retried twice with a short backoff. The API key is never sent
// to a callback URL.
//
// # Zero data retention
//
// With Options.ZeroDataRetention, POST /v2/upload, GET /v2/pre-recorded,
// GET /v2/pre-recorded/{id}, GET /v2/transcription/{id} and both file
// downloads answer 403, and the server forgets a job as
// soon as its callback has been delivered (or finally failed), or as soon as
// it is final when it has no callback.
//
// # Live jobs
//
// Options.LiveJobs seeds that many live jobs, the same ones for the same
// count and clock time: created over the seven days before the clock's now,
// mostly done, some error, a few processing or queued, with custom_metadata
// {"team": alpha|bravo|charlie|delta, "env": prod|staging} and sometimes
// "priority": 1..3 (about one in ten has none). Server.AddLiveJob adds more,
// Server.RemoveLiveJob and DELETE /v2/live/{id} delete one.
//
// # Faults
//
// Server.SetFaults adds latency to every request and answers a deterministic
// (by seed) share of requests with 429 (with Retry-After) or a 5xx, before
// any routing or authentication.
package fakeserver
