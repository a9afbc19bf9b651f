// Package fakeserver is an in-memory emulator of the transcription service's
// HTTP interface, as DESIGN.md describes it ("The service's interface").
// Run it to rehearse a pipeline offline:
//
//	go install github.com/transcription-service/terraform-provider-transcription/internal/fakeserver/cmd/fakeserver@latest
//	fakeserver -addr 127.0.0.1:8080 -processing-time 5s-30s -max-concurrent-jobs 10 -retention 10m
//
// (or go run ./internal/fakeserver/cmd/fakeserver in this repository; every
// flag but -version also reads a FAKESERVER_ environment variable, see its
// -help; release
// archives hold the same command), or embed it in Go tests: New returns an
// http.Handler to serve with net/http/httptest or with Serve (which can also
// take the service off its address and bring it back there, to emulate an
// outage), plus methods to inspect what it received and to steer it. The
// control interface (below) offers the same steering over HTTP.
//
// # Endpoints
//
//	POST   /v2/pre-recorded             create a job → 201 {id, result_url}
//	GET    /v2/pre-recorded             list jobs (filters and pagination, as /v2/live)
//	GET    /v2/pre-recorded/{id}        the job record
//	DELETE /v2/pre-recorded/{id}        202; 403 while queued or processing
//	GET    /v2/pre-recorded/{id}/file   the audio the job was made from
//	GET    /v2/transcription            list jobs of kind=pre-recorded, kind=live, or both (where page links lead)
//	GET    /v2/transcription/{id}       the record of a pre-recorded or live job
//	GET    /v2/live                     list live jobs (filters and pagination)
//	GET    /v2/live/{id}                the live job record
//	DELETE /v2/live/{id}                202; 403 while queued or processing
//	GET    /v2/live/{id}/file           the audio of the live session
//	POST   /v2/upload                   multipart field "audio", an audio or video file (see Audio files)
//	GET    /file/{id}                   the bytes of an uploaded file
//
// An {id} is a UUID, read without case (RFC 9562 §4), as are the ids in
// uploaded files' URLs.
//
// Live sessions are listed, read and deleted, not started: the spec shows
// neither a session's request nor how its messages travel, so POST /v2/live
// (the official client's startSession) is answered 405 with an error body
// that says so, and a WebSocket opened to a session (connectSession) is
// closed as soon as it opens, with code 4405 (which the client does not
// retry) and a reason that says so. The listed live jobs are seeded (Options.LiveJobs,
// Server.AddLiveJob; the command's -live-jobs).
//
// Every request needs the x-service-key header (401 otherwise, on every path),
// but a WebSocket handshake to a live session (/v2/live), which the official
// client sends without it (a session's URL carries its token).
// Every error answer of the server's handlers carries the service's JSON
// error body (a request line Go's HTTP server cannot parse, such as a path
// with a malformed percent-escape, gets its plain "400 Bad Request" before
// any handler sees it). HEAD is answered
// wherever GET is, here and on the control interface, as GET without its
// body.
//
// A web page may call the server (the official client runs in browsers):
// a request with an Origin header is answered with
// Access-Control-Allow-Origin: * and Retry-After and Content-Disposition
// exposed, and a CORS preflight (OPTIONS with Access-Control-Request-Method,
// which carries no key) is answered 204, before recording, faults and
// authentication.
//
// The listings take offset, limit (default 20), date (YYYY-MM-DD, the UTC
// day of created_at), after_date and before_date (ISO 8601, strict),
// status (repeated) and custom_metadata[key]=value; they answer {first,
// current, next, items}, newest first, next null on the last page. The
// links have the spec's form, {base_url}/v2/transcription?status=…&offset=…&limit=…,
// with every filter given and the listing's kind (kind=live or
// kind=pre-recorded: the spec shows no kind, and this server's
// GET /v2/transcription lists both kinds without it), so following them
// pages through the same jobs.
//
// # Audio files
//
// An upload is read when it is a WAV file (PCM, float, or compressed with
// its byte rate): its real duration and channels are used, and a WAV file
// whose header cannot be read is refused (422). A file of any other format
// is accepted, as the service takes audio and video files, but not decoded:
// it is given 5 to 60 seconds from a hash of its content and one channel,
// as an external audio_url is. An empty file, and one whose bytes are no
// audio or video (text, a web page, a PDF, a zip, gzip or rar archive, a
// PNG, JPEG, GIF or WebP image: client.SniffMedia), are refused (422).
//
// GET .../{id}/file answers with the file's Content-Type (audio/wav, or for
// an upload of another format what its bytes sniff as), the file's name in
// Content-Disposition, and ranges. A job made from an upload of this server
// gives back the uploaded bytes; any other job (an external audio_url, a
// seeded live session) gives silence: a 16 kHz 16-bit PCM WAV of the job's
// duration and channels, produced as it is sent. A job whose record has no
// file has none to download (404): a failed pre-recorded job, a live job
// still queued. A live session that ended in error recorded its audio: its
// record has a file, and the file is served.
//
// # Uploads
//
// POST /v2/upload keeps the file in memory and refuses one larger than
// Options.MaxUploadBytes (100 MiB by default; the command's -max-upload-mb)
// with 413 and the error body, as the service refuses files past its own
// limit (the spec gives none; the service's public documentation gives
// 1000 MB). Raise it to try files that large.
//
// A create body is read up to 16 MiB, a bound of this emulator (the spec
// states none), far past what a configuration writes; a larger one is
// answered 413.
//
// # Job lifecycle
//
// A job is "queued" for the first quarter of its processing time after its
// creation, "processing" until that time has elapsed, then final: "done", or
// "error" when a failure is asked for (below). The processing time is
// Options.ProcessingTime, or with Options.ProcessingTimeMax above it a time
// in [ProcessingTime, ProcessingTimeMax] chosen by a hash of the job's
// audio_url: the same URL (or one naming the same file, RFC 9110 §4.2.3)
// always takes the same time, whatever order jobs arrive in (the command's
// -processing-time 5s-30s). Time is read from Options.Clock, so tests can
// drive it with a ManualClock. Jobs advance even
// when nobody polls: a background loop finalizes them and delivers callbacks
// every ~20ms, and Server.SettleJobs does the same on demand.
//
// # Concurrency limit
//
// With Options.MaxConcurrentJobs (-max-concurrent-jobs) at N, at most N jobs
// may be queued or processing at once, as an account's concurrency limit: a
// valid create beyond it is answered 429 with the error body and a
// Retry-After of the seconds (at least 1) until the first of them is final.
// No job is made; Stats.ConcurrencyLimited counts them.
//
// With Options.MaxProcessingJobs (-max-processing-jobs) at P, at most P jobs
// are processed at once: a job created while P are processing stays queued,
// first in, first out, until one of them is final, then takes its own
// processing time (its completed_at is that much later). This is how the
// service's public documentation describes an account's limits (25 jobs
// processed at once on paid plans, up to 300 queued): -max-processing-jobs
// 25 -max-concurrent-jobs 300 emulates that account.
//
// # Retention
//
// With Options.Retention (-retention), a final job is forgotten that long
// after its completed_at, and an upload that long after it was received, as
// the service's plans keep data for a period (the spec's Data retention):
// GET, DELETE and the file downloads then answer 404, the listing leaves the
// job out, and a new job on an expired upload's URL fails with error_code
// 404. A job whose upload has expired keeps its record but no longer has its
// audio (404). A live job expires as a pre-recorded one does, from its
// completed_at (the seeded ones have ended within the retention). Expiry
// happens at the exact time, whenever it is looked at, so a ManualClock can
// step past it. With
// retention on, and Options.RequestLogLimit bounding the request log (the
// command keeps 10,000 requests by default), a server under constant load
// holds a bounded amount of memory.
//
// # Steering a job through its audio_url
//
//   - A URL containing "fail" makes the job end in status "error" with
//     error_code 500; "fail-NNN" (NNN from 400 to 599) sets error_code NNN,
//     e.g. https://example.com/fail-422.wav. Such jobs have file and result null.
//   - A URL containing "addon-error" makes the job end "done" with every
//     add-on it asks for that has an add-on result of its own (sentences,
//     summarization, translation, named entity recognition, sentiment
//     analysis, audio to LLM; not diarization nor subtitles) failed: success
//     false, is_empty true, results null (an empty string for
//     sentiment_analysis, whose results the official client types as a
//     string) and an error with status_code 500;
//     "addon-error-NNN" (NNN from 400 to 599) sets status_code NNN, e.g.
//     https://example.com/addon-error-429.wav.
//   - A duration=SECONDS query parameter (above 0, at most 1e9) sets the
//     audio duration and channels=N (1 to 64) the number of channels, e.g.
//     https://example.com/call.wav?duration=12.5&channels=2.
//     The transcript covers at most the first four hours of any audio.
//   - Otherwise the duration is 5 to 60 seconds, derived from a hash of the URL
//     (the same URL, or one naming the same file by HTTP's rules, always
//     gives the same duration and transcript), with 1 channel.
//   - The filename is the last path segment of the URL.
//   - A URL returned by POST /v2/upload of this server uses that file's
//     duration, channels and filename (see Audio files), whichever of the
//     server's names (localhost, 127.0.0.1, a container's name) the upload
//     and the job were sent to; such a URL naming no stored upload makes the job fail with
//     error_code 404.
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
// An integer field takes any number whose value is whole, however written
// ("2", "2.0", "1e2"), as JSON Schema's integer type and a JavaScript
// service do; request_params gives it back as digits.
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
// answer; a redirect is not followed, so a 3xx is one) is retried twice with a short backoff. Each callback is sent on its
// own: a receiver slow to answer (each attempt may take 10 s) delays no
// other job's. The API key is never sent to a callback URL.
//
// # Zero data retention
//
// With Options.ZeroDataRetention, POST /v2/upload, GET /v2/pre-recorded,
// GET /v2/pre-recorded/{id}, GET /v2/live, GET /v2/live/{id}, GET /v2/transcription,
// GET /v2/transcription/{id} and both file downloads answer 403 (the spec:
// no transcripts or metadata can be retrieved through the API), a create
// without a callback answers 422 (results are delivered only by callback),
// and so does one whose audio_url names a file uploaded to this server
// (audio_url must be an external URL), and the server forgets a job as soon as its callback has been delivered
// (or finally failed).
//
// # Seeded pre-recorded jobs
//
// Options.PreRecordedJobs seeds that many pre-recorded jobs, the same ones
// for the same count and clock time, to rehearse what lists, reads, imports
// or deletes jobs made before it (terraform query, a listing data source):
// created over the seven days before the clock's now, 15 minutes old at
// least and ended (about one in ten in error 422), with a few of the
// options most used (languages, diarization, subtitles, a summary, named
// entities) and custom_metadata {"team", "queue": support|sales|billing|alpha,
// "env": prod|staging} and sometimes "priority": 1..3 (about one in ten has
// none). They are built whole at startup, results included (about 150 ms
// and 28 MB per 1,000, BenchmarkSeedPreRecorded), ended whatever the
// processing time (none counts against Options.MaxConcurrentJobs or
// MaxProcessingJobs), and are then jobs like any other. With
// Options.Retention shorter than a week they are created within it: none
// has expired at startup, and all have within a retention after it. Under
// zero data retention none is seeded.
//
// # Live jobs
//
// Options.LiveJobs seeds that many live jobs, the same ones for the same
// count and clock time: created over the seven days before the clock's now,
// mostly done, some error, a few processing or queued, with custom_metadata
// {"team": alpha|bravo|charlie|delta, "env": prod|staging} and sometimes
// "priority": 1..3 (about one in ten has none). Server.AddLiveJob adds more,
// Server.RemoveLiveJob and DELETE /v2/live/{id} delete one. A seeded job
// still queued or processing moves on with the clock (Options.LiveClock, if
// set, instead): it starts within two minutes of its creation, records more
// audio as time passes, and ends done or error within about twelve minutes.
// A done job's result.messages are those its messages_config chose: the
// lifecycle events with receive_lifecycle_events, one final transcript per
// utterance (word timings included) with receive_final_transcripts; the
// other categories are not emulated.
// A seeded job's full record (its transcript and word timings included) is
// built on its first read, without the server's lock, and kept as JSON, built again when its status
// changes or, while processing, once a second or more old;
// Server.BuildLiveJobs builds them all at once, so that a timed listing
// measures its client rather than the generator.
//
// # Faults
//
// Options.Faults, then Server.SetFaults (or the command's -latency,
// -rate-limit-ratio, -retry-after, -server-error-ratio, -server-error-status,
// -lost-answer-ratio and -fault-seed, or PUT /_emulator/faults) add latency
// to every request and answer a deterministic (by seed) share of requests
// with 429 (with Retry-After) or a 5xx, before any routing or
// authentication. A request whose client gives up during the latency is
// not handled. The lost-answer share is handled as usual (a live
// session's WebSocket upgrade excepted), then its connection closes before
// any of the answer is sent: a create so answered
// makes a job (billed) whose id its client never learns, the case a
// pipeline must survive without creating the job twice. The request
// listing shows the status it was answered with and answer_lost: true, the
// command's log the answer lost (a create's job id); stats count
// answers_lost.
//
// # Control interface
//
// Under ControlPrefix (/_emulator), off the service's /v2 paths, the server
// answers a small JSON interface for scripting fault drills, authenticated
// with the same x-service-key (401 otherwise). Its requests are neither
// faulted nor recorded, so it stays usable when every service request fails.
//
//	GET    /_emulator             the endpoints, and the emulator's settings
//	GET    /_emulator/faults      the faults injected now
//	PUT    /_emulator/faults      replace them: {"latency": "200ms",
//	                              "rate_limit_ratio": 0.2, "retry_after": 1,
//	                              "server_error_ratio": 0.1,
//	                              "server_error_status": 503,
//	                              "lost_answer_ratio": 0, "seed": 1};
//	                              missing fields are 0 (defaults: Retry-After
//	                              1, status 503); 400 when out of range
//	DELETE /_emulator/faults      inject none
//	POST   /_emulator/down        {"duration": "30s"}: answers 202 {down_for,
//	                              back_at}, then takes the service off its
//	                              address (connections refused, requests in
//	                              flight cut off, the control interface too)
//	                              and brings it back on the same address after
//	                              the duration (at most 1h), jobs kept. Needs
//	                              the Listener: Serve, or Server.UseListener
//	                              (409 otherwise). Options.OutageLog (the
//	                              command's log) tells its start, its end,
//	                              and an address taken meanwhile
//	GET    /_emulator/requests    ?after=SEQ&limit=N (default 1000): {requests:
//	                              [{seq, method, path, query, status, header,
//	                              body, body_bytes, answer_lost}], last_seq, next_after,
//	                              pending}, oldest first, among the newest
//	                              Options.RequestLogLimit; a request still
//	                              being answered has status 0 (499 once its
//	                              client went away), and last_seq stops
//	                              before the first such, so that polling
//	                              with after=last_seq sees every answer (and
//	                              lists the requests after it again);
//	                              next_after (the last listed) goes past it,
//	                              pending (their seqs) to look at again with
//	                              after=SEQ-1&limit=1
//	DELETE /_emulator/requests    forget them (Server.ResetRequests)
//	DELETE /_emulator/jobs/{id}   remove a pre-recorded job in any state (the
//	                              service removes only ended ones) or a live
//	                              job (Server.ExpireJob, RemoveLiveJob): 204,
//	                              or 404
//	GET    /_emulator/stats       Stats: requests, rate_limited, server_errors,
//	                              answers_lost,
//	                              jobs_created, concurrency_limited,
//	                              callbacks_delivered, callback_failures,
//	                              jobs_expired, uploads_expired, and what
//	                              it holds: jobs_stored, uploads_stored,
//	                              upload_bytes_stored
//
// The request listing carries no secret: a header whose name says it may
// carry one is left out (x-service-key, the official client's x-gladia-key,
// Authorization, Cookie, and any other naming a key, token, secret, auth,
// password, signature, credential or session); a JSON body is shown with
// callback_url's and callback_config.url's query values and the segments of
// their paths that may be tokens (8 characters or more, with a digit or a
// capital past the first character, or 16 or more with no separator),
// audio_url's query values (but duration and channels), a query parameter
// without "=" (a bare token) and any URL's user information, fragment or
// opaque part replaced by REDACTED; other bodies (uploads, malformed JSON)
// are left out, their size given. Server.Requests keeps the bodies (of an
// upload, its first 4 KiB: the part's headers and the file's header), those
// headers' values masked, for Go tests. The log's bodies, and those
// CreateBodies keeps, are each bounded to 64 MiB, the oldest dropped (a
// record stays, with its size), so that the server's memory stays bounded
// with Options.RequestLogLimit and Options.Retention.
package fakeserver
